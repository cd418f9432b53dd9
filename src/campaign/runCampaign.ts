import fc from 'fast-check';
import { addCoverage, coverage as traceCoverage, type Coverage } from '../model/coverage.ts';
import type { Finding } from '../model/finding.ts';
import type { InvariantId } from '../model/invariants.ts';
import type { ResolvedCampaignOptions, ResolvedWorkload } from '../options/index.ts';
import type { RunOptions, RunResult, Scenario } from '../sim/index.ts';
import { realGlobals } from '../sim/realGlobals.ts';
import { minimize } from './minimize.ts';
import { caseAt, caseSeed, simCaseArbitrary, type SimCase } from './simCase.ts';

/** Runs one scenario and judges it: the oracle's `runChecked`, or any stand-in for tests. */
export type CheckedRunner = (
  scenario: Scenario,
  options: RunOptions & { readonly coverage?: boolean },
) => Promise<{ readonly result: RunResult; readonly findings: readonly Finding[]; readonly coverage?: Coverage }>;

/** What a campaign calls back: the runner that judges each case and a progress display. */
export interface CampaignHooks {
  readonly runner: CheckedRunner;
  readonly onProgress?: (done: number, total: number, phase: 'run' | 'shrink') => void;
}

/** A minimal reproduction of one invariant's failure. */
export interface Counterexample {
  readonly case: SimCase;
  readonly findings: readonly Finding[];
  readonly result: RunResult;
  /** fast-check's replay coordinates of the shrunk case (`{ seed, path }` of `fc.assert`). */
  readonly fcSeed: number;
  readonly fcPath: string;
  readonly shrinks: number;
  /** Single removals and simplifications the greedy pass applied after fast-check's shrinking. */
  readonly removals: number;
}

export interface FindingSummary {
  readonly invariant: InvariantId;
  readonly example: Finding;
  /** Runs in which it was found. */
  readonly runs: number;
  /** Index of the first case that found it (replay: `--seed <campaign seed> --case <index>`). */
  readonly firstCase: number;
  readonly counterexample?: Counterexample;
}

export interface CampaignReport {
  readonly seed: number;
  /** The workload the cases were drawn with: with `seed` and a case index, it names a case. */
  readonly workload: ResolvedWorkload;
  readonly runs: number;
  readonly wallMs: number;
  readonly steps: number;
  readonly virtualMs: number;
  readonly outcomes: Readonly<Record<string, number>>;
  /** Distinct invariants broken, violations first. */
  readonly findings: readonly FindingSummary[];
  /** Model transitions and named race pairs the campaign's runs hit. */
  readonly coverage: Coverage;
  /** Cases whose second run gave another trace hash (only with `selfCheck`). */
  readonly nondeterministic: readonly number[];
  readonly runsPerSecond: number;
}

const severityRank = { violation: 0, warning: 1, note: 2 } as const;

/**
 * A fuzz campaign: generated scenarios and schedules, each run judged by the oracle; every
 * distinct invariant broken is reported once, with its first case and a shrunk counterexample.
 * Takes resolved options (`resolveCampaignOptions`), so every default comes from one place.
 */
export async function runCampaign(options: ResolvedCampaignOptions, hooks: CampaignHooks): Promise<CampaignReport> {
  const { seed, runs, workload } = options;
  const started = realGlobals.Date.now();
  const byInvariant = new Map<InvariantId, { example: Finding; runs: number; firstCase: number }>();
  const outcomes: Record<string, number> = {};
  const nondeterministic: number[] = [];
  let steps = 0;
  let virtualMs = 0;
  const coverage = traceCoverage([]);

  for (let index = 0; index < runs; index++) {
    const simCase = caseAt(seed, index, workload);
    const checked = await hooks.runner(simCase.scenario, { tape: simCase.tape, seed: simCase.seed, coverage: true });
    const { result, findings } = checked;
    steps += result.steps;
    virtualMs += result.virtualMs;
    // A runner that does not count coverage itself (a stand-in) gets the trace walked here.
    addCoverage(coverage, checked.coverage ?? traceCoverage([result.trace], result.sdk?.facts));
    outcomes[result.outcome.kind] = (outcomes[result.outcome.kind] ?? 0) + 1;
    for (const id of new Set(findings.map((f) => f.invariant))) {
      const seen = byInvariant.get(id);
      if (seen) seen.runs++;
      else byInvariant.set(id, { example: findings.find((f) => f.invariant === id)!, runs: 1, firstCase: index });
    }
    if (options.selfCheck) {
      const again = await hooks.runner(simCase.scenario, { tape: simCase.tape, seed: simCase.seed });
      if (again.result.hash !== result.hash) nondeterministic.push(index);
    }
    hooks.onProgress?.(index + 1, runs, 'run');
  }
  const runWallMs = realGlobals.Date.now() - started;

  const findings: FindingSummary[] = [];
  const sorted = [...byInvariant].sort(
    ([a, x], [b, y]) => severityRank[x.example.severity] - severityRank[y.example.severity] || a.localeCompare(b),
  );
  let shrunk = 0;
  for (const [invariant, seen] of sorted) {
    const counterexample = options.shrink
      ? await shrinkCounterexample(invariant, caseSeed(seed, seen.firstCase), { runner: hooks.runner, workload, shrinkTimeMsMax: options.shrinkTimeMsMax })
      : undefined;
    findings.push({ invariant, ...seen, ...(counterexample && { counterexample }) });
    if (options.shrink) hooks.onProgress?.(++shrunk, sorted.length, 'shrink');
  }
  return {
    seed,
    workload,
    runs,
    wallMs: realGlobals.Date.now() - started,
    steps,
    virtualMs,
    outcomes,
    findings,
    coverage,
    nondeterministic,
    runsPerSecond: runs / Math.max(runWallMs / 1000, 1e-9),
  };
}

/**
 * Lets fast-check re-find the case (same seed, first value) and shrink it while the invariant
 * still fires (fewer actions, fewer steps, a tape closer to the natural order), then makes it
 * 1-minimal with the greedy pass of `minimize`.
 */
export async function shrinkCounterexample(
  invariant: InvariantId,
  fcSeed: number,
  options: { readonly runner: CheckedRunner; readonly workload: ResolvedWorkload; readonly shrinkTimeMsMax: number },
): Promise<Counterexample | undefined> {
  const fires = async (c: SimCase) =>
    (await options.runner(c.scenario, { tape: c.tape, seed: c.seed })).findings.some((f) => f.invariant === invariant);
  const details = await fc.check(
    fc.asyncProperty(simCaseArbitrary(options.workload), async (c) => !(await fires(c))),
    { seed: fcSeed, numRuns: 1, interruptAfterTimeLimit: options.shrinkTimeMsMax, markInterruptAsFailure: false },
  );
  if (!details.failed || !details.counterexample) return undefined;
  const { case: simCase, removals } = await minimize(details.counterexample[0], fires);
  const { result, findings } = await options.runner(simCase.scenario, { tape: simCase.tape, seed: simCase.seed });
  return {
    case: simCase,
    removals,
    result,
    findings,
    fcSeed,
    fcPath: details.counterexamplePath ?? '',
    shrinks: details.numShrinks,
  };
}
