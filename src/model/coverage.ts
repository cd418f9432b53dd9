import type { SdkFacts } from '../sdk/facts.ts';
import type { TraceEvent } from '../sim/trace.ts';
import { racePairs, type RacePair } from './racePairs.ts';
import { TraceWalker } from './walker.ts';

/** Transition and race-pair counts of one or more runs. */
export interface Coverage {
  /** `requester: wire.pending|caller.waiting -RESPONSE-> wire.responded|caller.waiting` → count. */
  readonly transitions: Record<string, number>;
  readonly races: Record<RacePair, number>;
}

/**
 * Which model transitions and which named race pairs a set of runs hit. Pure: a function of the
 * traces alone; counts add up across runs. A race pair never hit is listed with count 0.
 * `facts` tell the SDK's timeouts from other rejections: without them no call counts as timed
 * out (no `-TIMEOUT->` transition, no `progress-racing-timeout`).
 */
export function coverage(traces: Iterable<readonly TraceEvent[]>, facts?: SdkFacts): Coverage {
  const transitions: Record<string, number> = {};
  const races = Object.fromEntries(racePairs.map((r) => [r, 0])) as Record<RacePair, number>;
  for (const trace of traces) {
    const w = new TraceWalker({ coverage: true, facts });
    for (const e of trace) w.feed(e);
    w.finish(trace.at(-1), undefined);
    for (const [k, n] of Object.entries(w.transitions)) transitions[k] = (transitions[k] ?? 0) + n;
    for (const r of racePairs) races[r] += w.races[r];
  }
  return { transitions, races };
}

/** Adds `b`'s counts into a copy of `a`. */
export function mergeCoverage(a: Coverage, b: Coverage): Coverage {
  return addCoverage({ transitions: { ...a.transitions }, races: { ...a.races } }, b);
}

/**
 * Adds `b`'s counts into `into` itself and returns it: a campaign collects coverage run by run,
 * and copying its whole tally for every run cost more than the run's own counts.
 */
export function addCoverage(into: Coverage, b: Coverage): Coverage {
  for (const k in b.transitions) into.transitions[k] = (into.transitions[k] ?? 0) + b.transitions[k]!;
  for (const r of racePairs) into.races[r] += b.races[r];
  return into;
}
