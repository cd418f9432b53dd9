import type { SdkFacts } from '../sdk/facts.ts';
import type { Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { RealClock } from './clock.ts';
import type { Finding } from './finding.ts';
import { judge } from './judge.ts';
import { observedTrace, type ObserveOptions } from './observedTrace.ts';

/**
 * The client of a black-box run is mcp-sim's own (`runPlan`), not an SDK release: these are its
 * facts as far as the walker reads them (how it words a call it gave up). The rules that judge a
 * client's conduct are not judged on a real clock (`JUDGED_ON_A_REAL_CLOCK`), so nothing else of
 * an SDK is needed.
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
 * channel merged in) with the oracle's own rules: the run as the model sees it
 * (`observedTrace`), walked by `judge()` on a real clock with `clock`'s bounds. `rogue`: the
 * client is a rogue peer (`JudgeOptions.rogue`), whose own breaches are no findings.
 */
export function judgeObserved(raw: readonly TraceEvent[], options: ObserveOptions & { readonly clock: RealClock; readonly rogue?: Side }): ObservedVerdict {
  const { trace, undecided } = observedTrace(raw, options);
  return { trace, findings: judge(trace, undefined, { facts: REAL_CLIENT_FACTS, clock: options.clock, ...(options.rogue && { rogue: options.rogue }) }), undecided };
}
