import fc from 'fast-check';
import type { CallAction, CallerOption, ClientAction, ClientProgram, ServerCallPlan, ServerEnd, ServerRequestPolicy, ServerStep } from '../real/clientScript.ts';
import { gridTimes, deadlineOf, GRID_MS } from './clientCaseTiming.ts';

export interface ClientCaseConstraints {
  /** The caller options the test-bed client has (testbed.json's `client.options`): a case uses no other. */
  readonly options: readonly CallerOption[];
  /** Most calls per case. @default 3 */
  readonly callsMax?: number;
}

/** The server requests a scripted program may send the client. */
const METHODS = ['sampling/createMessage', 'elicitation/create', 'roots/list'] as const;

/** A server step as drawn, before its progress values and ids are set (`program`). */
type DrawnStep =
  | { readonly kind: 'progress'; readonly invented: boolean; readonly total: boolean }
  | { readonly kind: 'sleep'; readonly ms: number }
  | { readonly kind: 'request'; readonly method: (typeof METHODS)[number]; readonly cancelAfterMs?: number; readonly graceMs?: number; readonly timeoutMs?: number; readonly id?: 0 | 'call' };

interface DrawnCall {
  readonly atMs: number;
  readonly progress: boolean;
  readonly timeoutMs?: number;
  readonly resetTimeoutOnProgress: boolean;
  readonly maxTotalExtraMs?: number;
  readonly abortAfterMs?: number;
  readonly steps: readonly DrawnStep[];
  readonly end: ServerEnd;
  readonly onCancel: ServerCallPlan['onCancel'];
  readonly after: readonly DrawnStep[];
}

/** A third of the time `arb`, else nothing: a call that the caller also times out or aborts leaves less of the server's program to see. */
const sometimes = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: arb, weight: 1 });

/** A time on the grid, `from`..`to` ms: the server's from an even multiple of 100 ms, the caller's from an odd one. */
const onGrid = (from: number, to: number) => fc.constantFrom(...gridTimes(from, to));

const progressStep: fc.Arbitrary<DrawnStep> = fc.record({ kind: fc.constant('progress' as const), invented: fc.oneof({ arbitrary: fc.constant(false), weight: 5 }, fc.constant(true)), total: fc.boolean() });
const sleepStep: fc.Arbitrary<DrawnStep> = fc.record({ kind: fc.constant('sleep' as const), ms: onGrid(GRID_MS, 3 * GRID_MS) });
const requestStep: fc.Arbitrary<DrawnStep> = fc.record(
  {
    kind: fc.constant('request' as const),
    method: fc.constantFrom(...METHODS),
    cancelAfterMs: onGrid(GRID_MS, 2 * GRID_MS),
    graceMs: onGrid(GRID_MS, 2 * GRID_MS),
    timeoutMs: onGrid(GRID_MS, 3 * GRID_MS),
    id: fc.constantFrom(0 as const, 'call' as const),
  },
  { requiredKeys: ['kind', 'method'] },
);

/**
 * Generated client cases (testbeds/CLIENT.md), from the blocks the fixed scenarios are made of:
 * 1 to `callsMax` calls, each started at its time, with or without progress, maybe a timeout
 * (reset on progress, a maximum total, where the client has those options), maybe aborted; maybe
 * a close with calls in flight. The scripted server's program for each call: progress (with the
 * call's token or one it invents), sleeps, requests to the client (sampling, elicitation, roots;
 * cancelled by the server after a while, or waited for up to a time; numbered by the server, 0,
 * or the call's own id), an end (a result, an error, no answer), what a cancel does (stop, answer
 * anyway, go on), and late progress after the answer. The client's handlers answer at once,
 * after a while, or never. Every time sits on the grid of `clientCaseTiming.ts`, so each thing the
 * caller does is 100 ms from each thing the server does, and the deadline is the case's own.
 */
export function clientCaseArbitrary(constraints: ClientCaseConstraints): fc.Arbitrary<ClientProgram> {
  const { options, callsMax = 3 } = constraints;
  const reset = options.includes('resetTimeoutOnProgress');
  const maxTotal = options.includes('maxTotalTimeout');
  const step = fc.oneof(progressStep, sleepStep, requestStep);
  const call = (first: boolean): fc.Arbitrary<DrawnCall> =>
    fc.record(
      {
        atMs: first ? fc.constant(0) : onGrid(0, 4 * GRID_MS),
        progress: fc.boolean(),
        // A call's timeout, maximum total and abort never at one time either (400 ms steps, apart by 200).
        timeoutMs: sometimes(fc.constantFrom(300, 700, 1_100)),
        resetTimeoutOnProgress: reset ? fc.boolean() : fc.constant(false),
        maxTotalExtraMs: maxTotal ? fc.constantFrom(2 * GRID_MS, 4 * GRID_MS) : fc.constant(undefined),
        abortAfterMs: sometimes(fc.constantFrom(500, 900, 1_300)),
        steps: fc.array(step, { maxLength: 4 }),
        end: fc.oneof({ arbitrary: fc.constant<ServerEnd>({ kind: 'result' }), weight: 3 }, fc.constantFrom<ServerEnd>({ kind: 'error', code: -32042, message: 'scripted error' }, { kind: 'error', code: -32603 }), fc.constant<ServerEnd>({ kind: 'hang' })),
        onCancel: fc.constantFrom('stop' as const, 'respond' as const, 'continue' as const),
        after: fc.array(fc.oneof(progressStep, sleepStep), { maxLength: 2 }),
      },
      { requiredKeys: ['atMs', 'progress', 'timeoutMs', 'resetTimeoutOnProgress', 'abortAfterMs', 'steps', 'end', 'onCancel', 'after'] },
    );
  const calls = fc.integer({ min: 1, max: callsMax }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, k) => call(k === 0))));
  const policy: fc.Arbitrary<ServerRequestPolicy> = fc.oneof(
    { arbitrary: fc.constant({ delayMs: 0, hang: false }), weight: 3 },
    fc.constant({ delayMs: GRID_MS, hang: false }),
    fc.constant({ delayMs: 0, hang: true }),
  );
  const close = fc.option(onGrid(300, 1_900), { freq: 4, nil: undefined });
  return fc.record({ calls, policy, close }).map(({ calls: drawn, policy: p, close: closeAt }) => program(drawn, p, closeAt));
}

/**
 * The drawn parts as one case: labels `c1`.., progress values counting up per call, a server's
 * request id 0 kept only on its first use in the case and the call's own id on its first use in
 * the call (a server that sends two requests of one id breaks `rpc.request-id-unique` itself, and
 * a client's answer to the second reads as an answer to the first: the harness's fault), a
 * cancel or a timeout of a request never at the very time the client answers it (moved one grid
 * step on), actions in order of time, the deadline the case's own.
 */
function program(drawn: readonly DrawnCall[], policy: ServerRequestPolicy, closeAt: number | undefined): ClientProgram {
  /** `id` on its first use in `used`, else none (the step then gets a fresh id). */
  const firstUse = <Id,>(used: Set<Id>, id: Id): Id | undefined => (used.has(id) ? undefined : (used.add(id), id));
  const idsOfCase = new Set<0>();
  const clearOf = (ms: number | undefined) => (ms !== undefined && !policy.hang && ms === policy.delayMs ? ms + GRID_MS : ms);
  const calls: Record<string, ServerCallPlan> = {};
  const actions: ClientAction[] = [];
  drawn.forEach((d, k) => {
    const label = `c${k + 1}`;
    let progress = 0;
    const idsOfCall = new Set<'call'>();
    const stepOf = (s: DrawnStep): ServerStep => {
      if (s.kind === 'sleep') return s;
      if (s.kind === 'progress') return { kind: 'progress', progress: ++progress, ...(s.total && { total: 100 }), ...(s.invented && { token: 'invented' as const }) };
      const id = s.id === 0 ? firstUse(idsOfCase, s.id) : s.id === 'call' ? firstUse(idsOfCall, s.id) : undefined;
      const cancelAfterMs = clearOf(s.cancelAfterMs);
      return {
        kind: 'request',
        method: s.method,
        ...(cancelAfterMs !== undefined ? { cancelAfterMs, graceMs: s.graceMs ?? GRID_MS } : s.timeoutMs !== undefined && { timeoutMs: clearOf(s.timeoutMs)! }),
        ...(id !== undefined && { id }),
      };
    };
    calls[label] = { steps: d.steps.map(stepOf), end: d.end, onCancel: d.onCancel, ...(d.after.length > 0 && { after: d.after.map(stepOf) }) };
    const timed = d.timeoutMs !== undefined;
    const call: CallAction = {
      kind: 'call',
      call: label,
      atMs: d.atMs,
      ...(d.progress && { progress: true }),
      ...(timed && { timeoutMs: d.timeoutMs }),
      ...(timed && d.resetTimeoutOnProgress && { resetTimeoutOnProgress: true }),
      ...(timed && d.maxTotalExtraMs !== undefined && { maxTotalTimeoutMs: d.timeoutMs! + d.maxTotalExtraMs }),
    };
    actions.push(call);
    if (d.abortAfterMs !== undefined) actions.push({ kind: 'abort', call: label, atMs: d.atMs + d.abortAfterMs });
  });
  if (closeAt !== undefined) actions.push({ kind: 'close', atMs: closeAt });
  return withDeadline({ plan: { calls }, script: { actions: inOrder(actions), serverRequests: policy, deadlineMs: 0 } });
}

/** Actions in order of time; a call before what else happens at its time (stable otherwise). */
export function inOrder(actions: readonly ClientAction[]): ClientAction[] {
  return actions.map((a, k) => ({ a, k })).sort((x, y) => x.a.atMs - y.a.atMs || Number(x.a.kind !== 'call') - Number(y.a.kind !== 'call') || x.k - y.k).map((x) => x.a);
}

/** The program with its own deadline (`deadlineOf`). */
export function withDeadline(p: ClientProgram): ClientProgram {
  return { plan: p.plan, script: { ...p.script, deadlineMs: deadlineOf(p) } };
}
