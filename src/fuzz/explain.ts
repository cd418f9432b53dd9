import type { Finding } from '../model/finding.ts';
import { REACHED_BY } from '../model/rules/cancel.ts';
import { DEFAULT_FUZZ_MAX_STEPS } from '../options/defaults.ts';
import type { AbortReach } from '../sim/trace.ts';
import type { Scenario, TraceEvent } from '../sim/index.ts';
import type { ToolArguments } from '../workload/index.ts';

/** The tool call a finding is about: its label, tool and arguments (when the finding names a call). */
export interface FindingCall {
  readonly call: string;
  readonly tool: string;
  readonly arguments: ToolArguments;
  /** The request id the server saw. */
  readonly id: string | number | undefined;
}

/** The request id a finding names: in its `request` (`server:3`) or its subjects (`n3`). */
function requestIdOf(f: Finding): string | undefined {
  const fromRequest = /:(\d+)$/.exec(f.request ?? '')?.[1];
  if (fromRequest !== undefined) return fromRequest;
  const key = f.subjects?.ids?.[0];
  return key?.startsWith('n') ? key.slice(1) : undefined;
}

/** The tool call `f` concerns, read from the scenario and the trace of its run. */
export function callOf(f: Finding, scenario: Scenario, trace: readonly TraceEvent[]): FindingCall | undefined {
  const calls = new Map<string, { tool: string; arguments: ToolArguments }>();
  for (const a of scenario.actions) if (a.kind === 'call') calls.set(a.call, { tool: a.handler, arguments: a.arguments ?? {} });
  const ids = new Map<string, string | number | undefined>();
  for (const e of trace) if (e.kind === 'call-start') ids.set(e.call, e.id);
  let label = f.request !== undefined && calls.has(f.request) ? f.request : f.subjects?.call;
  if (label === undefined || !calls.has(label)) {
    const id = requestIdOf(f);
    label = [...ids].find(([, v]) => v !== undefined && String(v) === id)?.[0];
  }
  // No request named: the handler that was running when the oracle saw it, if only one was.
  if (label === undefined || !calls.has(label)) label = onlyRunningCall(trace, f.at);
  const call = label === undefined ? undefined : calls.get(label);
  return call && label !== undefined ? { call: label, ...call, id: ids.get(label) } : undefined;
}

/** The call whose server handler was running at trace index `at` (started, not ended): the earliest, when several were. */
function onlyRunningCall(trace: readonly TraceEvent[], at: number): string | undefined {
  const running = new Map<string, string>();
  for (const e of trace) {
    if (e.i > at) break;
    if (e.kind === 'handler-start' && e.side === 'server' && e.call !== undefined) running.set(String(e.id), e.call);
    if (e.kind === 'handler-end' && e.side === 'server') running.delete(String(e.id));
  }
  const id = [...running.keys()][0];
  const start = id === undefined ? undefined : trace.find((e) => e.kind === 'call-start' && String(e.id) === id);
  return start?.kind === 'call-start' ? start.call : undefined;
}

const times = (n: number) => (n === 1 ? 'once' : `${n} times`);

/** What aborted the handler of request `id`, in the author's terms, from the abort's reason. */
function abortCause(trace: readonly TraceEvent[], id: string | number | undefined): string {
  const abort = trace.find((e) => e.kind === 'handler-abort' && e.side === 'server' && e.id === id);
  const reason = abort?.kind === 'handler-abort' ? abort.reason : '';
  // The SDK aborts in-flight handlers with a bare AbortError when the connection closes, in that step.
  const closed = abort && trace.some((e) => e.step === abort.step && (e.kind === 'close' || e.kind === 'eof'));
  if (closed || /connection closed/i.test(reason)) return 'the connection closed';
  if (/timed? ?out/i.test(reason)) return 'the call timed out';
  return 'the client cancelled';
}

/** Work a handler did after its signal aborted: fetch calls and progress notifications. */
function workAfterAbort(trace: readonly TraceEvent[], id: string | number | undefined) {
  let aborted = false;
  let fetches = 0;
  let progress = 0;
  let timers = 0;
  for (const e of trace) {
    if (e.kind === 'handler-abort' && e.side === 'server' && e.id === id) aborted = true;
    if (!aborted) continue;
    if (e.kind === 'fetch' && e.id === id) fetches++;
    if (e.kind === 'handler-timer' && e.id === id) timers++;
    const frame = e.kind === 'send' && e.from === 'server' ? (e.frame as { method?: string }) : undefined;
    if (frame?.method === 'notifications/progress') progress++;
  }
  return { fetches, progress, timers };
}

/** How the abort reached the tool callback of request `id`, and what the callback returned (`abort-reached`, `tool-end`). */
function toolConduct(trace: readonly TraceEvent[], id: string | number | undefined): { via: AbortReach | undefined; returned: string } {
  const reached = trace.find((e) => e.kind === 'abort-reached' && e.id === id);
  const end = trace.find((e) => e.kind === 'tool-end' && e.id === id);
  const returned = end?.kind !== 'tool-end' ? 'a result' : end.isError ? 'an isError result' : 'a normal result';
  return { via: reached?.kind === 'abort-reached' ? reached.via : undefined, returned };
}

/**
 * How a handler reaches its request's signal and `_meta` on each generation: the advice names
 * what the author wrote (1.x `extra`, 2.x `ctx.mcpReq`).
 */
const HANDLER_CONTEXT: Readonly<Record<1 | 2, string>> = { 1: 'extra', 2: 'ctx.mcpReq' };

/**
 * A finding on a user's server in the author's terms: the tool, what the handler did, and what
 * to change. Falls back to the oracle's own sentence for invariants without a phrasing here.
 */
export function explain(f: Finding, call: FindingCall | undefined, trace: readonly TraceEvent[], generation: 1 | 2 = 1): string {
  const tool = call ? `tool "${call.tool}"` : 'a tool';
  const extra = HANDLER_CONTEXT[generation];
  const work = () => workAfterAbort(trace, call?.id);
  switch (f.invariant) {
    case 'progress.token-requested':
      return `${tool} sent progress with a token the client did not give it (or for a request that was already answered): send progress only with ${extra}._meta.progressToken, and only when the request carried one.`;
    case 'progress.increasing':
      return `${tool} sent progress values that do not strictly increase: each notification's progress must be larger than the last.`;
    case 'progress.total-stable':
      return `${tool} changed the total of its progress after announcing it: the client's bar jumps back.`;
    case 'progress.after-response':
      return `${tool} sent progress after its result: stop reporting progress once the handler has returned (await every notification before returning).`;
    case 'cancel.zombie-work': {
      const { fetches, progress, timers } = work();
      const did = [fetches > 0 && `called fetch ${times(fetches)}`, progress > 0 && `sent progress ${times(progress)}`, timers > 0 && `set ${timers === 1 ? 'a timer' : `${timers} timers`}`]
        .filter(Boolean)
        .join(', ');
      return `your handler of ${tool} ${did || 'kept working'} after ${abortCause(trace, call?.id)}: check ${extra}.signal (signal.throwIfAborted()) and stop the work when it aborts.`;
    }
    case 'cancel.reaches-work':
      return `${abortCause(trace, call?.id)}, but the abort never reached the fetch of ${tool}: it ran on to its response. Pass the handler's signal on: fetch(url, { signal: ${extra}.signal }).`;
    case 'cancel.abort-swallowed': {
      const { via, returned } = toolConduct(trace, call?.id);
      const reach = via === undefined ? '' : ` (${REACHED_BY[via]})`;
      return `after ${abortCause(trace, call?.id)}, the abort reached ${tool}${reach}, and its callback caught it and returned ${returned} instead of throwing (a swallowed AbortError): the cancelled request gets an answer on any SDK that does not drop it. Let the abort propagate: catch (e) { if (${extra}.signal.aborted) throw e; ... }.`;
    }
    case 'cancel.never-ends':
      return `the handler of ${tool} never ended after ${abortCause(trace, call?.id)}: at the end of the run it still awaited something nothing will settle (a promise kept for later, a wait that ignores ${extra}.signal), so it holds the request forever. End every wait on the signal: reject it on ${extra}.signal's 'abort' event, or pass the signal on.`;
    case 'cancel.no-response-after':
      return `the server answered ${tool} after it had received the client's cancellation.`;
    case 'liveness.handler-ends':
      return `the handler of ${tool} never ended and was never aborted: its work has no end.`;
    case 'liveness.quiescent': {
      const budget = /step-budget/.test(f.message) ? 'step' : 'time';
      const orLong = budget === 'step' ? `, or its work takes more than the ${DEFAULT_FUZZ_MAX_STEPS} scheduler steps a fuzz run allows (smaller inputs through --args tell which)` : '';
      return `the run never went quiet (it ended on its ${budget} budget): ${tool} keeps timers or work going forever (a polling loop that ignores ${extra}.signal?)${orLong}.`;
    }
    case 'leak.timers':
      return `${tool} left timers running after every request ended: clear them when the work ends or the signal aborts.`;
    case 'harness.offline':
      return `${tool} tried to reach outside the process (${f.message}); mcp-sim stopped it. Route network calls through fetch, or pass --args to avoid this path.`;
    case 'harness.unhandled':
      return `an exception escaped the server's code: ${f.message}`;
    case 'timeout.settles':
      return `a call of ${tool} did not settle within its timeout: ${f.message}`;
    default:
      return f.message;
  }
}
