import { attribute } from '../model/attribution.ts';
import { judgeBlame, racedCalls, withoutRace, type Counterfactual } from '../model/blame.ts';
import type { Finding } from '../model/finding.ts';
import { blamesInterleaving } from '../model/invariants.ts';
import type { RunOptions, RunResult } from '../sim/runScenario.ts';
import type { Scenario } from '../sim/scenario.ts';

/** Runs a scenario and judges it with the model alone (no confirmation): what a counterfactual needs. */
export type JudgedRunner = (scenario: Scenario, options: RunOptions) => Promise<{ readonly result: RunResult; readonly findings: readonly Finding[] }>;

/**
 * Confirms every finding of `run` that blames an interleaving (`blamesInterleaving`) with a
 * counterfactual: the same scenario, seed and SDK in the natural order (skipped when the run
 * took it already), then, if that still races, with the blamed race removed (`withoutRace`).
 * A blame whose symptom stays without the race is replaced by what it is (`blame.ts`), and the
 * knock-on marks are worked out again. A run without a blaming finding costs nothing: only the
 * rare run with one pays for a second (at most a third) run.
 */
export async function confirmBlame(
  scenario: Scenario,
  run: { readonly result: RunResult; readonly findings: readonly Finding[] },
  options: RunOptions,
  runJudged: JudgedRunner,
): Promise<readonly Finding[]> {
  const blaming = run.findings.filter((f) => blamesInterleaving(f.invariant));
  if (blaming.length === 0) return run.findings;
  const facts = run.result.sdk.facts;
  const base: RunOptions = {
    tape: [],
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.sdk !== undefined && { sdk: options.sdk }),
    ...(options.maxSteps !== undefined && { maxSteps: options.maxSteps }),
    ...(options.maxVirtualMs !== undefined && { maxVirtualMs: options.maxVirtualMs }),
  };
  const counterfactual = async (name: string, s: Scenario | undefined): Promise<Counterfactual | undefined> => {
    if (!s) return undefined;
    try {
      const { result, findings } = await runJudged(s, base);
      return { name, trace: result.trace, findings };
    } catch {
      return undefined; // a scenario the world refuses tells nothing
    }
  };
  const natural = run.result.taken.some((c) => c !== 0);
  const lazy = <T>(make: () => Promise<T>) => {
    let p: Promise<T> | undefined;
    return () => (p ??= make());
  };
  const counterfactuals = [
    lazy(() => (natural ? counterfactual('natural order', scenario) : Promise.resolve(undefined))),
    lazy(() => counterfactual('natural order with the race removed', withoutRace(scenario, racedCalls(run.findings)))),
  ];
  const replaced = new Map<Finding, Finding>();
  for (const f of blaming) {
    for (const next of counterfactuals) {
      const cf = await next();
      if (!cf) continue;
      const verdict = judgeBlame(f, scenario, cf, facts);
      if (verdict.kind === 'inconclusive') continue;
      if (verdict.kind === 'refuted') replaced.set(f, verdict.finding);
      break;
    }
  }
  if (replaced.size === 0) return run.findings;
  return attribute(run.findings.map((f) => replaced.get(f) ?? f));
}
