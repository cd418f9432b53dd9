import { describe, expect, it } from 'vitest';
import { formatTrace, type TraceEvent } from '../../src/sim/trace.ts';
import { cancelScenario, runHttp, sleeper } from './helpers.ts';

const kinds = (trace: readonly TraceEvent[], kind: TraceEvent['kind']) => trace.filter((e) => e.kind === kind);

describe('http stateless: a transport and Server per POST (SDK 1.32.2)', () => {
  for (const response of ['json', 'sse'] as const) {
    it(`should leave cancellation without effect in ${response} mode: the cancel POST reaches a fresh server`, async () => {
      const { result, open, findings } = await runHttp(cancelScenario({ stateful: false, response, eventStore: false }, true));
      const trace = result.trace;
      expect(result.outcome.kind).toBe('quiescent');
      // The cancel was delivered (to its own, fresh server) and answered 202 ...
      const cancel = trace.find((e) => e.kind === 'deliver' && JSON.stringify(e.frame).includes('notifications/cancelled'));
      expect(cancel).toBeDefined();
      // ... yet the handler ran to its normal end: nothing aborted it before.
      const end = kinds(trace, 'handler-end');
      expect(end).toMatchObject([{ outcome: 'result' }]);
      const abortAt = trace.findIndex((e) => e.kind === 'handler-abort');
      expect(abortAt === -1 || abortAt > end[0]!.i).toBe(true);
      // The response went out on the original POST, which therefore completes ...
      expect(open).toEqual([]);
      expect(findings).toEqual([]);
      // ... and reached a client that had already given the call up.
      expect(kinds(trace, 'onerror').map((e) => (e as { message: string }).message), formatTrace(trace)).toContainEqual(
        expect.stringContaining('Received a response for an unknown message ID'),
      );
    });
  }

  it('should answer GET with 405, so the client opens no standalone stream', async () => {
    const { result } = await runHttp(cancelScenario({ stateful: false, response: 'sse', eventStore: false }, false));
    const get = result.trace.find((e) => e.kind === 'http-request' && e.method === 'GET' && e.at === 'client');
    expect(get).toBeDefined();
    expect(result.trace.find((e) => e.kind === 'http-response' && e.at === 'client' && e.exchange === (get as { exchange: number }).exchange)).toMatchObject({ status: 405 });
  });

  it('should abort the handler when the client disconnects: http.disconnect-not-cancel (the per-POST server closes)', async () => {
    const { result, findings } = await runHttp({
      profile: 'http',
      http: { stateful: false, response: 'sse', eventStore: false },
      handlers: { sleeper },
      actions: [
        { kind: 'call', call: 'c1', method: 'tools/call', handler: 'sleeper', options: {} },
        { kind: 'close', side: 'client' },
      ],
    });
    const t = result.trace;
    const seen = t.findIndex((e) => e.kind === 'http-disconnect' && e.at === 'server');
    expect(seen, formatTrace(t)).toBeGreaterThan(0);
    expect(t.findIndex((e) => e.kind === 'handler-abort')).toBeGreaterThan(seen);
    // Revision 2025-11-25 says a dropped stream is not a cancellation: a warning.
    expect(findings).toMatchObject([{ invariant: 'http.disconnect-not-cancel', severity: 'warning', request: 'c1' }]);
  });
});

describe('http.disconnect-not-cancel: stateful mode keeps the handler running', () => {
  it('should not fire: closing the client drops its POST stream but aborts nothing', async () => {
    const { result, findings } = await runHttp({
      profile: 'http',
      http: { stateful: true, response: 'sse', eventStore: false },
      handlers: { sleeper },
      actions: [
        { kind: 'call', call: 'c1', method: 'tools/call', handler: 'sleeper', options: {} },
        { kind: 'close', side: 'client' },
      ],
    });
    const t = result.trace;
    expect(t.some((e) => e.kind === 'http-disconnect' && e.at === 'server')).toBe(true);
    expect(t.filter((e) => e.kind === 'handler-end'), formatTrace(t)).toMatchObject([{ outcome: 'result' }]);
    expect(findings).toEqual([]);
  });
});
