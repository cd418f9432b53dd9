import type { ClientProgram, ServerCallPlan, ServerRequestPolicy, ServerStep } from '../real/clientScript.ts';

/**
 * The real-time grid of a generated client case, so that nothing two programs do races by a few
 * ms: the scripted server acts at even multiples of `GRID_MS` after a call reached it (its sleeps,
 * the client's answers to its requests, its cancels and their grace are such multiples), the
 * caller at odd ones (each abort and timeout of a call, each maximum total, after the call's
 * start; the close after the script's start, and every call starts at an even one). Every thing
 * the client does is then `GRID_MS / 2` = 100 ms from every thing the server does, as in the fixed
 * scenarios: a run shows what the SDK does, not which of two near events won.
 */
export const GRID_MS = 200;

/** The times from `from` ms up to `to` ms, `GRID_MS` apart: the server's from an even multiple of 100, the caller's from an odd one. */
export const gridTimes = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let t = from; t <= to; t += GRID_MS) out.push(t);
  return out;
};

/** The least time a script waits for its calls (the fixed scenarios' `deadlineMs`). */
export const DEADLINE_MIN_MS = 3_000;

/** The most a generated script waits: a case takes at most this plus the client's start and close. */
export const DEADLINE_MAX_MS = 5_000;

/**
 * How long one server step takes at most, ms, with the client's handlers answering as `policy`
 * says (a request neither answered nor cancelled nor timed out: forever).
 */
function stepMs(step: ServerStep, policy: ServerRequestPolicy): number {
  if (step.kind === 'progress') return 0;
  if (step.kind === 'sleep') return step.ms;
  const answer = policy.hang ? Number.POSITIVE_INFINITY : policy.delayMs;
  if (step.cancelAfterMs !== undefined) return answer < step.cancelAfterMs ? answer : step.cancelAfterMs + (step.graceMs ?? GRID_MS);
  return Math.min(answer, step.timeoutMs ?? Number.POSITIVE_INFINITY);
}

/** How long the scripted server's program for one call runs at most, ms after the call reached it (`after` frames included); infinite when it hangs. */
export function serverMsOf(call: ServerCallPlan, policy: ServerRequestPolicy): number {
  if (call.end.kind === 'hang') return Number.POSITIVE_INFINITY;
  return [...call.steps, ...(call.after ?? [])].reduce((sum, s) => sum + stepMs(s, policy), 0);
}

/**
 * The script's deadline: a second past the last call's end where each call ends by itself (its
 * server's program, its timeout or abort, the close), within `DEADLINE_MIN_MS`..`DEADLINE_MAX_MS`.
 * A call that would hang past it is settled by the client's close at the deadline (CLIENT.md).
 */
export function deadlineOf(program: ClientProgram): number {
  let last = 0;
  const close = program.script.actions.find((a) => a.kind === 'close')?.atMs ?? Number.POSITIVE_INFINITY;
  for (const a of program.script.actions) {
    if (a.kind !== 'call') continue;
    const plan = program.plan.calls[a.call];
    const abort = program.script.actions.find((b) => b.kind === 'abort' && b.call === a.call)?.atMs ?? Number.POSITIVE_INFINITY;
    const own = Math.min(plan ? serverMsOf(plan, program.script.serverRequests) : 0, a.maxTotalTimeoutMs ?? Number.POSITIVE_INFINITY, a.resetTimeoutOnProgress ? Number.POSITIVE_INFINITY : (a.timeoutMs ?? Number.POSITIVE_INFINITY));
    const end = Math.min(a.atMs + own, abort, close);
    if (Number.isFinite(end)) last = Math.max(last, end);
  }
  return Math.min(DEADLINE_MAX_MS, Math.max(DEADLINE_MIN_MS, Math.ceil((last + 1_000) / 100) * 100));
}
