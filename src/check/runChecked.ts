import type { Finding } from '../model/finding.ts';
import type { Coverage } from '../model/coverage.ts';
import { judgeWithCoverage } from '../model/judge.ts';
import { specOf } from '../model/specRevision.ts';
import { endState as snapshotEnd, type EndState } from '../sim/endState.ts';
import { runScenario, type RunOptions, type RunResult } from '../sim/runScenario.ts';
import type { Scenario } from '../sim/scenario.ts';
import { confirmBlame } from './confirmBlame.ts';

export interface CheckedRun {
  readonly result: RunResult;
  /**
   * Every broken invariant, in the order the oracle saw them; knock-ons carry their `rootCause`,
   * and a blame of an interleaving that a counterfactual run refuted is replaced by what it is.
   */
  readonly findings: readonly Finding[];
  /** The world at the end of the run (correlation maps, timers, signal listeners). */
  readonly endState: EndState;
  /** Model transitions and race pairs of this run, when asked for (`coverage: true`). */
  readonly coverage?: Coverage;
}

export interface CheckedRunOptions extends RunOptions {
  /** Also count model coverage, in the same walk of the trace as the judgement. @default false */
  readonly coverage?: boolean;
}

/**
 * Runs `scenario` under `options` and judges it: the trace plus an end-of-run snapshot taken in
 * `atEnd` (chained after the caller's own `atEnd`, if any), against the facts of the SDK that ran,
 * by the rule set of the revision the scenario's profile speaks (`specOf`).
 * A finding that blames an interleaving is confirmed by a counterfactual run (`confirmBlame`):
 * only runs with such a finding pay for it.
 */
export async function runChecked(scenario: Scenario, options: CheckedRunOptions = {}): Promise<CheckedRun> {
  const { coverage: countCoverage = false, ...runOptions } = options;
  const run = await runJudged(scenario, runOptions, countCoverage);
  // The counterfactual runs are not the run an observer watches.
  const { observe: _observe, ...unobserved } = runOptions;
  const findings = await confirmBlame(scenario, run, unobserved, (s, o) => runJudged(s, o, false));
  return findings === run.findings ? run : { ...run, findings };
}

/** One run judged by the model alone: the oracle's verdict on this trace, before any counterfactual. */
async function runJudged(scenario: Scenario, options: RunOptions, countCoverage: boolean): Promise<CheckedRun> {
  let end: EndState | undefined;
  const result = await runScenario(scenario, {
    ...options,
    atEnd: (world) => {
      options.atEnd?.(world);
      end = snapshotEnd(world);
    },
  });
  if (!end) throw new Error('runChecked: runScenario returned without calling atEnd; the end state is unknown.');
  const { findings, coverage } = judgeWithCoverage(result.trace, end, { facts: result.sdk.facts, coverage: countCoverage, spec: specOf(scenario) });
  return { result, findings, endState: end, ...(coverage && { coverage }) };
}
