import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallAction, ClientProgram } from '../../src/real/clientScript.ts';
import { generatedClientCases } from '../../src/targets/client/clientCases.ts';
import { clientCaseArbitrary } from '../../src/workload/clientCaseArbitrary.ts';
import { clientCaseShape } from '../../src/workload/clientCaseShape.ts';
import { DEADLINE_MAX_MS, DEADLINE_MIN_MS, GRID_MS } from '../../src/workload/clientCaseTiming.ts';

const SAMPLES = 400;
const both = clientCaseArbitrary({ options: ['resetTimeoutOnProgress', 'maxTotalTimeout'] });
const cases = fc.sample(both, { seed: 1, numRuns: SAMPLES });

const calls = (p: ClientProgram) => p.script.actions.filter((a): a is CallAction => a.kind === 'call');
const steps = (p: ClientProgram) => Object.values(p.plan.calls).flatMap((c) => [...c.steps, ...(c.after ?? [])]);
const requests = (p: ClientProgram) => steps(p).flatMap((s) => (s.kind === 'request' ? [s] : []));
/** Whether `ms` is the server's (an even multiple of 100) or the caller's (odd) on the grid. */
const even = (ms: number) => ms % GRID_MS === 0;
const odd = (ms: number) => ms % GRID_MS === GRID_MS / 2;

describe('clientCaseArbitrary: generated client cases', () => {
  it('reaches every building block of the fixed scenarios at some seed', () => {
    const reached = (what: string, p: (c: ClientProgram) => boolean) => [what, cases.some(p)] as const;
    const blocks = [
      reached('one call', (c) => calls(c).length === 1),
      reached('three calls', (c) => calls(c).length === 3),
      reached('a call started later', (c) => calls(c).some((a) => a.atMs > 0)),
      reached('progress', (c) => calls(c).some((a) => a.progress === true)),
      reached('no progress', (c) => calls(c).some((a) => a.progress !== true)),
      reached('a timeout', (c) => calls(c).some((a) => a.timeoutMs !== undefined && !a.resetTimeoutOnProgress)),
      reached('a timeout reset on progress', (c) => calls(c).some((a) => a.resetTimeoutOnProgress === true)),
      reached('a maximum total', (c) => calls(c).some((a) => a.maxTotalTimeoutMs !== undefined)),
      reached('an abort', (c) => c.script.actions.some((a) => a.kind === 'abort')),
      reached('a close', (c) => c.script.actions.some((a) => a.kind === 'close')),
      reached('server progress', (c) => steps(c).some((s) => s.kind === 'progress' && s.token === undefined)),
      reached('an invented token', (c) => steps(c).some((s) => s.kind === 'progress' && s.token === 'invented')),
      reached('a total', (c) => steps(c).some((s) => s.kind === 'progress' && s.total !== undefined)),
      reached('a sleep', (c) => steps(c).some((s) => s.kind === 'sleep')),
      ...(['sampling/createMessage', 'elicitation/create', 'roots/list'] as const).map((m) => reached(m, (c) => requests(c).some((s) => s.method === m))),
      reached('a server cancel', (c) => requests(c).some((s) => s.cancelAfterMs !== undefined)),
      reached('a server request waited for up to a time', (c) => requests(c).some((s) => s.timeoutMs !== undefined)),
      reached('a server request id 0', (c) => requests(c).some((s) => s.id === 0)),
      reached("a server request with the call's id", (c) => requests(c).some((s) => s.id === 'call')),
      reached('a result', (c) => Object.values(c.plan.calls).some((p) => p.end.kind === 'result')),
      reached('an error', (c) => Object.values(c.plan.calls).some((p) => p.end.kind === 'error')),
      reached('a hang', (c) => Object.values(c.plan.calls).some((p) => p.end.kind === 'hang')),
      ...(['stop', 'respond', 'continue'] as const).map((o) => reached(`on a cancel: ${o}`, (c) => Object.values(c.plan.calls).some((p) => p.onCancel === o))),
      reached('late progress after the answer', (c) => Object.values(c.plan.calls).some((p) => (p.after ?? []).some((s) => s.kind === 'progress'))),
      reached('handlers answering at once', (c) => !c.script.serverRequests.hang && c.script.serverRequests.delayMs === 0),
      reached('handlers answering late', (c) => c.script.serverRequests.delayMs > 0),
      reached('handlers never answering', (c) => c.script.serverRequests.hang),
    ];
    expect(blocks.filter(([, hit]) => !hit).map(([what]) => what)).toEqual([]);
  });

  it('keeps every time on the grid: the server at even multiples of 100 ms, the caller at odd ones after each call start', () => {
    for (const c of cases) {
      for (const a of c.script.actions) {
        if (a.kind === 'close') expect(odd(a.atMs)).toBe(true);
        if (a.kind === 'abort') expect(odd(a.atMs - calls(c).find((x) => x.call === a.call)!.atMs)).toBe(true);
        if (a.kind !== 'call') continue;
        expect(even(a.atMs)).toBe(true);
        for (const t of [a.timeoutMs, a.maxTotalTimeoutMs]) if (t !== undefined) expect(odd(t) && t >= 300).toBe(true);
      }
      for (const s of steps(c)) {
        if (s.kind === 'sleep') expect(even(s.ms)).toBe(true);
        if (s.kind !== 'request') continue;
        for (const t of [s.cancelAfterMs, s.graceMs, s.timeoutMs]) if (t !== undefined) expect(even(t)).toBe(true);
        // Never at the very time the client's handler answers.
        const policy = c.script.serverRequests;
        if (!policy.hang) expect([s.cancelAfterMs, s.timeoutMs]).not.toContain(policy.delayMs);
      }
      expect(c.script.deadlineMs).toBeGreaterThanOrEqual(DEADLINE_MIN_MS);
      expect(c.script.deadlineMs).toBeLessThanOrEqual(DEADLINE_MAX_MS);
    }
  });

  it('gives well-formed scripts: calls labelled c1.. each with its program, actions in order of time, each abort after its call, id 0 at most once a case and the call id once a call, progress counting up', () => {
    for (const c of cases) {
      const labels = calls(c).map((a) => a.call);
      expect([...labels].sort()).toEqual(labels.map((_, k) => `c${k + 1}`));
      expect(Object.keys(c.plan.calls).sort()).toEqual([...labels].sort());
      const times = c.script.actions.map((a) => a.atMs);
      expect(times).toEqual([...times].sort((x, y) => x - y));
      for (const a of c.script.actions) if (a.kind === 'abort') expect(c.script.actions.indexOf(a)).toBeGreaterThan(c.script.actions.findIndex((x) => x.kind === 'call' && x.call === a.call));
      expect(requests(c).filter((s) => s.id === 0).length).toBeLessThanOrEqual(1);
      for (const plan of Object.values(c.plan.calls)) expect(plan.steps.filter((s) => s.kind === 'request' && s.id === 'call').length).toBeLessThanOrEqual(1);
      for (const plan of Object.values(c.plan.calls)) {
        const values = [...plan.steps, ...(plan.after ?? [])].flatMap((s) => (s.kind === 'progress' ? [s.progress] : []));
        expect(values).toEqual(values.map((_, k) => k + 1));
      }
    }
  });

  it('uses a caller option only where the client has it', () => {
    const none = fc.sample(clientCaseArbitrary({ options: [] }), { seed: 1, numRuns: SAMPLES });
    expect(none.flatMap(calls).filter((a) => a.resetTimeoutOnProgress !== undefined || a.maxTotalTimeoutMs !== undefined)).toEqual([]);
  });

  it('draws the same cases from the same seed, other ones from another, each on the transports in turn', () => {
    const a = generatedClientCases(7, 6, ['stdio', 'http'], ['resetTimeoutOnProgress']);
    expect(generatedClientCases(7, 6, ['stdio', 'http'], ['resetTimeoutOnProgress'])).toEqual(a);
    expect(generatedClientCases(8, 6, ['stdio', 'http'], ['resetTimeoutOnProgress'])).not.toEqual(a);
    expect(a.map((c) => c.transport)).toEqual(['stdio', 'http', 'stdio', 'http', 'stdio', 'http']);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
  });

  it('names the features of a case as its shape', () => {
    const shapes = new Set(cases.flatMap((c) => [...clientCaseShape(c)]));
    for (const f of ['concurrent', 'progress', 'timeout', 'abort', 'close', 'invented-token', 'late-progress', 'server-cancel', 'server-request-id-0', 'server-request-same-id', 'end-hang', 'end-error', 'on-cancel-respond', 'handlers-hang']) expect(shapes).toContain(f);
  });
});
