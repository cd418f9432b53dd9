import type { CallAction, ClientAction, ClientProgram, ServerCallPlan, ServerRequestPolicy, ServerStep } from '../real/clientScript.ts';
import { inOrder, withDeadline } from './clientCaseArbitrary.ts';
import { GRID_MS } from './clientCaseTiming.ts';

/** A server program at its plainest: a result at once, a cancel stops it. */
const PLAIN: ServerCallPlan = { steps: [], end: { kind: 'result' }, onCancel: 'stop' };

/** The least time after its start a caller acts on a call (a timeout, an abort), and the earliest close: as generated. */
const CALLER_MIN_MS = 300;

/**
 * Smaller client cases than `p`, simplest first: fewer calls (the rest renumbered from `c1`);
 * big steps (every server program plain, one plain, the handlers answering at once, no abort nor
 * close, no call options at all); no close, no abort; then each call's options gone (its timeout, maximum total, reset, progress) and
 * its start at 0; then each server program simpler (no late frames, fewer steps, a result for its
 * end, `stop` on a cancel, a request without its cancel or odd id, a progress with the call's own
 * token and no total, shorter sleeps); the client's handlers answering at once; the caller's times
 * earlier. Every candidate stays on the grid (`clientCaseTiming.ts`) and gets its own deadline; each
 * is run again and kept only if it still fails.
 */
export function clientCaseShrinks(p: ClientProgram): ClientProgram[] {
  const out: ClientProgram[] = [];
  // The case itself is never a candidate, whatever else it carries (a campaign's case has its transport).
  const keyOf = (plan: ClientProgram['plan'], actions: readonly ClientAction[], serverRequests: ClientProgram['script']['serverRequests']) =>
    JSON.stringify(withDeadline({ plan, script: { actions: inOrder(actions), serverRequests, deadlineMs: 0 } }));
  const seen = new Set([keyOf(p.plan, p.script.actions, p.script.serverRequests)]);
  const add = (plan: ClientProgram['plan'], actions: readonly ClientAction[], serverRequests = p.script.serverRequests) => {
    const candidate = withDeadline({ plan, script: { actions: inOrder(actions), serverRequests, deadlineMs: 0 } });
    const key = JSON.stringify(candidate);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(candidate);
  };
  const actions = p.script.actions;
  const calls = actions.filter((a): a is CallAction => a.kind === 'call');
  if (calls.length > 1) for (const c of calls) add(...renumbered(p, c.call));
  // Big steps first: a call's server program made plain (a result at once), every call plain; the
  // handlers answering at once; no abort nor close; every call without its options.
  const plainPlan = (labels: readonly string[]) => ({ ...p.plan, calls: Object.fromEntries(Object.entries(p.plan.calls).map(([l, c]) => [l, labels.includes(l) ? PLAIN : c])) });
  if (calls.length > 1) add(plainPlan(calls.map((c) => c.call)), actions);
  for (const c of calls) add(plainPlan([c.call]), actions);
  if (p.script.serverRequests.hang || p.script.serverRequests.delayMs > 0) add(p.plan, actions, { delayMs: 0, hang: false });
  if (actions.filter((a) => a.kind !== 'call').length > 1) add(p.plan, calls);
  actions.forEach((a, k) => {
    if (a.kind !== 'call') add(p.plan, actions.filter((_, j) => j !== k));
  });
  if (calls.length > 1) add(p.plan, actions.map((a) => (a.kind === 'call' ? { kind: 'call', call: a.call, atMs: a.atMs } : a)));
  // Each call's options, then its start.
  for (const c of calls) {
    const { timeoutMs: _t, resetTimeoutOnProgress: _r, maxTotalTimeoutMs: _m, ...untimed } = c;
    const { maxTotalTimeoutMs: _m2, ...noMax } = c;
    const { resetTimeoutOnProgress: _r2, ...noReset } = c;
    const { progress: _p, ...noProgress } = c;
    for (const smaller of [untimed, noMax, noReset, noProgress]) add(p.plan, actions.map((a) => (a === c ? smaller : a)));
    if (c.atMs > 0) add(p.plan, actions.map((a) => (a === c ? { ...c, atMs: 0 } : a.kind === 'abort' && a.call === c.call ? { ...a, atMs: a.atMs - c.atMs } : a)));
  }
  // Each server program, simpler.
  for (const [label, plan] of Object.entries(p.plan.calls)) {
    const withPlan = (smaller: ServerCallPlan) => add({ ...p.plan, calls: { ...p.plan.calls, [label]: smaller } }, actions);
    if (plan.steps.length > 1) withPlan({ ...plan, steps: [] });
    if (plan.after !== undefined) {
      const { after: _a, ...noAfter } = plan;
      withPlan(noAfter);
    }
    plan.steps.forEach((_, k) => withPlan({ ...plan, steps: plan.steps.filter((_s, j) => j !== k) }));
    if (plan.end.kind !== 'result') withPlan({ ...plan, end: { kind: 'result' } });
    if (plan.onCancel !== 'stop') withPlan({ ...plan, onCancel: 'stop' });
    plan.steps.forEach((s, k) => {
      for (const simpler of simplerSteps(s, p.script.serverRequests)) withPlan({ ...plan, steps: plan.steps.map((x, j) => (j === k ? simpler : x)) });
    });
    (plan.after ?? []).forEach((s, k) => {
      for (const simpler of simplerSteps(s, p.script.serverRequests)) withPlan({ ...plan, after: plan.after!.map((x, j) => (j === k ? simpler : x)) });
    });
  }
  // The caller's times earlier: the close by one grid step; a call's timeout (with its maximum
  // total) and its abort by two, so they stay as apart as generated.
  for (const a of actions) {
    const earlier = (x: ClientAction) => add(p.plan, actions.map((b) => (b === a ? x : b)));
    if (a.kind === 'close' && a.atMs - GRID_MS >= CALLER_MIN_MS) earlier({ ...a, atMs: a.atMs - GRID_MS });
    if (a.kind === 'abort') {
      const start = calls.find((c) => c.call === a.call)?.atMs ?? 0;
      if (a.atMs - 2 * GRID_MS - start >= CALLER_MIN_MS) earlier({ ...a, atMs: a.atMs - 2 * GRID_MS });
    }
    if (a.kind === 'call' && a.timeoutMs !== undefined && a.timeoutMs - 2 * GRID_MS >= CALLER_MIN_MS) {
      earlier({ ...a, timeoutMs: a.timeoutMs - 2 * GRID_MS, ...(a.maxTotalTimeoutMs !== undefined && { maxTotalTimeoutMs: a.maxTotalTimeoutMs - 2 * GRID_MS }) });
    }
  }
  return out;
}

/** A server step made simpler, one way at a time: the same duration on the grid, or shorter (a request's wait never the handlers' `delayMs`). */
function simplerSteps(s: ServerStep, policy: ServerRequestPolicy): ServerStep[] {
  switch (s.kind) {
    case 'sleep':
      return s.ms > GRID_MS ? [{ ...s, ms: s.ms - GRID_MS }] : [];
    case 'progress': {
      const { token: _t, ...own } = s;
      const { total: _n, ...noTotal } = s;
      return [...(s.token !== undefined ? [own] : []), ...(s.total !== undefined ? [noTotal] : [])];
    }
    case 'request': {
      const { id: _i, ...numbered } = s;
      const { cancelAfterMs, graceMs, ...uncancelled } = s;
      return [
        ...(s.id !== undefined ? [numbered] : []),
        // Waited for as long as the cancel and its grace took, without the cancel.
        ...(cancelAfterMs !== undefined ? [{ ...uncancelled, timeoutMs: cancelAfterMs + (graceMs ?? GRID_MS) }] : []),
        ...(s.timeoutMs !== undefined && s.timeoutMs > GRID_MS && (policy.hang || s.timeoutMs - GRID_MS !== policy.delayMs) ? [{ ...s, timeoutMs: s.timeoutMs - GRID_MS }] : []),
      ];
    }
  }
}

/** `p` without call `label`, its aborts and its program, the calls left renumbered `c1`.. in their order. */
function renumbered(p: ClientProgram, label: string): [ClientProgram['plan'], ClientAction[]] {
  const left = p.script.actions.filter((a) => a.kind === 'call' && a.call !== label).map((a) => (a as CallAction).call);
  const name = new Map(left.map((l, k) => [l, `c${k + 1}`]));
  const actions = p.script.actions.flatMap((a): ClientAction[] => {
    if (a.kind === 'close') return [a];
    const to = name.get(a.call);
    return to === undefined ? [] : [{ ...a, call: to }];
  });
  const calls = Object.fromEntries(left.map((l) => [name.get(l)!, p.plan.calls[l]!]));
  return [{ ...p.plan, calls }, actions];
}
