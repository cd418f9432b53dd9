import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/sim/scenario.ts';
import { formatTrace } from '../../src/sim/trace.ts';
import { runHttp } from './helpers.ts';

/** c1's SSE stream breaks (`http-drop`) after its first progress; the handler sleeps `sleepMs`. */
const dropped = (eventStore: boolean, sleepMs: number): Scenario => ({
  profile: 'http',
  http: { stateful: true, response: 'sse', eventStore },
  handlers: {
    t: { steps: [{ kind: 'progress', progress: 1 }, { kind: 'sleep', ms: sleepMs }, { kind: 'progress', progress: 2 }], end: { kind: 'result' }, onAbort: 'honour' },
  },
  actions: [
    { kind: 'call', call: 'c1', method: 'tools/call', handler: 't', options: { onprogress: true } },
    { kind: 'http-drop' },
  ],
});

describe('http resumability: a broken POST stream (stateful, sse)', () => {
  for (const sleepMs of [3000, 500]) {
    it(`should resume with Last-Event-ID and settle the call, with an event store (response ${sleepMs > 1000 ? 'after' : 'before'} the resume)`, async () => {
      const { result, findings } = await runHttp(dropped(true, sleepMs));
      const t = result.trace;
      const resume = t.find((e) => e.kind === 'http-request' && e.at === 'client' && e.lastEventId !== undefined);
      expect(resume, formatTrace(t)).toMatchObject({ method: 'GET', lastEventId: 'e4' });
      expect(t.find((e) => e.kind === 'call-settle')).toMatchObject({ call: 'c1', outcome: 'resolved' });
      expect(t.filter((e) => e.kind === 'onprogress').map((e) => (e as { progress: number }).progress)).toEqual([1, 2]);
      expect(findings).toEqual([]);
    });
  }

  it('should lose the response without an event store: the call waits for its timeout', async () => {
    const { result, open, findings } = await runHttp(dropped(false, 500));
    const t = result.trace;
    expect(t.some((e) => e.kind === 'http-request' && e.lastEventId !== undefined)).toBe(false);
    expect(t.some((e) => e.kind === 'onerror' && e.message.includes('No connection established for request ID: 1'))).toBe(true);
    expect(t.find((e) => e.kind === 'call-settle')).toMatchObject({ call: 'c1', outcome: 'rejected', t: 60_000 });
    // The client dropped the POST itself: that is an end, not an orphaned exchange.
    expect(open.filter((o) => o.method === 'POST')).toEqual([]);
    expect(findings).toEqual([]);
  });
});

describe('http keep-alive in virtual time', () => {
  it('should write keep-alive comments on the virtual clock, deterministically', async () => {
    const scenario: Scenario = { ...dropped(false, 0), http: { stateful: true, response: 'sse', eventStore: false, keepAliveMs: 15_000 }, actions: [] };
    const a = await runHttp(scenario, { maxVirtualMs: 60_000 });
    const b = await runHttp(scenario, { maxVirtualMs: 60_000 });
    expect(a.result.hash).toBe(b.result.hash);
    // The standalone GET stream stays open, so its interval keeps the run going to the budget.
    expect(a.result.outcome.kind).toBe('time-budget');
    const comments = a.result.trace.filter((e) => e.kind === 'sse-event' && e.at === 'client' && e.comment);
    expect(comments.map((e) => e.t)).toEqual([15_000, 30_000, 45_000, 60_000]);
  });
});

/**
 * Two clients, two sessions of one server process, one event store (as a Redis-backed store is
 * shared). The SDK names every session's standalone GET stream `_GET_stream` and hands the store
 * only that stream id, so the store cannot tell the sessions' streams apart: when client 0
 * resumes its GET stream, the store replays client 1's sampling request into client 0's
 * session. Found by `check --seed 13` (case 180); docs/findings.md §8c.
 */
describe('http resumability: one event store shared by two sessions', () => {
  const shared: Scenario = {
    profile: 'http',
    http: { stateful: true, response: 'sse', eventStore: true, clients: 2 },
    handlers: {
      h1: { steps: [{ kind: 'sleep', ms: 2000 }], end: { kind: 'result' }, onAbort: 'honour' },
      h2: { steps: [{ kind: 'sleep', ms: 2000 }], end: { kind: 'result' }, onAbort: 'honour' },
    },
    actions: [
      { kind: 'call', call: 's1', method: 'elicitation/create', options: {}, handler: 'h1' },
      { kind: 'call', call: 's2', method: 'sampling/createMessage', options: {}, handler: 'h2', client: 1 },
      { kind: 'http-drop' },
    ],
  };

  it("replays the other session's server request into the resumed session (SDK 1.32.2)", async () => {
    const { result } = await runHttp(shared);
    const t = result.trace;
    const replayed = t.filter((e) => e.kind === 'sse-event' && e.replay === true);
    expect(replayed.length, formatTrace(t)).toBeGreaterThan(0);
    // The sampling request was sent in client 1's session (its second connection) …
    const sent = t.filter((e) => e.kind === 'send' && e.from === 'server' && JSON.stringify(e.frame).includes('sampling/createMessage'));
    expect(new Set(sent.map((e) => (e as { conn: number }).conn)).size, formatTrace(t)).toBe(2);
    // … and reaches client 0's session too, by the replay: client 0 starts a handler for it.
    const starts = t.filter((e) => e.kind === 'handler-start' && e.side === 'client' && e.method === 'sampling/createMessage');
    expect(starts.length, formatTrace(t)).toBe(2);
  });
});
