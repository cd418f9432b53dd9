import fc from 'fast-check';
import { addCoverage, coverage as traceCoverage, type Coverage } from '../model/coverage.ts';
import type { Finding } from '../model/finding.ts';
import type { InvariantId } from '../model/invariants.ts';
import { workloadKey, type ResolvedCampaignOptions, type ResolvedWorkload, type ShardSpec } from '../options/index.ts';
import type { RunOptions, RunResult, Scenario } from '../sim/index.ts';
import { realGlobals } from '../sim/realGlobals.ts';
import { causesOf, inBaselineCampaign, isKnown, NO_KNOWN_CAUSES, type KnownCauses } from './knownCauses.ts';
import { JudgedCases } from './judgedCases.ts';
import { minimize } from './minimize.ts';
import { rateChecks, type RateReport } from './rateCheck.ts';
import { addKnockOns, copyEntry, countedFindings, countsAs, foldsUnderRoot, knockOnsOf, mergeKnockOns, type FoundEntry, type KnockOnSummary } from './rootCauses.ts';
import { shardRange, type CaseRange } from './shard.ts';
import { shrinkTaskKey, type ShrinkMemo, type StoredShrink } from './shrinkMemo.ts';
import { caseAt, caseSeed, simCaseArbitrary, type SimCase } from './simCase.ts';

/** Runs one scenario and judges it: the oracle's `runChecked`, or any stand-in for tests. */
export type CheckedRunner = (
  scenario: Scenario,
  options: RunOptions & { readonly coverage?: boolean },
) => Promise<{ readonly result: RunResult; readonly findings: readonly Finding[]; readonly coverage?: Coverage }>;

/**
 * Runs a campaign's cases and shrinks its counterexamples somewhere else than in this thread:
 * worker threads (`CampaignWorkers`, `workerPool.ts`), each with its own globals. The result
 * must be what `runCases` and `shrinkCounterexample` give in process.
 */
export interface CaseExecutor {
  /** How many runs it runs at once. */
  readonly size: number;
  /**
   * The tally of the longest prefix of `range` it ran: every case, unless `shouldStop()` turned
   * true (checked between runs). `onPrefix` is called with the prefix done so far and the
   * invariants it broke.
   */
  runCases(job: CasesJob, control: { readonly shouldStop: () => boolean; readonly onPrefix?: (done: number, found: number) => void }): Promise<CampaignTally>;
  /** `shrinkCounterexample` of each task, in task order; `cut()` turning true cuts every shrink short. */
  shrinkAll(
    tasks: readonly ShrinkTask[],
    settings: ShrinkSettings,
    control: { readonly cut: () => boolean; readonly onDone?: (done: number) => void },
  ): Promise<(Counterexample | undefined)[]>;
}

/** The cases of one campaign to run: `[from, to)` of seed `seed` drawn with `workload`. */
export interface CasesJob extends CaseRange {
  readonly seed: number;
  readonly workload: ResolvedWorkload;
  readonly selfCheck: boolean;
  /** What each run's findings are told apart by: a known cause, or new. @default NO_KNOWN_CAUSES */
  readonly known?: KnownCauses;
}

/** What shrinking one counterexample needs besides the runner. */
export interface ShrinkSettings {
  readonly workload: ResolvedWorkload;
  readonly shrinkTimeMsMax: number;
  /** The cases' arbitrary, when not the workload's (`CaseSource.arbitrary`). */
  readonly arbitrary?: fc.Arbitrary<SimCase>;
  /**
   * A deterministic budget: scheduler steps all of one shrink's runs may take. With it, the time
   * limit is a backstop checked between runs (never racing one), and a candidate the simulator
   * refuses does not fire. Without it, fast-check's time limit bounds the shrink.
   */
  readonly shrinkStepsMax?: number;
  /** With `ShrinkTask.fresh`: the causes a shrunk case must stay clear of. */
  readonly known?: KnownCauses;
}

/**
 * One counterexample to shrink: the case of `fcSeed` while `invariant` fires in it; with `fresh`,
 * while it fires through a cause `ShrinkSettings.known` does not explain, so that a new cause of
 * a known invariant shrinks to itself and not to the known cause.
 */
export interface ShrinkTask {
  readonly invariant: InvariantId;
  readonly fcSeed: number;
  readonly fresh?: boolean;
}

/**
 * Where a campaign's cases come from, when not from its workload (`caseAt`): a server module's
 * tools, say. Case `index` of `seed` is `at(seed, index)`, drawn from `arbitrary` with
 * `caseSeed(seed, index)`, so that shrinking re-finds it. In this thread only (worker threads draw
 * from the workload).
 */
export interface CaseSource {
  at(seed: number, index: number): SimCase;
  readonly arbitrary: fc.Arbitrary<SimCase>;
}

/** What a campaign calls back: the runner that judges each case and a progress display. */
export interface CampaignHooks {
  readonly runner: CheckedRunner;
  /** The cases, when not the workload's. @default `caseAt` of the options' workload */
  readonly cases?: CaseSource;
  /** Which findings to shrink (the rest are reported with their first case). @default every one */
  readonly shrinks?: (f: FindingSummary) => boolean;
  /** Called as runs and shrinks finish; while running, `found` is the number of invariants broken so far. */
  readonly onProgress?: (done: number, total: number, phase: 'run' | 'shrink', found?: number) => void;
  /** Aborting it (Ctrl-C) stops the runs after the current one and skips or cuts shrinking. */
  readonly signal?: AbortSignal;
  /** The SDK release's known causes (its baseline): findings are told apart by them. @default NO_KNOWN_CAUSES */
  readonly known?: KnownCauses;
  /**
   * Runs the cases and shrinks in worker threads when given (and `options.workers` > 1);
   * otherwise `runner` runs everything in this thread.
   */
  readonly executor?: CaseExecutor;
  /**
   * The SDK release's kept shrinks (`shrinkMemo.ts`): a shrink task found there is not shrunk
   * again; its kept case is run once, and used if it still shows the invariant.
   */
  readonly shrinkMemo?: ShrinkMemo;
  /** Where to keep every shrink this campaign does (`check --record-shrinks`); the memo is not read then. */
  readonly recordShrinks?: ShrinkMemo;
  /** A deterministic shrink budget in scheduler steps (`ShrinkSettings.shrinkStepsMax`). @default none: the time limit */
  readonly shrinkStepsMax?: number;
  /** Called once the runs are done, before any shrink (what `shrinks` decides may need it). */
  readonly beforeShrinking?: () => Promise<void>;
  /** How many of the counterexamples came from `shrinkMemo`, of how many, once shrinking is done. */
  readonly onShrinksKept?: (kept: number, total: number) => void;
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
  /** With a step budget: shrinking stopped at it (`steps`) or at the time backstop (`time`) before it was done. */
  readonly cutShort?: 'steps' | 'time';
}

export interface FindingSummary {
  readonly invariant: InvariantId;
  readonly example: Finding;
  /** Runs in which it was found. */
  readonly runs: number;
  /** Index of the first case that found it (replay: `--seed <campaign seed> --case <index>`). */
  readonly firstCase: number;
  readonly counterexample?: Counterexample;
  /** Knock-ons counted under this root cause (`rootCauses.ts`): the report lists them under it. */
  readonly knockOns?: readonly KnockOnSummary[];
  /**
   * The runs whose finding no known cause explains (`knownCauses.ts`): a new cause, even when the
   * invariant is in the baseline. When present, `counterexample` is the shrunk first of these.
   */
  readonly fresh?: FreshSummary;
}

/** The runs of one invariant that no known cause explains: how many, the first one and its finding. */
export interface FreshSummary {
  readonly example: Finding;
  readonly runs: number;
  readonly firstCase: number;
  /**
   * How many of these runs are cases of the baseline's own campaign (`KnownCauses.rateCampaign`:
   * same seed and workload, an index it ran). The baseline saw each of those cases on the
   * unchanged SDK, so a cause it does not know there is a change of the SDK, not an unseen case.
   */
  readonly inBaselineCampaign: number;
}

/** The case a finding's counterexample was shrunk from: its first new case, else its first case. */
export const shrunkFrom = (f: Pick<FindingSummary, 'firstCase' | 'fresh'>): number => f.fresh?.firstCase ?? f.firstCase;

/** Why a campaign did fewer runs than it was asked for, or shrank less. */
export type StopReason = 'time-limit' | 'interrupted';

export interface CampaignReport {
  readonly seed: number;
  /** The workload the cases were drawn with: with `seed` and a case index, it names a case. */
  readonly workload: ResolvedWorkload;
  /** Runs done: cases `shard.from` … `shard.from + runs − 1` (from 0 without a shard). */
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
  // Set by `runCampaign` (optional only so that a report can be written by hand):
  /** Runs the whole campaign was asked for (`--runs`); `runs` is smaller when it was cut or sharded. */
  readonly planned?: number;
  /**
   * Runs in which each known cause (`KnownCauses.causes`, by index) was counted; with `rates`,
   * what a campaign is judged by besides its new findings. Absent without a baseline.
   */
  readonly causeRuns?: readonly number[];
  /** The rate check of the known causes (`rateCheck.ts`), or why there is none. */
  readonly rates?: RateReport;
  /** Set when the runs were cut (time limit, Ctrl-C) or, interrupted, shrinking was skipped or cut. */
  readonly stopped?: StopReason;
  /** Set on the report of one shard (`--shard I/N`): which slice of the campaign's cases it ran. */
  readonly shard?: ShardSpec & CaseRange;
  readonly selfCheck?: boolean;
  readonly shrink?: boolean;
  /** Wall-clock time of the runs alone (without shrinking): `runsPerSecond` is `runs / runWallMs`. */
  readonly runWallMs?: number;
}

const severityRank = { violation: 0, warning: 1, note: 2 } as const;

// ---------------------------------------------------------------------------------------------
// One run, and the tally of many
// ---------------------------------------------------------------------------------------------

/** What one run adds to a campaign report: its totals, its coverage and the invariants it counts; no trace. */
export interface RunRecord {
  readonly index: number;
  readonly steps: number;
  readonly virtualMs: number;
  readonly outcome: string;
  readonly coverage: Coverage;
  /** The run's first finding of each invariant it broke, in the order the oracle saw them (knock-ons aside). */
  readonly counted: readonly Finding[];
  /** Knock-ons counted under their root's entry (`rootCauses.ts`), the first of each per root. */
  readonly knockOns?: readonly Finding[];
  /** The counted findings no known cause explains (a subset of `counted`). */
  readonly fresh?: readonly Finding[];
  /** Indices of the known causes that explain some counted finding of the run, each once. */
  readonly causeHits?: readonly number[];
  /** The case is one the baseline's own campaign ran (`FreshSummary.inBaselineCampaign`). */
  readonly inBaselineCampaign?: boolean;
  /** With self-check: the second run gave another trace hash. */
  readonly nondeterministic: boolean;
}

/** A run's record: which of its findings the campaign counts (each invariant once, its first finding the example). */
export function recordOf(
  index: number,
  checked: Awaited<ReturnType<CheckedRunner>>,
  again?: Awaited<ReturnType<CheckedRunner>>,
  judged?: { readonly case: SimCase; readonly known: KnownCauses; readonly inBaselineCampaign: boolean },
): RunRecord {
  const { result, findings } = checked;
  const { counted, knockOns } = countedFindings(findings);
  // Every finding an entry of its own counts is judged, not only the first of its invariant: a
  // run may break a known clause first and another clause after.
  const own = findings.filter((f) => !foldsUnderRoot(f));
  const fresh = judged ? firstOfEach(own.filter((f) => !isKnown(judged.known, judged.case, f))) : [];
  const causeHits = judged ? [...new Set(counted.flatMap((f) => causesOf(judged.known, judged.case, f)))].sort((a, b) => a - b) : [];
  return {
    index,
    steps: result.steps,
    virtualMs: result.virtualMs,
    outcome: result.outcome.kind,
    // A runner that does not count coverage itself (a stand-in) gets the trace walked here.
    coverage: checked.coverage ?? traceCoverage([result.trace], result.sdk?.facts),
    counted,
    ...(knockOns.length > 0 && { knockOns }),
    ...(fresh.length > 0 && { fresh }),
    ...(causeHits.length > 0 && { causeHits }),
    ...(judged?.inBaselineCampaign && { inBaselineCampaign: true }),
    nondeterministic: again !== undefined && again.result.hash !== result.hash,
  };
}

/**
 * The sum of the runs of cases `from` … `to − 1`, in index order: everything a report needs but
 * shrinking. Tallies of neighbouring ranges merge (`mergeTally`) into the tally of their union,
 * equal to the tally of running it at once, key order of the counts included. That is what
 * lets workers and shards run slices and the report stay the one of a single run.
 */
export interface CampaignTally {
  readonly from: number;
  to: number;
  steps: number;
  virtualMs: number;
  readonly outcomes: Record<string, number>;
  readonly coverage: Coverage;
  /** By invariant: the example (first finding in its first case), runs found in, first case. */
  readonly found: Map<InvariantId, FoundEntry>;
  /** Runs in which each known cause was counted, by index (grown as causes are hit). */
  readonly causeRuns: number[];
  readonly nondeterministic: number[];
}

/** The tally of no run, starting at case `from`. */
export function emptyTally(from: number): CampaignTally {
  return { from, to: from, steps: 0, virtualMs: 0, outcomes: {}, coverage: traceCoverage([]), found: new Map(), causeRuns: [], nondeterministic: [] };
}

/** Adds the next run (case `tally.to`) to `tally`, in place. */
export function addRecord(tally: CampaignTally, record: RunRecord): CampaignTally {
  if (record.index !== tally.to) throw new Error(`addRecord: case ${record.index} is not the next case (${tally.to}) of the tally`);
  tally.to++;
  tally.steps += record.steps;
  tally.virtualMs += record.virtualMs;
  addCoverage(tally.coverage, record.coverage);
  tally.outcomes[record.outcome] = (tally.outcomes[record.outcome] ?? 0) + 1;
  for (const f of record.counted) {
    const seen = tally.found.get(f.invariant);
    if (seen) seen.runs++;
    else tally.found.set(f.invariant, { example: f, runs: 1, firstCase: record.index });
  }
  for (const f of record.fresh ?? []) {
    const entry = tally.found.get(f.invariant)!;
    const inCampaign = record.inBaselineCampaign ? 1 : 0;
    if (entry.fresh) {
      entry.fresh.runs++;
      entry.fresh.inBaselineCampaign += inCampaign;
    } else entry.fresh = { example: f, runs: 1, firstCase: record.index, inBaselineCampaign: inCampaign };
  }
  for (const i of record.causeHits ?? []) addAt(tally.causeRuns, i, 1);
  addKnockOns(tally.found, record.knockOns, record.index);
  if (record.nondeterministic) tally.nondeterministic.push(record.index);
  return tally;
}

/** Adds `next`, the tally of the cases right after `into`'s, to `into`, in place. */
export function mergeTally(into: CampaignTally, next: CampaignTally): CampaignTally {
  if (next.from !== into.to) throw new Error(`mergeTally: cases from ${next.from} do not follow cases up to ${into.to}`);
  into.to = next.to;
  into.steps += next.steps;
  into.virtualMs += next.virtualMs;
  addCoverage(into.coverage, next.coverage);
  for (const [kind, n] of Object.entries(next.outcomes)) into.outcomes[kind] = (into.outcomes[kind] ?? 0) + n;
  for (const [id, f] of next.found) {
    const seen = into.found.get(id);
    if (seen) {
      seen.runs += f.runs;
      mergeKnockOns(seen, f);
      if (f.fresh) {
        if (seen.fresh) {
          seen.fresh.runs += f.fresh.runs;
          seen.fresh.inBaselineCampaign += f.fresh.inBaselineCampaign;
        } else seen.fresh = { ...f.fresh };
      }
    } else into.found.set(id, copyEntry(f));
  }
  next.causeRuns.forEach((n, i) => addAt(into.causeRuns, i, n));
  into.nondeterministic.push(...next.nondeterministic);
  return into;
}

/** The first finding of each invariant, in order. */
function firstOfEach(findings: readonly Finding[]): Finding[] {
  const seen = new Set<InvariantId>();
  return findings.filter((f) => !seen.has(f.invariant) && seen.add(f.invariant));
}

/** `counts[i] += n`, reading a hole as 0 (counts grow as causes are hit). */
function addAt(counts: number[], i: number, n: number): void {
  for (let j = counts.length; j < i; j++) counts[j] = 0;
  counts[i] = (counts[i] ?? 0) + n;
}

/**
 * Runs cases `job.from` … `job.to − 1` one after another in this thread, checking `shouldStop`
 * before each: the tally of the cases run (a prefix of the range). What `runCampaign` does in
 * process, and what each worker thread does with the slices it is given.
 */
export async function runCases(
  job: CasesJob,
  runner: CheckedRunner,
  control: { readonly shouldStop?: () => boolean; readonly onRun?: (done: number, found: number) => void } = {},
  cases?: CaseSource,
): Promise<CampaignTally> {
  const tally = emptyTally(job.from);
  for (let index = job.from; index < job.to; index++) {
    if (control.shouldStop?.()) break;
    addRecord(tally, await runCase(index, job, runner, cases));
    control.onRun?.(index + 1 - job.from, tally.found.size);
  }
  return tally;
}

/** Case `index` of the campaign, run (twice with self-check) and recorded. */
export async function runCase(index: number, job: Omit<CasesJob, 'from' | 'to'>, runner: CheckedRunner, cases?: CaseSource): Promise<RunRecord> {
  const simCase = cases ? cases.at(job.seed, index) : caseAt(job.seed, index, job.workload);
  const checked = await runner(simCase.scenario, { tape: simCase.tape, seed: simCase.seed, coverage: true });
  const again = job.selfCheck ? await runner(simCase.scenario, { tape: simCase.tape, seed: simCase.seed }) : undefined;
  const known = job.known ?? NO_KNOWN_CAUSES;
  return recordOf(index, checked, again, { case: simCase, known, inBaselineCampaign: inBaselineCampaign(known, job, index) });
}

/** What a report says besides its tally. */
export interface ReportContext {
  readonly seed: number;
  readonly workload: ResolvedWorkload;
  readonly planned: number;
  readonly selfCheck: boolean;
  readonly shrink: boolean;
  readonly stopped?: StopReason;
  readonly shard?: ShardSpec & CaseRange;
  readonly wallMs: number;
  readonly runWallMs: number;
  /** The causes the runs were told apart by: with rates, the report has its rate check. */
  readonly known?: KnownCauses;
}

/**
 * The report of a tally (pure): each invariant once, violations first, then warnings, then
 * notes, by id among equals; without counterexamples (`runCampaign` shrinks after this, and
 * `merge` takes them from the shards).
 */
export function summarize(tally: CampaignTally, context: ReportContext): CampaignReport {
  const runs = tally.to - tally.from;
  const findings: FindingSummary[] = [...tally.found]
    .sort(([a, x], [b, y]) => severityRank[x.example.severity] - severityRank[y.example.severity] || a.localeCompare(b))
    .map(([invariant, seen]) => ({
      invariant,
      example: seen.example,
      runs: seen.runs,
      firstCase: seen.firstCase,
      ...knockOnsOf(seen),
      ...(seen.fresh && { fresh: { ...seen.fresh } }),
    }));
  const known = context.known;
  return {
    seed: context.seed,
    workload: context.workload,
    runs,
    wallMs: context.wallMs,
    steps: tally.steps,
    virtualMs: tally.virtualMs,
    outcomes: tally.outcomes,
    findings,
    coverage: tally.coverage,
    nondeterministic: tally.nondeterministic,
    runsPerSecond: runs / Math.max(context.runWallMs / 1000, 1e-9),
    planned: context.planned,
    ...(known && known.causes.length > 0 && { causeRuns: known.causes.map((_, i) => tally.causeRuns[i] ?? 0) }),
    ...(known && { rates: rateChecks(known, tally.causeRuns, runs, workloadKey(context.workload)) }),
    ...(context.stopped && { stopped: context.stopped }),
    ...(context.shard && { shard: context.shard }),
    selfCheck: context.selfCheck,
    shrink: context.shrink,
    runWallMs: context.runWallMs,
  };
}

// ---------------------------------------------------------------------------------------------
// The campaign
// ---------------------------------------------------------------------------------------------

/**
 * A fuzz campaign: generated scenarios and schedules, each run judged by the oracle; every
 * distinct invariant broken is reported once, with its first case and a shrunk counterexample.
 * Takes resolved options (`resolveCampaignOptions`), so every default comes from one place.
 *
 * The cases run in this thread, or in worker threads when `hooks.executor` is given and
 * `options.workers` > 1; either way the report is the same (runs are pure functions of their
 * case, and tallies merge in case order). A time limit or an aborted `hooks.signal` stops the
 * runs between two runs: the report then covers cases `from` … `from + runs − 1` and equals the
 * report of a campaign of that many runs (timings aside).
 */
export async function runCampaign(options: ResolvedCampaignOptions, hooks: CampaignHooks): Promise<CampaignReport> {
  const { seed, workload } = options;
  const started = realGlobals.Date.now();
  const shard = options.shard && { ...options.shard, ...shardRange(options.shard.index, options.shard.count, options.runs) };
  const range: CaseRange = shard ?? { from: 0, to: options.runs };
  const total = range.to - range.from;
  const deadline = options.timeLimitSeconds === undefined ? undefined : started + options.timeLimitSeconds * 1000;
  let stopped: StopReason | undefined;
  // Read between runs only, never inside one (a run fakes Date): the real clock and the signal.
  const shouldStop = () => {
    stopped ??= hooks.signal?.aborted ? 'interrupted' : deadline !== undefined && realGlobals.Date.now() >= deadline ? 'time-limit' : undefined;
    return stopped !== undefined;
  };
  // Worker threads draw from the workload: a campaign with cases of its own runs them here.
  const executor = options.workers > 1 && !hooks.cases ? hooks.executor : undefined;
  const known = hooks.known ?? NO_KNOWN_CAUSES;
  const job: CasesJob = { seed, workload, selfCheck: options.selfCheck, known, ...range };
  const onRun = (done: number, found: number) => hooks.onProgress?.(done, total, 'run', found);
  const tally = executor ? await executor.runCases(job, { shouldStop, onPrefix: onRun }) : await runCases(job, hooks.runner, { shouldStop, onRun }, hooks.cases);
  // A stop asked for after the last run changes nothing.
  if (tally.to === range.to && stopped === 'time-limit') stopped = undefined;
  const runWallMs = realGlobals.Date.now() - started;

  const context = { seed, workload, planned: options.runs, selfCheck: options.selfCheck, shrink: options.shrink, ...(shard && { shard }), runWallMs, known };
  const unshrunk = summarize(tally, { ...context, wallMs: runWallMs });
  // Interrupted during the runs: report what was found, unshrunk. Interrupted while shrinking: cut it short.
  if (options.shrink && stopped !== 'interrupted') await hooks.beforeShrinking?.();
  const findings =
    options.shrink && stopped !== 'interrupted'
      ? await shrinkAll(unshrunk.findings, options, hooks, executor, () => {
          if (hooks.signal?.aborted) stopped = 'interrupted';
          return stopped === 'interrupted';
        })
      : unshrunk.findings;
  const report = summarize(tally, { ...context, ...(stopped && { stopped }), wallMs: realGlobals.Date.now() - started });
  return { ...report, findings };
}

/** Shrinks the first case of each finding, in report order, in this thread or on the executor. */
async function shrinkAll(
  findings: readonly FindingSummary[],
  options: ResolvedCampaignOptions,
  hooks: CampaignHooks,
  executor: CaseExecutor | undefined,
  cut: () => boolean,
): Promise<FindingSummary[]> {
  const shrinking = hooks.shrinks ? findings.filter(hooks.shrinks) : findings;
  const tasks: ShrinkTask[] = shrinking.map((f) => ({ invariant: f.invariant, fcSeed: caseSeed(options.seed, shrunkFrom(f)), ...(f.fresh && { fresh: true }) }));
  const settings: ShrinkSettings = {
    workload: options.workload,
    shrinkTimeMsMax: options.shrinkTimeMsMax,
    ...(hooks.known && { known: hooks.known }),
    ...(hooks.cases && { arbitrary: hooks.cases.arbitrary }),
    ...(hooks.shrinkStepsMax !== undefined && { shrinkStepsMax: hooks.shrinkStepsMax }),
  };
  const workload = workloadKey(options.workload);
  const keyOf = (task: ShrinkTask) => shrinkTaskKey(task, workload, hooks.known);
  // Kept shrinks first (one run each); only the tasks without one are shrunk.
  const kept: (Counterexample | undefined)[] = [];
  for (const task of tasks) kept.push(hooks.shrinkMemo && !hooks.recordShrinks && !cut() ? await keptCounterexample(task, hooks.shrinkMemo.get(keyOf(task)), hooks) : undefined);
  const todo = tasks.filter((_, i) => kept[i] === undefined);
  const onDone = (done: number) => hooks.onProgress?.(tasks.length - todo.length + done, tasks.length, 'shrink');
  let shrunk: (Counterexample | undefined)[];
  if (executor) {
    shrunk = await executor.shrinkAll(todo, settings, { cut, onDone });
  } else {
    shrunk = [];
    // One cache for every task: the invariants one case breaks shrink through the same candidates.
    const judged = new JudgedCases();
    for (const task of todo) {
      shrunk.push(cut() ? undefined : await shrinkCounterexample(task, { runner: hooks.runner, ...settings, cut, judged }));
      onDone(shrunk.length);
    }
  }
  todo.forEach((task, i) => {
    const c = shrunk[i];
    if (c && hooks.recordShrinks && !cut()) hooks.recordShrinks.set({ key: keyOf(task), case: c.case, fcPath: c.fcPath, shrinks: c.shrinks, removals: c.removals });
  });
  hooks.onShrinksKept?.(tasks.length - todo.length, tasks.length);
  let next = 0;
  const counterexamples = kept.map((k) => k ?? shrunk[next++]);
  return findings.map((f) => {
    const i = shrinking.indexOf(f);
    const counterexample = i < 0 ? undefined : counterexamples[i];
    return counterexample ? { ...f, counterexample } : f;
  });
}

/**
 * The counterexample a kept shrink gives: its case run once, as `shrinkCounterexample` runs its
 * result; undefined when there is none, or when the case no longer shows the invariant (the task
 * is then shrunk as usual).
 */
async function keptCounterexample(task: ShrinkTask, stored: StoredShrink | undefined, hooks: CampaignHooks): Promise<Counterexample | undefined> {
  if (!stored) return undefined;
  const c = stored.case;
  const { result, findings } = await hooks.runner(c.scenario, { tape: c.tape, seed: c.seed });
  const known = task.fresh ? (hooks.known ?? NO_KNOWN_CAUSES) : undefined;
  if (!findings.some((f) => countsAs(f, task.invariant) && !(known && isKnown(known, c, f)))) return undefined;
  return { case: c, removals: stored.removals, result, findings, fcSeed: task.fcSeed, fcPath: stored.fcPath, shrinks: stored.shrinks };
}

/**
 * Lets fast-check re-find the case (same seed, first value) and shrink it while the invariant
 * still fires (fewer actions, fewer steps, a tape closer to the natural order), then makes it
 * 1-minimal with the greedy pass of `minimize`. When `cut()` turns true (Ctrl-C), no candidate
 * runs any more: the smallest case found to fire so far is the counterexample. With `judged`, a
 * candidate already judged (by this shrink or another one sharing the cache) is not run again.
 */
export async function shrinkCounterexample(
  task: ShrinkTask,
  options: ShrinkSettings & { readonly runner: CheckedRunner; readonly cut?: () => boolean; readonly judged?: JudgedCases },
): Promise<Counterexample | undefined> {
  const { invariant, fcSeed } = task;
  const known = task.fresh ? (options.known ?? NO_KNOWN_CAUSES) : undefined;
  const budget = options.shrinkStepsMax === undefined ? undefined : { max: options.shrinkStepsMax, steps: 0, deadline: realGlobals.Date.now() + options.shrinkTimeMsMax };
  let cutShort: 'steps' | 'time' | undefined;
  const judge = async (c: SimCase) => {
    if (!budget) return (await options.runner(c.scenario, { tape: c.tape, seed: c.seed })).findings;
    try {
      const run = await options.runner(c.scenario, { tape: c.tape, seed: c.seed });
      budget.steps += run.result.steps;
      return run.findings;
    } catch {
      // A candidate the simulator refuses (an abort left without its call) does not fire.
      return [];
    }
  };
  const spent = () => {
    if (!budget) return false;
    if (budget.steps >= budget.max) cutShort ??= 'steps';
    else if (realGlobals.Date.now() > budget.deadline) cutShort ??= 'time';
    return cutShort !== undefined;
  };
  const firesNow = async (c: SimCase) =>
    !options.cut?.() &&
    !spent() &&
    (await (options.judged && !budget ? options.judged.findings(c, () => judge(c)) : judge(c))).some((f) => countsAs(f, invariant) && !(known && isKnown(known, c, f)));
  // fast-check's time limit returns from `check` without waiting for the run it interrupted, and
  // runs replace the process's globals, so the next run (minimize's, the next shrink's) waits for it.
  let inFlight: Promise<unknown> = Promise.resolve();
  const fires = (c: SimCase) => {
    const run = firesNow(c);
    inFlight = run.catch(() => undefined);
    return run;
  };
  const details = await fc.check(
    fc.asyncProperty(options.arbitrary ?? simCaseArbitrary(options.workload), async (c) => !(await fires(c))),
    budget ? { seed: fcSeed, numRuns: 1 } : { seed: fcSeed, numRuns: 1, interruptAfterTimeLimit: options.shrinkTimeMsMax, markInterruptAsFailure: false },
  );
  await inFlight;
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
    ...(cutShort && { cutShort }),
  };
}
