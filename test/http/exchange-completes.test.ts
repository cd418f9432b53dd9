import { describe, expect, it } from 'vitest';
import { formatTrace } from '../../src/sim/trace.ts';
import { cancelScenario, runHttp } from './helpers.ts';

describe('http.exchange-completes: tools/call aborted while its handler sleeps (stateful)', () => {
  for (const response of ['json', 'sse'] as const) {
    it(`should fire in ${response} mode: the cancelled POST never ends (SDK 1.32.2 bug)`, async () => {
      const { result, open, findings } = await runHttp(cancelScenario({ stateful: true, response, eventStore: false }, true));
      expect(result.outcome.kind).toBe('quiescent');
      const post = open.find((o) => o.method === 'POST');
      expect(post, formatTrace(result.trace)).toMatchObject({ requestIds: [1], state: response === 'json' ? 'at-server' : 'streaming' });
      const hit = findings.filter((f) => f.invariant === 'http.exchange-completes');
      expect(hit).toHaveLength(1);
      expect(hit[0]).toMatchObject({ severity: 'violation', request: 'c1' });
      // The cancel itself was accepted as a notification must be.
      expect(findings.filter((f) => f.invariant !== 'http.exchange-completes')).toEqual([]);
    });

    it(`should not fire in ${response} mode without the abort: the POST completes`, async () => {
      const { result, open, findings } = await runHttp(cancelScenario({ stateful: true, response, eventStore: false }, false));
      expect(result.outcome.kind).toBe('quiescent');
      expect(result.trace.some((e) => e.kind === 'call-settle' && e.outcome === 'resolved')).toBe(true);
      // Only the standalone GET stream stays open, by design.
      expect(open.filter((o) => o.method === 'POST')).toEqual([]);
      expect(findings).toEqual([]);
    });
  }

  it('should also fire with an event store (resumability does not end the stream)', async () => {
    const { findings } = await runHttp(cancelScenario({ stateful: true, response: 'sse', eventStore: true }, true));
    expect(findings.map((f) => f.invariant)).toEqual(['http.exchange-completes']);
  });

  it('should not fire while a handler that never finishes keeps its POST open', async () => {
    const { result, open, findings } = await runHttp({
      profile: 'http',
      http: { stateful: true, response: 'sse', eventStore: false },
      handlers: { forever: { steps: [], end: { kind: 'hang' }, onAbort: 'ignore' } },
      actions: [{ kind: 'call', call: 'c1', method: 'tools/call', handler: 'forever', options: { timeoutMs: 0 } }],
    }, { maxVirtualMs: 10 });
    expect(open.some((o) => o.method === 'POST')).toBe(true);
    expect(findings, formatTrace(result.trace)).toEqual([]);
  });
});
