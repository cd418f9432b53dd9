import { runChecked, type CheckedRun } from '../../src/check/index.ts';
import type { Finding } from '../../src/model/finding.ts';
import { judge } from '../../src/model/judge.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import type { EndState } from '../../src/sim/endState.ts';
import { summarizeFrame, type TraceEvent, type TraceEventBody } from '../../src/sim/index.ts';
import type { AdapterFault, AdapterFaultKind } from '../../src/sim/adapterFaults.ts';
import type { RunOptions } from '../../src/sim/runScenario.ts';
import type {
  AbortPolicy,
  CallOptions,
  CallerAction,
  HandlerEnd,
  HandlerFaults,
  HandlerProgram,
  HandlerStep,
  RequestMethod,
  Scenario,
  Side,
} from '../../src/sim/scenario.ts';

/** Fixture builders: small scenarios that make one invariant fire, and their correct twins. */
export const handler = (
  steps: HandlerStep[] = [],
  end: HandlerEnd['kind'] = 'result',
  onAbort: AbortPolicy = 'honour',
  faults?: HandlerFaults,
): HandlerProgram => ({ steps, end: end === 'error' ? { kind: 'error', code: -32000 } : { kind: end }, onAbort, ...(faults && { faults }) });

export const progress = (p: number, total?: number): HandlerStep => ({ kind: 'progress', progress: p, ...(total !== undefined && { total }) });
export const sleep = (ms: number): HandlerStep => ({ kind: 'sleep', ms });

export const call = (label: string, h: string, options: CallOptions = {}, method: RequestMethod = 'tools/call'): CallerAction => ({
  kind: 'call',
  call: label,
  method,
  handler: h,
  options,
});
export const abort = (signal: string): CallerAction => ({ kind: 'abort', signal });
export const close = (side: Side): CallerAction => ({ kind: 'close', side });
export const reconnect: CallerAction = { kind: 'reconnect' };

export const fault = (side: Side, f: AdapterFaultKind): AdapterFault => ({ side, fault: f });

export function scenario(
  handlers: Record<string, HandlerProgram>,
  actions: CallerAction[],
  adapterFaults?: AdapterFault[],
): Scenario {
  return { profile: 'memory', handlers, actions, ...(adapterFaults && { adapterFaults }) };
}

/** Runs and judges; returns the invariant ids found (with the run, for messages). */
export async function check(s: Scenario, options: RunOptions = {}): Promise<{ ids: string[]; run: CheckedRun }> {
  const run = await runChecked(s, options);
  return { ids: run.findings.map((f) => f.invariant), run };
}

/** One plain tool call answered at once: the baseline that fires nothing. */
export const plain = () => scenario({ h: handler() }, [call('c1', 'h')]);

/** Judges a trace (and end state) with SDK 1.32.2's facts: for traces edited to show what a faulty peer would do. */
export const judged = (trace: readonly TraceEvent[], endState?: EndState): Finding[] => judge(trace, endState, { facts: v1Facts });

/** Gives edited events their positions again (`i` is the index in the trace). */
const renumbered = (events: readonly TraceEvent[]): TraceEvent[] => events.map((e, i) => ({ ...e, i }));

/**
 * `trace` with `bodies` inserted right after the first event `after` accepts, in that event's
 * scheduler step and virtual time: what a faulty side would have done then.
 */
export function insertAfter(trace: readonly TraceEvent[], after: (e: TraceEvent) => boolean, ...bodies: TraceEventBody[]): TraceEvent[] {
  const k = trace.findIndex(after);
  if (k < 0) throw new Error('insertAfter: no such event');
  const at = trace[k]!;
  const added = bodies.map((b) => ({ ...b, i: 0, step: at.step, t: at.t }) as TraceEvent);
  return renumbered([...trace.slice(0, k + 1), ...added, ...trace.slice(k + 1)]);
}

/** `trace` with every event `edit` maps to a new one replaced, and those it maps to `undefined` dropped. */
export function editTrace(trace: readonly TraceEvent[], edit: (e: TraceEvent) => TraceEvent | undefined | 'keep'): TraceEvent[] {
  return renumbered(trace.flatMap((e) => {
    const r = edit(e);
    return r === 'keep' ? [e] : r === undefined ? [] : [r];
  }));
}

/** True when `e` sends or delivers a frame whose one-line summary starts with `prefix`. */
export const frameIs = (e: TraceEvent, kind: 'send' | 'deliver', prefix: string): boolean =>
  e.kind === kind && summarizeFrame(e.frame).startsWith(prefix);
