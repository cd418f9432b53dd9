import { describe, expect, it } from 'vitest';
import { runChecked } from '../../src/check/runChecked.ts';
import { runScenario } from '../../src/sim/runScenario.ts';
import type { CallerAction, HandlerProgram, Scenario } from '../../src/sim/scenario.ts';
import { formatTrace, type TraceEvent } from '../../src/sim/trace.ts';
import { ScenarioError } from '../../src/sim/validate.ts';

/** Sleeps `ms` of virtual time, then answers; honours an abort. */
const sleep = (ms: number): HandlerProgram => ({ steps: [{ kind: 'sleep', ms }], end: { kind: 'result' }, onAbort: 'honour' });
/** Asks the client for its roots from inside the tool, then answers. */
const asker: HandlerProgram = { steps: [{ kind: 'call', method: 'roots/list', timeoutMs: 5000 }], end: { kind: 'result' }, onAbort: 'honour' };

function twoClients(response: 'json' | 'sse', actions: CallerAction[], handlers: Scenario['handlers']): Scenario {
  return { profile: 'http', http: { stateful: true, response, eventStore: false, clients: 2 }, handlers, actions };
}

/** Client A (0) calls `a` (1 s), client B (1) calls `b` (3 s): both ids are 1, and they overlap. */
const concurrent = (response: 'json' | 'sse', abortA = false): Scenario =>
  twoClients(
    response,
    [
      { kind: 'call', call: 'a1', method: 'tools/call', handler: 'a', options: { signal: 'a' } },
      { kind: 'call', call: 'b1', method: 'tools/call', handler: 'b', options: {}, client: 1 },
      ...(abortA ? [{ kind: 'abort' as const, signal: 'a' }] : []),
    ],
    { a: sleep(1000), b: sleep(3000) },
  );

const of = <K extends TraceEvent['kind']>(t: readonly TraceEvent[], kind: K) => t.filter((e): e is Extract<TraceEvent, { kind: K }> => e.kind === kind);
const frameOf = (e: { frame: unknown }) => e.frame as { id?: number; method?: string; result?: unknown; params?: { requestId?: number } };

/** Findings that would mean the oracle mixed the two clients up. */
const CONFUSION = /^(rpc\.routing|lifecycle\.reconnect-isolation|http\.single-stream|rpc\.request-id-unique|rpc\.response-matches-request|cancel\.in-flight-only|cancel\.late-response-silent)$/;

describe('http: several clients on one server (stateful)', () => {
  for (const response of ['sse', 'json'] as const) {
    describe(`${response} responses`, () => {
      it('should give each client its own response to the same JSON-RPC id, with no cross-delivery', async () => {
        const { result, findings } = await runChecked(concurrent(response));
        const t = result.trace;
        const starts = of(t, 'call-start');
        expect(starts.map((e) => [e.call, e.id, e.conn]), formatTrace(t)).toEqual([
          ['a1', 1, 1],
          ['b1', 1, 2],
        ]);
        // Both handlers ran at once, each on its own session.
        const handlers = of(t, 'handler-start').filter((e) => e.method === 'tools/call');
        expect(handlers.map((e) => [e.call, e.conn, e.id])).toEqual([
          ['a', 1, 1],
          ['b', 2, 1],
        ]);
        expect(Math.max(...handlers.map((e) => e.i))).toBeLessThan(t.findIndex((e) => e.kind === 'handler-end'));
        // Each response went out and came in on its client's connection only, once.
        const results = of(t, 'deliver').filter((e) => e.to === 'client' && frameOf(e).id === 1 && 'result' in (e.frame as object));
        const sends = new Map(of(t, 'send').map((e) => [e.seq, e]));
        expect(results.map((e) => e.conn).sort()).toEqual([1, 2]);
        for (const d of results) expect(sends.get(d.seq)?.conn).toBe(d.conn);
        // a1 settles when A's 1 s handler answers, b1 when B's 3 s one does: no answer crossed over.
        expect(of(t, 'call-settle').map((e) => [e.call, e.outcome, e.t])).toEqual([
          ['a1', 'resolved', 1000],
          ['b1', 'resolved', 3000],
        ]);
        const sessions = of(t, 'http-request').filter((e) => e.at === 'server' && e.method === 'POST' && e.session);
        for (const r of sessions) expect(r.session).toBe(`session-${r.conn}`);
        expect(findings.filter((f) => CONFUSION.test(f.invariant))).toEqual([]);
        // Signal `a` keeps the SDK's abort listener after settling (known leak.abort-listeners), nothing else.
        expect(findings.map((f) => f.invariant)).toEqual(['leak.abort-listeners']);
      });

      it("should route client A's cancel to A's session only; B's handler keeps running and answers", async () => {
        const { result, findings } = await runChecked(concurrent(response, true));
        const t = result.trace;
        const cancels = of(t, 'deliver').filter((e) => e.to === 'server' && frameOf(e).method === 'notifications/cancelled');
        expect(cancels.map((e) => [e.conn, frameOf(e).params?.requestId]), formatTrace(t)).toEqual([[1, 1]]);
        expect(of(t, 'handler-abort').map((e) => [e.conn, e.id])).toEqual([[1, 1]]);
        expect(of(t, 'handler-end').map((e) => [e.conn, e.id, e.outcome])).toEqual([
          [1, 1, 'aborted'],
          [2, 1, 'result'],
        ]);
        expect(of(t, 'call-settle').map((e) => [e.call, e.outcome])).toEqual([
          ['a1', 'rejected'],
          ['b1', 'resolved'],
        ]);
        expect(of(t, 'call-settle').find((e) => e.call === 'b1')?.t).toBe(3000);
        expect(findings.filter((f) => CONFUSION.test(f.invariant))).toEqual([]);
        // What the same cancel gives with one client (the SDK leaves A's POST open): nothing more.
        const single = await runChecked({
          ...concurrent(response, true),
          http: { stateful: true, response, eventStore: false },
          actions: concurrent(response, true).actions.filter((a) => !('client' in a && a.client === 1)),
        });
        expect(new Set(findings.map((f) => f.invariant))).toEqual(new Set(single.findings.map((f) => f.invariant)));
      });

      it('should be deterministic: the same hash twice, also under other schedules', async () => {
        for (const tape of [[], [0, 0, 1, 2, 1], [3, 1, 0, 2, 2, 1, 3]]) {
          const a = await runScenario(concurrent(response, true), { tape, seed: 5 });
          const b = await runScenario(concurrent(response, true), { tape, seed: 5 });
          expect(b.hash).toBe(a.hash);
          expect(a.trace.filter((e) => e.kind === 'escape')).toEqual([]);
        }
      });
    });
  }

  it("should send a server request made inside A's tool to A only (sse)", async () => {
    const { result, findings } = await runChecked(
      twoClients(
        'sse',
        [
          { kind: 'call', call: 'a1', method: 'tools/call', handler: 'asker', options: {} },
          { kind: 'call', call: 'b1', method: 'tools/call', handler: 'slow', options: {}, client: 1 },
        ],
        { asker, slow: sleep(2000) },
      ),
    );
    const t = result.trace;
    const roots = (e: { frame: unknown }) => frameOf(e).method === 'roots/list';
    expect(of(t, 'send').filter((e) => e.from === 'server' && roots(e)).map((e) => e.conn), formatTrace(t)).toEqual([1]);
    expect(of(t, 'deliver').filter((e) => e.to === 'client' && roots(e)).map((e) => e.conn)).toEqual([1]);
    expect(of(t, 'handler-start').filter((e) => e.side === 'client').map((e) => [e.conn, e.method])).toEqual([[1, 'roots/list']]);
    expect(of(t, 'call-settle').map((e) => [e.call, e.outcome])).toEqual([
      ['server:1→roots/list', 'resolved'],
      ['a1', 'resolved'],
      ['b1', 'resolved'],
    ]);
    expect(findings).toEqual([]);
  });

  it("should send a caller's server-initiated call to the chosen client's session", async () => {
    const { result, findings } = await runChecked(
      twoClients('sse', [{ kind: 'call', call: 's1', method: 'roots/list', handler: 'r', options: {}, client: 1 }], { r: sleep(10) }),
    );
    const t = result.trace;
    expect(of(t, 'call-start').map((e) => [e.call, e.from, e.conn, e.id]), formatTrace(t)).toEqual([['s1', 'server', 2, 0]]);
    expect(of(t, 'handler-start').map((e) => [e.side, e.conn])).toEqual([['client', 2]]);
    expect(of(t, 'call-settle').map((e) => [e.call, e.outcome])).toEqual([['s1', 'resolved']]);
    expect(findings).toEqual([]);
  });

  it('should close and reconnect one client without disturbing the other', async () => {
    const { result, findings } = await runChecked(
      twoClients(
        'sse',
        [
          { kind: 'close', side: 'client', client: 1 },
          { kind: 'reconnect', client: 1 },
          { kind: 'call', call: 'a1', method: 'tools/call', handler: 'a', options: {} },
          { kind: 'call', call: 'b1', method: 'tools/call', handler: 'a', options: {}, client: 1 },
        ],
        { a: sleep(10) },
      ),
    );
    const t = result.trace;
    expect(of(t, 'connect').map((e) => [e.conn, e.client ?? 0]), formatTrace(t)).toEqual([
      [1, 0],
      [2, 1],
      [3, 1],
    ]);
    expect(of(t, 'call-start').map((e) => [e.call, e.conn])).toEqual([
      ['a1', 1],
      ['b1', 3],
    ]);
    expect(of(t, 'call-settle').every((e) => e.outcome === 'resolved')).toBe(true);
    expect(findings.filter((f) => CONFUSION.test(f.invariant))).toEqual([]);
  });

  it('should reject client counts out of range, several clients without sessions, and unknown client indices', async () => {
    const base = twoClients('sse', [], {});
    const bad: [Scenario, RegExp][] = [
      [{ ...base, http: { ...base.http!, clients: 0 } }, /http\.clients must be an integer from 1 to 4, got 0/],
      [{ ...base, http: { ...base.http!, clients: 5 } }, /http\.clients must be an integer from 1 to 4, got 5/],
      [{ ...base, http: { ...base.http!, clients: 1.5 } }, /http\.clients must be an integer/],
      [{ ...base, http: { ...base.http!, stateful: false } }, /http\.clients above 1 needs stateful: true/],
      [{ ...base, actions: [{ kind: 'reconnect', client: 2 }] }, /actions\[0\]\.client must be a client index from 0 to 1/],
      [{ ...base, http: undefined, actions: [{ kind: 'http-drop', client: 1 }] }, /actions\[0\]\.client must be a client index from 0 to 0 \(the scenario has 1 client; set http.clients/],
      [{ profile: 'memory', handlers: {}, actions: [{ kind: 'close', side: 'client', client: 1 }] }, /actions\[0\]\.client must be a client index from 0 to 0/],
    ];
    for (const [scenario, message] of bad) {
      const run = runScenario(scenario);
      await expect(run).rejects.toBeInstanceOf(ScenarioError);
      await expect(run).rejects.toThrow(message);
    }
    await expect(runScenario({ ...base, http: { ...base.http!, clients: 4 } })).resolves.toMatchObject({ outcome: { kind: 'quiescent' } });
  });
});
