import { performance } from 'node:perf_hooks';
import type { Finding } from '../../model/finding.ts';
import { whoseOf, type CaseFinding, type Whose } from '../caseVerdict.ts';
import type { InvariantId } from '../../model/invariants.ts';
import { DEFAULT_PROCESS_SHRINK_MS_MAX, DEFAULT_SHRINK_TRIES } from '../../options/defaults.ts';
import { withoutCancels, type Plan } from '../../real/plan.ts';
import { runPlan } from '../../real/runPlan.ts';
import { USER_SERVER_JUDGING } from '../../targets/endpoint/planTarget.ts';
import type { Endpoint } from '../../real/connection.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import type { KnownRealCause, RealBounds, RealPreparation, RealRun, RealTarget, TargetDescription, Visibility } from '../../targets/Target.ts';

export type { KnownRealCause };
import { covers, shapeKey, shapeOfKey } from '../../workload/shape.ts';
import { judgeReal } from './judgeReal.ts';
import { pool } from './pool.ts';
import { determinismOf, type Rate } from './rate.ts';
import { REUSE_NOTE, sharedRuns } from './sharedRuns.ts';
import { toolCounts, toolOfCall, type ToolCount } from './toolCounts.ts';

/** How the real clock's campaign runs: every field resolved (src/options/realCampaignOptions.ts fills the defaults). */
export interface RealCampaignSettings {
  readonly seed: number;
  readonly runs: number;
  /** Cases at once (processes or sessions). */
  readonly parallel: number;
  readonly bounds: RealBounds;
  /** Re-runs of each minimal case for its reproduction rate. */
  readonly rateRuns: number;
  readonly shrink: boolean;
  /** A candidate counts as failing when it fails in any of this many runs. @default DEFAULT_SHRINK_TRIES */
  readonly shrinkTries?: number;
  /** Real-time budget of shrinking one cause, in ms. @default DEFAULT_PROCESS_SHRINK_MS_MAX */
  readonly shrinkMsMax?: number;
  /** Many cases on one connection (`--reuse`), each finding re-run on a fresh one too. @default false */
  readonly reuse?: boolean;
  /** The causes a baseline knows for this target: a finding of one of them is known, not shrunk. */
  readonly known?: readonly KnownRealCause[];
  readonly onProgress?: (done: number, total: number, phase: 'run' | 'shrink' | 'rate') => void;
  /** Each case of the campaign once judged, in no particular order: what a script that tabulates every run reads (`npm run sdks:clients`). */
  readonly onRun?: (k: number, c: unknown, judged: Judged) => void;
}


/** One cause of one invariant the campaign saw: its minimal case, how often it showed, how often it reproduces. */
export interface RealFinding<Case = unknown> extends Whose {
  readonly invariant: InvariantId;
  readonly level: Finding['level'];
  readonly severity: Finding['severity'];
  readonly message: string;
  /** The call of the minimal case the finding is about (`c1`), when it names one, and the tool that call called. */
  readonly call?: string;
  readonly tool?: string;
  /** Where the case ran and the features of its minimal case: the cause that tells this finding apart. */
  readonly cause: { readonly variant: string; readonly shape: string };
  /** A known cause of the target's baseline (listed, not failing, not shrunk again). */
  readonly known: boolean;
  /** The first case of the campaign that showed this cause. */
  readonly firstCase: number;
  /** Runs of the campaign that showed it through this cause. */
  readonly runs: number;
  readonly minimal: Case;
  /** The minimal case in words, one line per action. */
  readonly steps: readonly string[];
  readonly shrinks: number;
  /** Re-runs of the minimal case on a fresh process or session. */
  readonly rate: Rate;
  /** `reproduced 10/10`, `3/10: timing-dependent`. */
  readonly determinism: string;
  /**
   * The minimal case failed again in at least one re-run. An unconfirmed finding (seen once in
   * the campaign, 0 of N again) is listed but never fails it: a stalled machine looks the same once.
   */
  readonly confirmed: boolean;
  /** The trace of one failing run of the minimal case. */
  readonly trace: readonly TraceEvent[];
  /** `--reuse`: the minimal case's rate on a shared connection too (`rate` is on fresh ones). */
  readonly reuse?: { readonly note: typeof REUSE_NOTE; readonly rate: Rate };
}

/** A real-time campaign's report: the target, what it saw and could not, its bounds, its speed, every finding by cause. */
export interface RealCampaignReport<Case = unknown> {
  readonly clock: 'real';
  readonly target: TargetDescription;
  readonly sees: Visibility;
  readonly preparation: RealPreparation;
  readonly seed: number;
  readonly runs: number;
  readonly parallel: number;
  readonly bounds: RealBounds;
  readonly findings: readonly RealFinding<Case>[];
  readonly wallMs: number;
  readonly runsPerSecond: number;
  /** Median real ms from spawn (or session open) to the end of the handshake. */
  readonly startupMs: number;
  /** `--reuse`: how many processes (or sessions) the runs shared, and how many frames of a case came after its barrier. */
  readonly reuse?: { readonly note: typeof REUSE_NOTE; readonly connections: number; readonly lateFrames: number };
  /** Per tool, over the campaign's runs: calls, cancels, calls with a progress token, closes in flight. */
  readonly toolCounts: readonly ToolCount[];
}

/** A run of a case, judged. */
export interface Judged {
  readonly findings: readonly CaseFinding[];
  readonly trace: readonly TraceEvent[];
  readonly startupMs: number | undefined;
  readonly lateFrames: number;
}

/** Most candidates tried while shrinking one cause (each up to `shrinkTries` runs): real time is dear. */
const SHRINK_CANDIDATES_MAX = 40;

/** Most causes of one invariant shrunk apart; runs of the others are counted under the last one (`RealTarget.causesPerInvariant`). */
const CAUSES_MAX = 3;

/**
 * The one campaign on the real clock: case `k` of the seed, for each `k` (on fresh processes or
 * sessions, `parallel` at once, or shared with `--reuse`), each run judged by the oracle (a
 * result that crossed its cancel against the counterfactual run without cancels); the findings of
 * each invariant split by cause (a cause's first case shrunk greedily, the runs its minimal shape
 * covers counted under it, the first uncovered run shrunk next); each minimal case re-run for
 * its reproduction rate. The target only names and runs cases.
 */
export async function realCampaign<Case>(target: RealTarget<Case>, settings: RealCampaignSettings): Promise<RealCampaignReport<Case>> {
  const { bounds, parallel } = settings;
  const started = performance.now();
  const preparation = await target.prepare();
  const cases = target.cases(settings.seed, settings.runs);
  const reuse = settings.reuse === true && target.endpoint !== undefined;
  let done = 0;
  const judge = (c: Case, run: RealRun) => judgeRun(target, c, run, bounds);
  const fresh = (c: Case) => runAndJudge(target, c, bounds);
  const shared = reuse
    ? async (batch: readonly Case[], onDone?: () => void): Promise<Judged[]> => {
        const runs = await sharedRuns(target.kind, target.endpoint!, batch as unknown as readonly Plan[], parallel, bounds, onDone);
        return Promise.all(runs.map((r, k) => judge(batch[k]!, r)));
      }
    : undefined;
  const results = shared
    ? await shared(cases, () => settings.onProgress?.(++done, cases.length, 'run'))
    : await pool(cases, parallel, async (c, k) => {
        const r = await fresh(c);
        settings.onRun?.(k, c, r);
        settings.onProgress?.(++done, cases.length, 'run');
        return r;
      });
  if (shared) results.forEach((r, k) => settings.onRun?.(k, cases[k], r));
  const findings = await findingsByCause(target, cases, results, fresh, shared, settings);
  const wallMs = performance.now() - started;
  const opened = results.flatMap((r) => (r.startupMs === undefined ? [] : [r.startupMs]));
  const startups = [...(preparation.startupMs === undefined ? [] : [preparation.startupMs]), ...opened].sort((a, b) => a - b);
  return {
    clock: 'real',
    target: target.describe(),
    sees: target.sees,
    preparation,
    seed: settings.seed,
    runs: cases.length,
    parallel,
    bounds,
    findings,
    wallMs: Math.round(wallMs),
    runsPerSecond: Math.round((cases.length / (wallMs / 1000)) * 10) / 10,
    startupMs: Math.round(startups[Math.floor(startups.length / 2)] ?? 0),
    toolCounts: toolCounts(results.map((r) => r.trace), preparation.tools),
    ...(reuse && { reuse: { note: REUSE_NOTE, connections: opened.length, lateFrames: results.reduce((n, r) => n + r.lateFrames, 0) } }),
  };
}

/** A run of `c` judged by the oracle; a result that crossed its cancel against the counterfactual run (the case without cancels). */
async function judgeRun<Case>(target: RealTarget<Case>, c: Case, run: RealRun, bounds: RealBounds): Promise<Judged> {
  let judged = judgeReal(target, run.trace, c, bounds);
  if (judged.undecided.length > 0 && target.withoutCancels) {
    const counter = await target.run(target.withoutCancels(c), bounds);
    judged = judgeReal(target, run.trace, c, bounds, durationsOf(counter.trace));
  }
  return { findings: judged.findings, trace: judged.trace, startupMs: run.startupMs, lateFrames: run.lateFrames ?? 0 };
}

/** One run of `c` on a fresh process or session, judged. */
export async function runAndJudge<Case>(target: RealTarget<Case>, c: Case, bounds: RealBounds): Promise<Judged> {
  return judgeRun(target, c, await target.run(c, bounds), bounds);
}

/**
 * One plan on a fresh connection to a user's server at `endpoint`, judged from the wire: what
 * tests and scripts run to ask one question of a process or URL.
 */
export function runPlanOn(endpoint: Endpoint, plan: Plan, bounds: RealBounds): Promise<Judged> {
  return runAndJudge({ judging: USER_SERVER_JUDGING, run: (p: Plan) => runPlan(endpoint, p, { hangAfterMs: bounds.hangAfterMs, tailMs: 2 * bounds.inFlightMs }), withoutCancels } as unknown as RealTarget<Plan>, plan, bounds);
}

/** How long each call took (by label), from `call-start` to `call-settle`: the counterfactual's durations. */
function durationsOf(trace: readonly TraceEvent[]): Map<string, number> {
  const durations = new Map<string, number>();
  for (const e of trace) {
    if (e.kind !== 'call-settle') continue;
    const start = trace.find((s) => s.kind === 'call-start' && s.call === e.call);
    if (start) durations.set(e.call, e.t - start.t);
  }
  return durations;
}

/**
 * Every invariant's runs split by cause: runs a known cause of the baseline covers are counted
 * under it; of the rest, the first run's case is shrunk, the runs its minimal shape covers (on
 * the same variant) are its cause's, and the first run left is shrunk next, up to `CAUSES_MAX` (or
 * the target's own `causesPerInvariant`).
 */
async function findingsByCause<Case>(
  target: RealTarget<Case>,
  cases: readonly Case[],
  results: readonly Judged[],
  fresh: (c: Case) => Promise<Judged>,
  shared: ((batch: readonly Case[]) => Promise<Judged[]>) | undefined,
  settings: RealCampaignSettings,
): Promise<RealFinding<Case>[]> {
  // Each run's cause as the run showed it (a URL's transport mode is told by its answers).
  const causes = cases.map((c, k) => target.causeOf(c, results[k]!.trace));
  /** Each invariant's runs, by whose the finding is: the SDK's way or the script's own is never the same cause as the target's. */
  const byInvariant = new Map<string, { k: number; finding: CaseFinding }[]>();
  results.forEach((r, k) => {
    const seen = new Set<string>();
    for (const f of r.findings) {
      const key = `${f.invariant}|${f.owner}`;
      if (seen.has(key)) continue;
      seen.add(key);
      byInvariant.set(key, [...(byInvariant.get(key) ?? []), { k, finding: f }]);
    }
  });
  const knownOf = (id: InvariantId, k: number) =>
    settings.known?.find((c) => c.invariant === id && c.variant === causes[k]!.variant && covers(causes[k]!.shape, shapeOfKey(c.shape)));
  const out: RealFinding<Case>[] = [];
  let shrunk = 0;
  const total = [...byInvariant.values()].length;
  for (const entries of byInvariant.values()) {
    const { invariant: id, owner } = entries[0]!.finding;
    const shows = (r: Judged) => r.findings.some((f) => f.invariant === id && f.owner === owner);
    const knownRuns = new Map<KnownRealCause, typeof entries>();
    let pending = entries.filter((e) => {
      const known = knownOf(id, e.k);
      if (known) knownRuns.set(known, [...(knownRuns.get(known) ?? []), e]);
      return known === undefined;
    });
    for (const [known, runs] of knownRuns) {
      const first = runs[0]!;
      out.push(finding(target, first.finding, { variant: known.variant, shape: known.shape }, true, first.k, runs.length, cases[first.k]!, 0, { hits: 0, runs: 0 }, undefined, results[first.k]!.trace));
    }
    const causesMax = target.causesPerInvariant ?? CAUSES_MAX;
    for (let n = 0; pending.length > 0 && n < causesMax; n++) {
      const first = pending[0]!;
      // What is listed apart (the server SDK's way, the script's own) is rated, not shrunk: real time is dear.
      const { minimal, shrinks, witness } = settings.shrink && owner === 'target' ? await shrinkCase(cases[first.k]!, (c: Case) => target.shrinks(c), shows, results[first.k]!, fresh, settings, shared !== undefined) : { minimal: cases[first.k]!, shrinks: 0, witness: results[first.k]! };
      const cause = target.causeOf(minimal, witness.trace);
      const mine = n === causesMax - 1 ? pending : pending.filter((e) => e === first || (causes[e.k]!.variant === cause.variant && covers(causes[e.k]!.shape, cause.shape)));
      pending = pending.filter((e) => !mine.includes(e));
      const again = await pool(Array.from({ length: settings.rateRuns }), settings.parallel, () => fresh(minimal));
      settings.onProgress?.(shrunk, total, 'rate');
      const hits = again.filter(shows).length;
      const sharedHits = shared ? (await shared(Array.from({ length: settings.rateRuns }, () => minimal))).filter(shows).length : undefined;
      const shown = witness.findings.find((f) => f.invariant === id && f.owner === owner) ?? first.finding;
      out.push(finding(target, shown, { variant: cause.variant, shape: shapeKey(cause.shape) }, false, first.k, mine.length, minimal, shrinks, { hits, runs: settings.rateRuns }, sharedHits, witness.trace));
    }
    settings.onProgress?.(++shrunk, total, 'shrink');
  }
  return out;
}

/** One finding of the report, its rate in words. */
function finding<Case>(
  target: RealTarget<Case>,
  shown: CaseFinding,
  cause: RealFinding['cause'],
  known: boolean,
  firstCase: number,
  runs: number,
  minimal: Case,
  shrinks: number,
  rate: Rate,
  sharedHits: number | undefined,
  trace: readonly TraceEvent[],
): RealFinding<Case> {
  const onFresh = determinismOf(rate.hits, rate.runs);
  const call = shown.subjects?.call ?? (shown.request !== undefined && !shown.request.includes(':') ? shown.request : undefined);
  const tool = toolOfCall(trace, call);
  return {
    invariant: shown.invariant,
    level: shown.level,
    severity: shown.severity,
    message: shown.message,
    ...(call !== undefined && tool !== undefined && { call, tool }),
    ...whoseOf(shown),
    cause,
    known,
    firstCase,
    runs,
    minimal,
    steps: target.describeCase(minimal),
    shrinks,
    rate,
    determinism: known
      ? 'known cause (the baseline\'s): not shrunk or re-run'
      : sharedHits === undefined
        ? onFresh
        : `${determinismOf(sharedHits, rate.runs)} with --reuse; ${rate.hits}/${rate.runs} on a fresh process${rate.hits === 0 && sharedHits > 0 ? ': needs state an earlier case left' : ''}`,
    confirmed: known || rate.hits + (sharedHits ?? 0) > 0,
    trace,
    ...(sharedHits !== undefined && { reuse: { note: REUSE_NOTE, rate: { hits: sharedHits, runs: rate.runs } } }),
  };
}

/**
 * Shrinks `c` while a run of it `shows` the finding: `smaller` cases, simplest first, a candidate
 * kept when it fails in any of `shrinkTries` runs, within `SHRINK_CANDIDATES_MAX` candidates and
 * the real-time budget. With `--reuse` a finding may need what earlier cases left on a shared
 * connection: only one that fails on a fresh process is shrunk.
 */
export async function shrinkCase<Case, R>(
  c: Case,
  smaller: (c: Case) => Iterable<Case>,
  shows: (r: R) => boolean,
  first: R,
  fresh: (c: Case) => Promise<R>,
  settings: Pick<RealCampaignSettings, 'shrinkTries' | 'shrinkMsMax'>,
  reused: boolean,
): Promise<{ minimal: Case; shrinks: number; witness: R }> {
  const tries = settings.shrinkTries ?? DEFAULT_SHRINK_TRIES;
  const fails = async (candidate: Case): Promise<R | undefined> => {
    for (let t = 0; t < tries; t++) {
      const r = await fresh(candidate);
      if (shows(r)) return r;
    }
    return undefined;
  };
  let minimal = c;
  let witness = first;
  let shrinks = 0;
  if (reused) {
    const again = await fails(c);
    if (!again) return { minimal, shrinks, witness };
    witness = again;
  }
  let budget = SHRINK_CANDIDATES_MAX;
  const until = performance.now() + (settings.shrinkMsMax ?? DEFAULT_PROCESS_SHRINK_MS_MAX);
  for (let improved = true; improved && budget > 0 && performance.now() < until; ) {
    improved = false;
    for (const candidate of smaller(minimal)) {
      if (budget-- <= 0 || performance.now() > until) break;
      const r = await fails(candidate);
      if (r) {
        minimal = candidate;
        witness = r;
        shrinks++;
        improved = true;
        break;
      }
    }
  }
  return { minimal, shrinks, witness };
}
