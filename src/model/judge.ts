import type { SdkFacts } from '../sdk/facts.ts';
import type { EndState } from '../sim/endState.ts';
import type { Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import { isReal, JUDGED_ON_A_REAL_CLOCK, underTestOf, VIRTUAL_CLOCK, type Clock } from './clock.ts';
import { conductOf } from './conduct.ts';
import { attribute } from './attribution.ts';
import type { Coverage } from './coverage.ts';
import type { Finding } from './finding.ts';
import { leaksRule } from './leaks.ts';
import { livenessRule } from './liveness.ts';
import type { RuleFactory } from './rule.ts';
import { cancelRaceRule, cancelRule } from './rules/cancel.ts';
import { cancelScopeRule } from './rules/cancelScope.ts';
import { errorCodesRule } from './rules/errorCodes.ts';
import { harnessRule } from './rules/harness.ts';
import { httpRule, httpRule2026 } from './rules/http.ts';
import { httpBadInputRule } from './rules/httpBadInput.ts';
import { httpSessionsRule } from './rules/httpSessions.ts';
import { stdioExitRule } from './rules/stdioExit.ts';
import { clientCloseRule } from './rules/clientClose.ts';
import { realRunEndRule } from './rules/realRunEnd.ts';
import { lifecycleRule } from './rules/lifecycle.ts';
import { progressRule } from './rules/progress.ts';
import { requesterMatchingRule } from './rules/requesterMatching.ts';
import { rpcRule } from './rules/rpc.ts';
import { methodsRule, methodsRuleFor } from './rules/methods.ts';
import { modernRule } from './rules/modern.ts';
import { MODERN_ERA, notJudgedUnder, SESSION_ERA, type SpecRevision } from './specRevision.ts';
import { staysUsableRule } from './rules/staysUsable.ts';
import { timeoutRule } from './rules/timeout.ts';
import { wireBoundsRule } from './rules/wireBounds.ts';
import { TraceWalker } from './walker.ts';

/**
 * Every rule of the oracle, in the order the walker calls their hooks. The order is part of the
 * verdict: findings of one trace event come out in it (obligations, checked at the end of a
 * step, keep the order they were made in; end-of-run checks run liveness, leaks, HTTP).
 * `cancelRaceRule` sits after `timeoutRule` so that a settle's race finding follows its
 * timeout findings, as `cancelRule`'s late-response finding precedes them. The rules that judge
 * what only a rogue peer (or a black-box client's pings) makes a trace show come last: the order
 * of every finding a simulated run had before them stays as it was.
 */
export const oracleRules: readonly RuleFactory[] = [
  rpcRule,
  methodsRule,
  progressRule,
  cancelRule,
  timeoutRule,
  cancelRaceRule,
  lifecycleRule,
  harnessRule,
  livenessRule,
  leaksRule,
  httpRule,
  stdioExitRule,
  httpSessionsRule,
  clientCloseRule,
  realRunEndRule,
  requesterMatchingRule,
  errorCodesRule,
  staysUsableRule,
  httpBadInputRule,
  cancelScopeRule,
  wireBoundsRule,
];

/**
 * The rules of revision 2026-07-28 (`--spec 2026-07-28`): the session-era rules with the
 * method table of that revision and per-request HTTP serving (`httpRule2026`), plus its own
 * clauses (`rules/modern.ts`); the session-era
 * invariants it does not judge are left out of the verdict (`notJudgedIn2026`, with reasons).
 */
export const oracleRules2026: readonly RuleFactory[] = [
  ...oracleRules.map((make) => (make === methodsRule ? methodsRuleFor('2026-07-28') : make === httpRule ? httpRule2026 : make)),
  modernRule,
];

/** The rules `spec` judges with. */
export function rulesOf(spec: SpecRevision): readonly RuleFactory[] {
  return spec === '2026-07-28' ? oracleRules2026 : oracleRules;
}

export interface JudgeOptions {
  /** What the oracle must know of the SDK release that ran (its adapter's `facts`). */
  readonly facts: SdkFacts;
  /** The rule set: the session era's, or the opt-in one of revision 2026-07-28. @default SESSION_ERA */
  readonly spec?: SpecRevision;
  /**
   * The clock the trace was recorded on. A real one (a black-box run, translated by
   * `observedTrace`) gives what the model expects within a scheduler step an allowance in ms, and
   * keeps the findings of the side under test's conduct that a one-sided run can show
   * (`JUDGED_ON_A_REAL_CLOCK`, `conductOf`). @default VIRTUAL_CLOCK
   */
  readonly clock?: Clock;
  /**
   * The side a rogue peer plays (`src/rogue/`): raw frames the model forbids, written on purpose
   * toward the other side, whose conduct is what the run tests. The rogue's own breaches are the
   * point of the run and never findings: a finding of the rogue's conduct (`conductOf` given the
   * trace: its subjects, else the side of the event the rule saw the breach at) is left out,
   * after attribution, so a finding of the side under test that follows from the rogue's breach
   * still says so (`rootCause`). @default none: both sides are judged
   */
  readonly rogue?: Side;
}

/**
 * Judges one run: every finding its trace and end-state snapshot show, on every profile (the
 * HTTP rules find nothing in a trace without HTTP events). Pure: the same trace, snapshot and
 * facts give the same findings, in trace order of detection. Without an end state, the checks
 * that need one (leaks, HTTP exchanges left open) find nothing. A finding that follows from
 * another of the same trace carries its `rootCause` (`attribution.ts`). A finding that blames an
 * interleaving is as the trace shows it: `runChecked` confirms it with a counterfactual run.
 */
export function judge(trace: readonly TraceEvent[], endState: EndState | undefined, options: JudgeOptions): Finding[] {
  return judgeWithCoverage(trace, endState, { ...options, coverage: false }).findings;
}

/**
 * `judge`, also counting the model transitions and race pairs the trace took: one walk serves
 * both, so a campaign that reports coverage does not walk every trace twice.
 */
export function judgeWithCoverage(
  trace: readonly TraceEvent[],
  endState: EndState | undefined,
  options: JudgeOptions & {
    /** Count coverage. @default true */
    readonly coverage?: boolean;
  },
): { findings: Finding[]; coverage: Coverage | undefined } {
  const { facts, coverage: countCoverage = true, spec = SESSION_ERA, clock = VIRTUAL_CLOCK, rogue } = options;
  const rules = rulesOf(spec);
  const walker = new TraceWalker({
    facts,
    coverage: countCoverage,
    rules: (walk) => rules.map((make) => make(walk, facts)),
    streamCloseCancels: spec === MODERN_ERA,
    clock,
  });
  for (const e of trace) walker.feed(e);
  walker.finish(trace.at(-1), endState);
  const notJudged = notJudgedUnder(spec);
  const judged = isReal(clock) ? walker.findings.filter(ofSideUnderTest(underTestOf(clock))) : walker.findings;
  const attributed = attribute(notJudged.size === 0 ? judged : judged.filter((f) => !notJudged.has(f.invariant)));
  return {
    findings: rogue === undefined ? attributed : attributed.filter((f) => conductOf(f, trace) !== rogue),
    coverage: countCoverage ? { transitions: { ...walker.transitions }, races: { ...walker.races } } : undefined,
  };
}

/** A real clock's findings of `side`'s conduct: an id a one-sided run of it can show, about that side (or about no side in particular). */
function ofSideUnderTest(side: Side): (f: Finding) => boolean {
  const ids = JUDGED_ON_A_REAL_CLOCK[side];
  return (f) => ids.has(f.invariant) && (conductOf(f) ?? side) === side;
}
