import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/sim/scenario.ts';
import { formatTrace } from '../../src/sim/trace.ts';
import { runHttp, sleeper } from './helpers.ts';

/** c1 (id 1) is in flight; a raw POST through the same fetch reuses id 1. */
const duplicate = (response: 'json' | 'sse'): Scenario => ({
  profile: 'http',
  http: { stateful: true, response, eventStore: false },
  handlers: { sleeper },
  actions: [
    { kind: 'call', call: 'c1', method: 'tools/call', handler: 'sleeper', options: {} },
    { kind: 'http-post', body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sleeper', arguments: {} } } },
  ],
});

describe('http.duplicate-inflight-id: two in-flight POSTs share id 1 (stateful)', () => {
  for (const response of ['json', 'sse'] as const) {
    it(`should fire in ${response} mode: the first POST is orphaned, its answer leaves on the second`, async () => {
      const { result, open, findings } = await runHttp(duplicate(response));
      const t = result.trace;
      expect(result.outcome.kind).toBe('quiescent');
      expect(findings.map((f) => f.invariant).sort(), formatTrace(t)).toEqual(['http.duplicate-inflight-id', 'http.exchange-completes']);
      // Both handlers ran and ended; the second response found no stream.
      expect(t.filter((e) => e.kind === 'handler-end')).toHaveLength(2);
      expect(t.some((e) => e.kind === 'onerror' && e.message.includes('No connection established for request ID: 1'))).toBe(true);
      // c1 never got an answer: it times out at the SDK's 60 s default.
      expect(t.find((e) => e.kind === 'call-settle')).toMatchObject({ call: 'c1', outcome: 'rejected', t: 60_000 });
      const sdkPost = open.find((o) => o.method === 'POST');
      expect(sdkPost).toMatchObject({ requestIds: [1], state: response === 'json' ? 'at-server' : 'streaming' });
    });
  }
});
