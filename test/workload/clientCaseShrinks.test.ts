import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClientProgram } from '../../src/real/clientScript.ts';
import { clientCaseArbitrary } from '../../src/workload/clientCaseArbitrary.ts';
import { clientCaseShape } from '../../src/workload/clientCaseShape.ts';
import { clientCaseShrinks } from '../../src/workload/clientCaseShrinks.ts';
import { deadlineOf, GRID_MS } from '../../src/workload/clientCaseTiming.ts';

/** Two calls: c1 with progress, a timeout and a maximum total, aborted; c2 with a server request cancelled by the server; a close. */
const big: ClientProgram = {
  plan: {
    calls: {
      c1: { steps: [{ kind: 'progress', progress: 1, total: 100, token: 'invented' }, { kind: 'sleep', ms: 600 }], end: { kind: 'hang' }, onCancel: 'respond', after: [{ kind: 'progress', progress: 2 }] },
      c2: { steps: [{ kind: 'request', method: 'sampling/createMessage', cancelAfterMs: 200, graceMs: 400, id: 0 }], end: { kind: 'error', code: -32042 }, onCancel: 'continue' },
    },
  },
  script: {
    actions: [
      { kind: 'call', call: 'c1', atMs: 0, progress: true, timeoutMs: 700, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 1_100 },
      { kind: 'call', call: 'c2', atMs: 400 },
      { kind: 'abort', call: 'c1', atMs: 900 },
      { kind: 'close', atMs: 1_500 },
    ],
    serverRequests: { delayMs: 0, hang: true },
    deadlineMs: 3_000,
  },
};

/** The case `clientCaseShrinks` ends at when every candidate still fails: the first candidate taken until there is none. */
function smallest(p: ClientProgram): { minimal: ClientProgram; steps: number } {
  let minimal = p;
  let steps = 0;
  for (let next = clientCaseShrinks(minimal)[0]; next !== undefined; next = clientCaseShrinks(minimal)[0]) {
    minimal = next;
    steps++;
  }
  return { minimal, steps };
}

describe('clientCaseShrinks', () => {
  it('tries fewer calls first (the one left renumbered c1), then big steps (every program plain, one plain, the handlers at once, neither abort nor close), then no abort, no close', () => {
    const [dropC1, dropC2, allPlain, c1Plain, c2Plain, atOnce, noneButCalls, noAbort, noClose] = clientCaseShrinks(big);
    const plain = { steps: [], end: { kind: 'result' }, onCancel: 'stop' };
    expect(allPlain!.plan.calls).toEqual({ c1: plain, c2: plain });
    expect(c1Plain!.plan.calls).toEqual({ c1: plain, c2: big.plan.calls['c2'] });
    expect(c2Plain!.plan.calls).toEqual({ c1: big.plan.calls['c1'], c2: plain });
    expect(atOnce!.script.serverRequests).toEqual({ delayMs: 0, hang: false });
    expect(noneButCalls!.script.actions.map((a) => a.kind)).toEqual(['call', 'call']);
    expect(dropC1!.script.actions).toEqual([{ kind: 'call', call: 'c1', atMs: 400 }, { kind: 'close', atMs: 1_500 }]);
    expect(Object.keys(dropC1!.plan.calls)).toEqual(['c1']);
    expect(dropC1!.plan.calls['c1']).toEqual(big.plan.calls['c2']);
    expect(dropC2!.script.actions.map((a) => a.kind)).toEqual(['call', 'abort', 'close']);
    expect(noAbort!.script.actions.map((a) => a.kind)).toEqual(['call', 'call', 'close']);
    expect(noClose!.script.actions.map((a) => a.kind)).toEqual(['call', 'call', 'abort']);
  });

  it('simplifies one thing at a time: options, start, late frames, steps, end, cancel conduct, requests, progress, sleeps, handlers, times', () => {
    const all = clientCaseShrinks(big);
    const has = (pred: (p: ClientProgram) => boolean) => all.some(pred);
    const c1 = (p: ClientProgram) => p.script.actions.find((a) => a.kind === 'call' && a.call === 'c1') as Extract<ClientProgram['script']['actions'][number], { kind: 'call' }>;
    expect(has((p) => c1(p).timeoutMs === undefined && c1(p).maxTotalTimeoutMs === undefined)).toBe(true);
    expect(has((p) => c1(p).progress === undefined)).toBe(true);
    expect(has((p) => p.script.actions.some((a) => a.kind === 'call' && a.call === 'c2' && a.atMs === 0))).toBe(true);
    expect(has((p) => 'c1' in p.plan.calls && p.plan.calls['c1']!.after === undefined)).toBe(true);
    expect(has((p) => p.plan.calls['c1']?.end.kind === 'result')).toBe(true);
    expect(has((p) => p.plan.calls['c2']?.onCancel === 'stop')).toBe(true);
    expect(has((p) => p.plan.calls['c1']?.steps.length === 1)).toBe(true);
    expect(has((p) => p.plan.calls['c1']?.steps.some((s) => s.kind === 'sleep' && s.ms === 400) === true)).toBe(true);
    expect(has((p) => p.plan.calls['c1']?.steps.some((s) => s.kind === 'progress' && s.token === undefined) === true)).toBe(true);
    expect(has((p) => p.plan.calls['c2']?.steps.some((s) => s.kind === 'request' && s.id === undefined) === true)).toBe(true);
    expect(has((p) => p.plan.calls['c2']?.steps.some((s) => s.kind === 'request' && s.cancelAfterMs === undefined && s.timeoutMs === 600) === true)).toBe(true);
    expect(has((p) => !p.script.serverRequests.hang)).toBe(true);
    expect(has((p) => p.script.actions.some((a) => a.kind === 'close' && a.atMs === 1_300))).toBe(true);
    expect(has((p) => c1(p).timeoutMs === 300 && c1(p).maxTotalTimeoutMs === 700)).toBe(true);
    // Each candidate is one change: never the case itself, never twice the same.
    const keys = all.map((p) => JSON.stringify(p));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).not.toContain(JSON.stringify(big));
  });

  it('never gives the case back as a candidate, also with its transport on it and plain programs (each round would shrink to itself)', () => {
    const plain: ClientProgram = { plan: { calls: { c1: { steps: [], end: { kind: 'result' }, onCancel: 'stop' } } }, script: { actions: [{ kind: 'call', call: 'c1', atMs: 0, timeoutMs: 1_100, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 1_500 }], serverRequests: { delayMs: 0, hang: false }, deadlineMs: 3_000 } };
    const withTransport = { transport: 'http', ...plain } as ClientProgram;
    const same = (x: ClientProgram) => JSON.stringify({ plan: x.plan, script: x.script }) === JSON.stringify({ plan: plain.plan, script: plain.script });
    expect(clientCaseShrinks(withTransport).filter(same)).toEqual([]);
    expect(clientCaseShrinks(withTransport)[0]!.script.actions).toEqual([{ kind: 'call', call: 'c1', atMs: 0 }]);
  });

  it('gives every candidate its own deadline and actions in order of time', () => {
    for (const p of clientCaseShrinks(big)) {
      expect(p.script.deadlineMs).toBe(deadlineOf(p));
      const times = p.script.actions.map((a) => a.atMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
  });

  it('ends, on generated cases, at one call with no option, no server step, a result and nothing else (every candidate taken)', () => {
    for (const p of fc.sample(clientCaseArbitrary({ options: ['resetTimeoutOnProgress', 'maxTotalTimeout'] }), { seed: 3, numRuns: 50 })) {
      const { minimal } = smallest(p);
      expect(minimal.script.actions).toEqual([{ kind: 'call', call: 'c1', atMs: 0 }]);
      expect(minimal.plan.calls).toEqual({ c1: { steps: [], end: { kind: 'result' }, onCancel: 'stop' } });
      expect([...clientCaseShape(minimal)]).toEqual([]);
    }
  });

  it('keeps what still fails when the rest goes: a case that needs the server cancel of id 0 keeps it, on the grid', () => {
    // A stand-in for "still fails": the candidate keeps a server-cancelled request with id 0.
    const fails = (p: ClientProgram) => Object.values(p.plan.calls).some((c) => c.steps.some((s) => s.kind === 'request' && s.cancelAfterMs !== undefined && s.id === 0));
    let minimal = big;
    for (let next = clientCaseShrinks(minimal).find(fails); next !== undefined; next = clientCaseShrinks(minimal).find(fails)) minimal = next;
    expect(minimal.script.actions).toEqual([{ kind: 'call', call: 'c1', atMs: 0 }]);
    expect(minimal.plan.calls['c1']!.steps).toEqual([{ kind: 'request', method: 'sampling/createMessage', cancelAfterMs: 200, graceMs: 400, id: 0 }]);
    expect(minimal.script.serverRequests).toEqual({ delayMs: 0, hang: false });
    expect(minimal.plan.calls['c1']!.steps.every((s) => s.kind !== 'request' || (s.cancelAfterMs! % GRID_MS === 0))).toBe(true);
  });
});
