import type { SdkFacts } from '../sdk/facts.ts';
import type { Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { RealClock } from './clock.ts';
import type { Finding } from './finding.ts';
import { judge } from './judge.ts';
import { observedTrace, type ObserveOptions } from './observedTrace.ts';

/**
 * The client of a black-box run of a server is mcp-sim's own (`runPlan`), not an SDK release:
 * these are its facts as far as the walker reads them (how it words a call it gave up). Its
 * conduct is not judged (`JUDGED_ON_A_REAL_CLOCK.server`), so nothing else of an SDK is needed. A
 * run of an SDK's client gives the facts of how its side channel words a call's end instead.
 */
export const REAL_CLIENT_FACTS: SdkFacts = {
  defaultRequestTimeoutMs: Number.POSITIVE_INFINITY,
  requestTimeoutCode: 'mcp-sim-client-timeout',
  errorText: {
    requestTimeout: /^timed out \(client\)$/,
    maxTotalTimeout: /^(?!)$/,
    connectionGone: /^connection closed \(client\)$/,
  },
  timerLabels: { requestTimeout: 'mcp-sim client timeout' },
  correlationMaps: {
    responseHandlers: '-',
    progressHandlers: '-',
    timeouts: '-',
    handlerAbortControllers: '-',
    requestResolvers: '-',
    taskProgressTokens: '-',
  },
  httpServerTransportMaps: { requestToStream: '-', requestResponses: '-', streams: '-' },
};

/** A black-box run judged: the observed trace the rules walked, their findings, and the calls only a counterfactual decides. */
export interface ObservedVerdict {
  readonly trace: TraceEvent[];
  readonly findings: Finding[];
  /** See `ObservedRun.undecided`: run the case without cancels and judge again with `durations`. */
  readonly undecided: readonly string[];
}

/**
 * Judges a black-box, real-time run (a server process or URL; an SDK test bed with its side
 * channel merged in; an SDK's test-bed client, `clock.underTest` the client) with the oracle's
 * own rules: the run as the model sees it (`observedTrace`), walked by `judge()` on a real clock
 * with `clock`'s bounds. `facts`: the client's, as far as the walker reads them (how a call's
 * timeouts are worded). @default REAL_CLIENT_FACTS. `rogue`: mcp-sim's side is a rogue peer
 * (`JudgeOptions.rogue`), whose own breaches are no findings.
 */
export function judgeObserved(raw: readonly TraceEvent[], options: ObserveOptions & { readonly clock: RealClock; readonly facts?: SdkFacts; readonly rogue?: Side }): ObservedVerdict {
  const { trace, undecided } = observedTrace(raw, options);
  return { trace, findings: judge(trace, undefined, { facts: options.facts ?? REAL_CLIENT_FACTS, clock: options.clock, ...(options.rogue && { rogue: options.rogue }) }), undecided };
}
