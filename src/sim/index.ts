/** The simulator's public API: run a scenario under a schedule tape, read its trace. */
export { runScenario, type RunOptions, type RunResult, type StepObservation } from './runScenario.ts';
export type {
  AbortPolicy,
  CallOptions,
  CallerAction,
  HandlerEnd,
  HandlerFaults,
  HandlerProgram,
  HandlerStep,
  HttpMode,
  Profile,
  RequestMethod,
  Scenario,
  Side,
} from './scenario.ts';
export { methodSender, otherSide } from './scenario.ts';
export { formatTrace, formatEvent, traceHash } from './trace.ts';
export { summarizeFrame } from '../util/jsonrpc.ts';
export type { RunOutcome, TraceEvent, TraceEventBody, WireId } from './trace.ts';
export { ScenarioError } from './validate.ts';
export { globalsRestored } from './realGlobals.ts';
export type { World } from './World.ts';
export { DEFAULT_HTTP_MODE, type ExchangeState, type OpenExchange } from './http/index.ts';
export { DEFAULT_MAX_STEPS, DEFAULT_MAX_VIRTUAL_MS, DEFAULT_SEED } from './defaults.ts';
