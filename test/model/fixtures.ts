import { runChecked, type CheckedRun } from '../../src/check/index.ts';
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
