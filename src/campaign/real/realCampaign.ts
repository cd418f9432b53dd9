import { performance } from 'node:perf_hooks';
import type { Finding } from '../../model/finding.ts';
import { whoseOf, type CaseFinding, type Whose } from '../caseVerdict.ts';
import type { InvariantId } from '../../model/invariants.ts';
import { WIRE_BOUND_INVARIANTS } from '../../model/rules/wireBounds.ts';
import { DEFAULT_PROCESS_SHRINK_MS_MAX, DEFAULT_SHRINK_TRIES, RATE_DECIDED_RUNS } from '../../options/defaults.ts';
import { BadTargetError, type Endpoint } from '../../real/connection.ts';
import { pingRoundTrips } from '../../real/openConnection.ts';
import { withoutCancels, type Plan } from '../../real/plan.ts';
import { fixedPace, runPlan } from '../../real/runPlan.ts';
import { REUSE_NOTE } from '../../real/sharedConnection.ts';
import { USER_SERVER_JUDGING } from '../../targets/endpoint/planTarget.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import type { KnownRealCause, RealBounds, RealPreparation, RealRun, RealTarget, TargetDescription, Visibility } from '../../targets/Target.ts';
import { covers, shapeKey, shapeOfKey } from '../../workload/shape.ts';
import { efficiencyOf, forEfficiency, type Efficiency } from './efficiency.ts';
import { judgeReal } from './judgeReal.ts';
import { PlanRunner, type SharingStats } from './lanes.ts';
import { Pace } from './pace.ts';
import { limiter, pool } from './pool.ts';
import { rateWords, type Rate } from './rate.ts';
import { ROUND_TRIP_PINGS, Waits, type WaitsSummary } from './waits.ts';

export type { KnownRealCause };
import { toolCounts, toolOfCall, type ToolCount } from './toolCounts.ts';
export { REUSE_NOTE };

/** How the real clock's campaign runs: every field resolved (src/options/realCampaignOptions.ts fills the defaults). */
export interface RealCampaignSettings {
  readonly seed: number;
  readonly runs: number;
  /** Shared connections (or fresh processes) at once. */
  readonly parallel: number;
  readonly bounds: RealBounds;
  /** Re-runs of each minimal case for its reproduction rate (fewer when the rate is decided sooner). */
  readonly rateRuns: number;
  readonly shrink: boolean;
  /** A candidate counts as failing when it fails in any of this many runs. @default DEFAULT_SHRINK_TRIES */
  readonly shrinkTries?: number;
  /** Real-time budget of shrinking one cause, in ms. @default DEFAULT_PROCESS_SHRINK_MS_MAX */
  readonly shrinkMsMax?: number;
  /**
   * Many cases at once on shared connections, every finding confirmed on a fresh process before it
   * fails the run (a target whose cases are plans; `false`: one process or session per case).
   * @default false
   */
  readonly reuse?: boolean;
  /** How long tools are stated to take (`--tool-duration`), ms: each must be a tool the target lists. */
  readonly toolMs?: Readonly<Record<string, number>>;
  /** The causes a baseline knows for this target: a finding of one of them is known, not shrunk. */
  readonly known?: readonly KnownRealCause[];
  /**
   * Progress, for a display: `run` (runs done of the campaign's; `found`: the invariants broken so
   * far, before any is confirmed, where a run is judged as it ends: fresh runs), then `shrink` and
   * `rate` (the invariants worked out of those found, as each starts shrinking and its rate re-runs).
   */
  readonly onProgress?: (done: number, total: number, phase: 'run' | 'shrink' | 'rate', found?: number) => void;
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
  /** Re-runs of the minimal case on a fresh process or session each (fewer than `--rate-runs` when it was decided sooner). */
  readonly rate: Rate;
  /** `reproduced 10/10`, `reproduced 5/5, stopped early`, `3/10: timing-dependent`. */
  readonly determinism: string;
  /**
   * The minimal case failed again in at least one re-run on a fresh process (or session). An
   * unconfirmed finding (seen in the campaign, 0 of N again) is listed but never fails it: a
   * stalled machine looks the same once; nor does one that only shared connections show.
   */
  readonly confirmed: boolean;
  /** The trace of one failing run of the minimal case. */
  readonly trace: readonly TraceEvent[];
  /** Shared connections: the minimal case's rate on them too (`rate` is on fresh processes), and what that says. */
  readonly reuse?: { readonly note: typeof REUSE_NOTE; readonly rate: Rate; readonly onlyShared: boolean };
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
  /** The bounds the runs were judged with: the in-flight bound as sized to the server, what each tool showed it takes. */
  readonly bounds: RealBounds;
  readonly findings: readonly RealFinding<Case>[];
  readonly wallMs: number;
  readonly runsPerSecond: number;
  /** Median real ms from spawn (or session open) to the end of the handshake. */
  readonly startupMs: number;
  /** How fast, against the limit: runs/s, start-up, and the share of wall time the server spent working on calls. */
  readonly efficiency: Efficiency;
  /** The waits, sized to the server: the in-flight bound from its round trips, quiet windows, what each tool showed it takes. */
  readonly waits: WaitsSummary;
  /** Shared connections: how many processes (or sessions) the cases shared, how many ran at once, and that state may carry over. */
  readonly reuse?: { readonly note: typeof REUSE_NOTE } & SharingStats;
  /** Per tool, over the campaign's runs: calls, cancels, calls with a progress token, closes in flight. */
  readonly toolCounts: readonly ToolCount[];
}

/** A run of a case, judged. */
export interface Judged {
  readonly findings: readonly CaseFinding[];
  /** The run as the model saw it (the observed trace, with the server's side added). */
  readonly trace: readonly TraceEvent[];
  /** The run as recorded. */
  readonly raw: readonly TraceEvent[];
  readonly startupMs: number | undefined;
  readonly lateFrames: number;
}

/** Most candidates tried while shrinking one cause (each up to `shrinkTries` runs): real time is dear. */
const SHRINK_CANDIDATES_MAX = 40;

/** Most causes of one invariant shrunk apart; runs of the others are counted under the last one (`RealTarget.causesPerInvariant`). */
const CAUSES_MAX = 3;

/**
 * Where a campaign's cases run, and how they are judged: many at once (on shared connections, or
 * `parallel` fresh ones), or one on a fresh process (or session) of its own. Every run is judged
 * by the oracle with the bounds as the campaign knows them then (what each tool showed it takes);
 * a result that crossed its cancel is decided by the counterfactual (the case without cancels),
 * run the same way; every run is kept for the efficiency line.
 */
interface Runs<Case> {
  /** Many cases at once; `judgeClose`: the shared connections close after them and the last case on each shows the close. */
  many(cases: readonly Case[], options?: { readonly judgeClose?: boolean; readonly onDone?: (run?: RealRun, c?: Case) => void; readonly fresh?: boolean; readonly atOnce?: number }): Promise<Judged[]>;
  /** Whether `many` shares connections (its findings must be confirmed on fresh ones). */
  readonly shared: boolean;
  /** Starts `n` fresh connections ahead of the next fresh runs. */
  ahead(n: number): void;
}

/**
 * The one campaign on the real clock: case `k` of the seed, for each `k`, many at once on shared
 * connections (each case on its own ids and tokens, judged on its own slice; a case that closes
 * the connection on a fresh one) or one process (session) each with `--fresh`; each run judged
 * by the oracle (a result that crossed its cancel against the counterfactual run without
 * cancels); the findings of each invariant split by cause (a cause's first case shrunk greedily,
 * the runs its minimal shape covers counted under it, the first uncovered run shrunk next); each
 * minimal case re-run for its reproduction rate, on fresh processes (and on shared connections
 * too, side by side), stopping once the rate is decided. The target only names and runs cases.
 */
export async function realCampaign<Case>(target: RealTarget<Case>, settings: RealCampaignSettings): Promise<RealCampaignReport<Case>> {
  const started = performance.now();
  // A target refused mid-run (a stdio server's stdout line that is not JSON-RPC) stops the campaign at
  // once; before, the handshake words it (a program that never answers is not an MCP server at all).
  const refused = <T>(work: Promise<T>): Promise<T> => target.endpoint?.refusal?.race(work) ?? work;
  const planRuns = target.endpoint !== undefined;
  const shared = settings.reuse === true && planRuns;
  const pace = new Pace(settings.toolMs, settings.bounds.hangAfterMs);
  let runner: PlanRunner | undefined;
  let first: ReturnType<NonNullable<RealTarget<Case>['takeOpen']>>;
  const all: RealRun[] = [];
  try {
    // Inside the `try`: a target that fails its preparation (no handshake) still releases what it started (a --start server).
    const preparation = await target.prepare();
    first = target.takeOpen?.();
    for (const tool of Object.keys(settings.toolMs ?? {})) {
      if (!preparation.tools.includes(tool)) throw new BadTargetError('bad-option', `mcp-sim: --tool-duration names ${JSON.stringify(tool)}, which ${target.describe().label} does not list as a tool it calls (${preparation.tools.join(', ')}).`);
    }
    const trips = first ? await pingRoundTrips(first, ROUND_TRIP_PINGS, 10 * settings.bounds.inFlightMs) : [];
    const phases = { prepareMs: performance.now() - started, runsMs: 0, findingsMs: 0 };
    const waits = new Waits(settings.bounds, pace, trips);
    if (planRuns) runner = new PlanRunner(target.endpoint!, settings.parallel, waits, shared ? first : undefined);
    if (first && !shared) await first.conn.close();
    // The other shared connections start while the first measures the round trips and takes the first cases.
    if (runner && shared) runner.lanePool.startAhead(settings.parallel - 1);
    const cases = target.cases(settings.seed, settings.runs);
    const runs = runsOf(target, settings, waits, runner, shared, all);
    let done = 0;
    // What the runs broke so far, for the display: a fresh run is judged as it ends (shared ones once all are cut).
    const broken = new Set<string>();
    const onDone = (run?: RealRun, c?: Case) => {
      if (run && settings.onProgress) {
        try {
          for (const f of judgeReal(target, run.trace, c as Case, waits.bounds()).findings) broken.add(f.invariant);
        } catch {
          // The display's count only: the run is judged once all are done, where an error tells.
        }
      }
      settings.onProgress?.(++done, cases.length, 'run', run ? broken.size : undefined);
    };
    const ran = await refused(runs.many(cases, { judgeClose: true, onDone }));
    ran.forEach((r, k) => settings.onRun?.(k, cases[k], r));
    phases.runsMs = performance.now() - started - phases.prepareMs;
    // Counted before the runs are kept lighter (`keptOf`).
    const counts = preparation.tools.length === 0 ? [] : toolCounts(ran.map((r) => r.raw), preparation.tools);
    const { results, causes } = keptOf(target, cases, ran);
    const findings = await refused(findingsByCause(target, cases, results, causes, runs, settings));
    phases.findingsMs = performance.now() - started - phases.prepareMs - phases.runsMs;
    const wallMs = performance.now() - started;
    const startups = [...(preparation.startupMs === undefined ? [] : [{ ms: preparation.startupMs, started: 'process' as const }]), ...(runner?.startups() ?? []), ...all.flatMap((r) => (r.startupMs === undefined || runner ? [] : [{ ms: r.startupMs, started: 'process' as const }]))];
    const efficiency = efficiencyOf(all, { startups, ...(runner?.openings() ?? { retried: 0 }) }, cases.length, wallMs, started, phases);
    const sharing = runner?.stats();
    return {
      clock: 'real',
      target: target.describe(),
      sees: target.sees,
      preparation,
      seed: settings.seed,
      runs: cases.length,
      parallel: settings.parallel,
      bounds: waits.bounds(),
      findings,
      wallMs: Math.round(wallMs),
      runsPerSecond: efficiency.runsPerSecond,
      startupMs: efficiency.startup.medianMs,
      efficiency,
      waits: waits.summary(),
      // A target whose cases call no tool of its own (an SDK's client calls the scripted server's) counts none.
      toolCounts: counts,
      ...(shared && sharing && { reuse: { note: REUSE_NOTE, ...sharing } }),
    };
  } finally {
    await runner?.close();
    await first?.conn.close().catch(() => undefined);
    await target.endpoint?.release?.();
  }
}

/** How the campaign's cases run: on shared connections or fresh ones (`PlanRunner`), or by the target itself (one process each). */
function runsOf<Case>(target: RealTarget<Case>, settings: RealCampaignSettings, waits: Waits, runner: PlanRunner | undefined, shared: boolean, all: RealRun[]): Runs<Case> {
  // Fresh processes at once, across every finding worked out side by side: `parallel`, as a campaign of fresh runs has.
  const slots = limiter(settings.parallel);
  const fresh = (c: Case): Promise<RealRun> =>
    slots(async () => {
      const run = runner ? await runner.fresh(c as unknown as Plan) : await target.run(c, waits.bounds());
      all.push(forEfficiency(run));
      return run;
    });
  /** Runs `cases` as `how` says, judged; the calls only a counterfactual decides get it, run the same way. */
  const judged = async (cases: readonly Case[], run: (cs: readonly Case[], counterfactual?: boolean) => Promise<RealRun[]>): Promise<Judged[]> => {
    const raw = await run(cases);
    const first = raw.map((r, k) => ({ r, verdict: judgeReal(target, r.trace, cases[k], waits.bounds()) }));
    const undecided = first.flatMap((x, k) => (x.verdict.undecided.length > 0 && target.withoutCancels ? [k] : []));
    const counters = undecided.length === 0 ? [] : await run(undecided.map((k) => target.withoutCancels!(cases[k]!)), true);
    return first.map(({ r, verdict }, k) => {
      const u = undecided.indexOf(k);
      const final = u < 0 ? verdict : judgeReal(target, r.trace, cases[k], waits.bounds(), durationsOf(counters[u]!.trace));
      return { findings: final.findings, trace: final.trace, raw: r.trace, startupMs: r.startupMs, lateFrames: r.lateFrames ?? 0 };
    });
  };
  const freshMany = (cs: readonly Case[], onDone?: (run: RealRun, c: Case) => void, atOnce = settings.parallel) =>
    pool(cs, atOnce, async (c) => {
      const r = await fresh(c);
      onDone?.(r, c);
      return r;
    });
  return {
    shared,
    ahead: (n) => runner?.freshPool.startAhead(n),
    many: (cases, options = {}) => {
      if (!shared || options.fresh) {
        // A campaign of fresh runs keeps `parallel` started ahead; a batch of re-runs asks for what it needs (`ahead`).
        if (runner && !shared) runner.freshPool.warm(Math.min(settings.parallel, cases.length));
        return judged(cases, (cs) => freshMany(cs, cs === cases ? options.onDone : undefined, options.atOnce));
      }
      return judged(cases, async (cs, counterfactual) => {
        // A case that closes the connection needs one of its own; the rest share.
        const own = cs.flatMap((c, k) => ((c as unknown as Plan).close ? [k] : []));
        const rest = cs.flatMap((c, k) => ((c as unknown as Plan).close ? [] : [k]));
        const onDone = cs === cases ? options.onDone : undefined;
        const [a, b] = await Promise.all([runner!.shared(rest.map((k) => cs[k]! as unknown as Plan), { judgeClose: options.judgeClose === true && !counterfactual, ...(onDone && { onDone }) }), freshMany(own.map((k) => cs[k]!), onDone)]);
        all.push(...a.map(forEfficiency));
        const out: RealRun[] = new Array(cs.length);
        rest.forEach((k, j) => (out[k] = a[j]!));
        own.forEach((k, j) => (out[k] = b[j]!));
        return out;
      });
    },
  };
}

/** One run of `c` on a fresh process or session, judged (a replay; a test bed's release table). */
export async function runAndJudge<Case>(target: RealTarget<Case>, c: Case, bounds: RealBounds): Promise<Judged> {
  const run = await target.run(c, bounds);
  let judged = judgeReal(target, run.trace, c, bounds);
  if (judged.undecided.length > 0 && target.withoutCancels) {
    const counter = await target.run(target.withoutCancels(c), bounds);
    judged = judgeReal(target, run.trace, c, bounds, durationsOf(counter.trace));
  }
  return { findings: judged.findings, trace: judged.trace, raw: run.trace, startupMs: run.startupMs, lateFrames: run.lateFrames ?? 0 };
}

/**
 * One plan on a fresh connection to a user's server at `endpoint`, judged from the wire: what
 * tests and scripts run to ask one question of a process or URL.
 */
export function runPlanOn(endpoint: Endpoint, plan: Plan, bounds: RealBounds): Promise<Judged> {
  const pace = bounds.toolSilenceMs && fixedPace(bounds.toolSilenceMs);
  return runAndJudge({ judging: USER_SERVER_JUDGING, run: (p: Plan) => runPlan(endpoint, p, { hangAfterMs: bounds.hangAfterMs, tailMs: 2 * bounds.inFlightMs, ...(pace && { pace }) }), withoutCancels } as unknown as RealTarget<Plan>, plan, bounds);
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

/** A run's cause as the run showed it (a URL's transport mode is told by its answers). */
type RunCause = ReturnType<RealTarget<unknown>['causeOf']>;

/**
 * What the campaign keeps of its runs while it works their findings out, and each run's cause.
 * Only the first run of each finding's invariant, owner and cause is ever shrunk, rated, cut at
 * its close or shown (`findingsByCause` takes the first run left of a cause; a cause covers all
 * its runs or none): those keep their traces whole. The others keep their findings only (the tool
 * counts are read before): a flooding server's runs each hold up to a thousand frames a call, and
 * a campaign has sixty of them.
 */
function keptOf<Case>(target: RealTarget<Case>, cases: readonly Case[], ran: readonly Judged[]): { results: Judged[]; causes: RunCause[] } {
  const causes = cases.map((c, k) => target.causeOf(c, ran[k]!.trace));
  const seen = new Set<string>();
  const results = ran.map((r, k) => {
    const keys = r.findings.map((f) => `${f.invariant}|${f.owner}|${causes[k]!.variant}|${shapeKey(causes[k]!.shape)}`);
    const first = keys.filter((key) => !seen.has(key));
    for (const key of first) seen.add(key);
    if (first.length > 0) return r;
    return { ...r, trace: [], raw: [] };
  });
  return { results, causes };
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
  causes: readonly RunCause[],
  runs: Runs<Case>,
  settings: RealCampaignSettings,
): Promise<RealFinding<Case>[]> {
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
  let shrunk = 0;
  const total = [...byInvariant.values()].length;
  // The re-runs of flooded findings go one cause at a time across invariants: each holds a flood's frames in memory.
  const oneFlood = limiter(1);
  // Each invariant's causes are worked out side by side with the others' (real time is mostly waiting).
  const perInvariant = await Promise.all(
    [...byInvariant.values()].map(async (entries) => {
      const out: RealFinding<Case>[] = [];
      const { invariant: id, owner } = entries[0]!.finding;
      const shows = (r: Judged) => r.findings.some((f) => f.invariant === id && f.owner === owner);
      // A wire bound's finding (a flood, a frame past the bound) costs the whole flood again on every
      // re-run: it is not shrunk, and its rate stops at what decides one (`WIRE_BOUND_INVARIANTS`);
      // so is any other finding whose run was flooded.
      const bound = WIRE_BOUND_INVARIANTS.has(id);
      const dearRating = { ...settings, rateRuns: Math.min(settings.rateRuns, RATE_DECIDED_RUNS) };
      const knownRuns = new Map<KnownRealCause, typeof entries>();
      let pending = entries.filter((e) => {
        const known = knownOf(id, e.k);
        if (known) knownRuns.set(known, [...(knownRuns.get(known) ?? []), e]);
        return known === undefined;
      });
      for (const [known, kr] of knownRuns) {
        const first = kr[0]!;
        out.push(finding(target, first.finding, { variant: known.variant, shape: known.shape }, true, first.k, kr.length, cases[first.k]!, 0, { hits: 0, runs: 0 }, undefined, results[first.k]!.trace));
      }
      // A flood is one cause, whatever the case around it.
      const causesMax = bound ? 1 : (target.causesPerInvariant ?? CAUSES_MAX);
      for (let n = 0; pending.length > 0 && n < causesMax; n++) {
        const first = pending[0]!;
        const witnessed = results[first.k]!;
        const flood = bound || witnessed.raw.some((e) => e.kind === 'frames-counted' || e.kind === 'frame-too-large');
        const rating = flood ? dearRating : settings;
        const workOut = <R>(work: () => Promise<R>) => (flood ? oneFlood(work) : work());
        // A finding only the connection's close shows (its stdin EOF, its DELETE) needs a connection of its own for every run.
        const own = runs.shared && !showsBeforeClose(target, witnessed, cases[first.k]!, id, owner, settings.bounds);
        const many = (cs: readonly Case[]) => runs.many(cs, { fresh: own });
        // What is listed apart (the server SDK's way, the script's own) is rated, not shrunk: real time is dear.
        // The fresh processes of its rate start while it shrinks.
        runs.ahead(Math.min(settings.rateRuns, Math.max(settings.parallel, RATE_DECIDED_RUNS)));
        settings.onProgress?.(shrunk, total, 'shrink');
        let { minimal, shrinks, witness } =
          settings.shrink && owner === 'target' && !flood ? await shrinkCase(cases[first.k]!, (c: Case) => target.shrinks(c), shows, witnessed, many, { ...settings, shrinkTries: settings.shrinkTries ?? target.shrinking?.tries, shrinkMsMax: settings.shrinkMsMax ?? target.shrinking?.msMax, shrinkCandidatesMax: target.shrinking?.candidates }, { triesAtOnce: runs.shared && !own, atOnce: settings.parallel }) : { minimal: cases[first.k]!, shrinks: 0, witness: witnessed };
        settings.onProgress?.(shrunk, total, 'rate');
        // Side by side: on shared connections and on fresh processes, at once.
        let { rate, sharedRate } = await workOut(async () => {
          const onShared = runs.shared && !own ? sharedRateOf(minimal, shows, runs, rating) : undefined;
          const sharedHits = onShared?.then((r) => r.hits);
          // Both awaited later, if at all: an error of the shared rate (a connection that did not start) is thrown at `await onShared`, never left unhandled (it ended the process).
          for (const p of [onShared, sharedHits]) p?.catch(() => undefined);
          return { rate: await freshRate(minimal, shows, runs, rating, sharedHits), sharedRate: await onShared };
        });
        let fallback: string | undefined;
        if (runs.shared && rate.hits === 0 && shrinks > 0) {
          // Shrunk on shared connections to a case no fresh process shows: the case as found, on fresh ones.
          const asFound = await freshRate(cases[first.k]!, shows, runs, rating);
          if (asFound.hits > 0) {
            fallback = `shrunk on shared connections to a case no fresh process showed; the case as found instead`;
            minimal = cases[first.k]!;
            shrinks = 0;
            witness = asFound.witness ?? witnessed;
            rate = asFound;
            sharedRate = await sharedRateOf(minimal, shows, runs, rating);
          }
        }
        const cause = target.causeOf(minimal, witness.trace);
        const mine = n === causesMax - 1 ? pending : pending.filter((e) => e === first || (causes[e.k]!.variant === cause.variant && covers(causes[e.k]!.shape, cause.shape)));
        pending = pending.filter((e) => !mine.includes(e));
        const shown = (rate.witness ?? witness).findings.find((f) => f.invariant === id && f.owner === owner) ?? first.finding;
        const f = finding(target, shown, { variant: cause.variant, shape: shapeKey(cause.shape) }, false, first.k, mine.length, minimal, shrinks, rate, sharedRate, (rate.witness ?? witness).trace);
        const why = [fallback, flood && settings.shrink && owner === 'target' ? `${bound ? "a wire bound's finding" : 'its run was flooded'}: not shrunk, its rate at most ${RATE_DECIDED_RUNS} runs (each re-run pays the flood again)` : undefined].filter((w) => w !== undefined);
        out.push(why.length > 0 ? { ...f, determinism: `${f.determinism} (${why.join('; ')})` } : f);
      }
      settings.onProgress?.(++shrunk, total, 'shrink');
      return out;
    }),
  );
  return perInvariant.flat();
}

/**
 * Whether the run shows the finding before the connection's close: the same trace cut at the
 * client's close (its stdin EOF, its session's DELETE and the probes before it) judged again. A
 * finding only the close shows (a server that does not exit on EOF, keeps a deleted session)
 * cannot be seen on a shared connection that stays open.
 */
function showsBeforeClose<Case>(target: RealTarget<Case>, r: Judged, c: Case, id: InvariantId, owner: string, bounds: RealBounds): boolean {
  const close = r.raw.findIndex((e) => (e.kind === 'eof' && e.to === 'server') || (e.kind === 'http-request' && e.at === 'client' && (e.method === 'DELETE' || e.raw === true)));
  const end = r.raw.at(-1);
  if (close < 0 || end?.kind !== 'end') return true;
  const cut = [...r.raw.slice(0, close), { ...end, t: r.raw[close]!.t }].map((e, i) => ({ ...e, i }));
  return judgeReal(target, cut, c, bounds).findings.some((f) => f.invariant === id && f.owner === owner);
}

/**
 * A minimal case's rate on fresh processes (sessions), `parallel` at once, stopping once it is
 * decided (`decided`); one run that showed it. `sharedHits`: its rate on shared connections, run
 * first, when it has one.
 */
async function freshRate<Case>(c: Case, shows: (r: Judged) => boolean, runs: Runs<Case>, settings: RealCampaignSettings, sharedHits?: Promise<number>): Promise<Rate & { readonly witness?: Judged; readonly stoppedEarly?: boolean }> {
  let hits = 0;
  let done = 0;
  let witness: Judged | undefined;
  while (done < settings.rateRuns) {
    // `parallel` at once, up to what decides a rate (`RATE_DECIDED_RUNS`), then the rest, never past `--rate-runs`; the next round's processes start while one runs.
    const upTo = done < RATE_DECIDED_RUNS ? Math.min(RATE_DECIDED_RUNS, settings.rateRuns) : settings.rateRuns;
    const batch = Math.min(settings.parallel, upTo - done);
    runs.ahead(batch + Math.min(settings.parallel, settings.rateRuns - done - batch));
    const again = await runs.many(Array.from({ length: batch }, () => c), { fresh: true, atOnce: batch });
    done += batch;
    for (const r of again) {
      if (!shows(r)) continue;
      hits++;
      witness ??= r;
    }
    if (done < settings.rateRuns && decided(hits, done, hits === 0 ? await sharedHits : undefined)) return { hits, runs: done, stoppedEarly: true, ...(witness && { witness }) };
  }
  return { hits, runs: done, ...(witness && { witness }) };
}

/** A minimal case's rate on shared connections: `--rate-runs` copies at once (state may carry over). */
async function sharedRateOf<Case>(c: Case, shows: (r: Judged) => boolean, runs: Runs<Case>, settings: RealCampaignSettings): Promise<Rate> {
  const again = await runs.many(Array.from({ length: settings.rateRuns }, () => c));
  return { hits: again.filter(shows).length, runs: again.length };
}

/**
 * A rate is decided once, in at least `RATE_DECIDED_RUNS` runs, it reproduced every time, or both
 * reproduced and did not; or never did, where the same case's `--rate-runs` on shared connections
 * never did either (a finding the campaign saw once). Otherwise it is run every time asked.
 */
export const decided = (hits: number, runs: number, sharedHits?: number): boolean => runs >= RATE_DECIDED_RUNS && (hits === runs || hits > 0 || sharedHits === 0);

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
  rate: Rate & { readonly stoppedEarly?: boolean },
  sharedRate: Rate | undefined,
  trace: readonly TraceEvent[],
): RealFinding<Case> {
  const onFresh = rateWords(rate);
  const onlyShared = sharedRate !== undefined && rate.hits === 0 && sharedRate.hits > 0;
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
    rate: { hits: rate.hits, runs: rate.runs },
    determinism: known
      ? "known cause (the baseline's): not shrunk or re-run"
      : sharedRate === undefined
        ? onFresh
        : `${onFresh} on a fresh process; ${sharedRate.hits}/${sharedRate.runs} on shared connections${onlyShared ? ': only shared connections show it (state an earlier case left, or cases at once), not failing' : ''}`,
    confirmed: known || rate.hits > 0,
    trace,
    ...(sharedRate !== undefined && { reuse: { note: REUSE_NOTE, rate: { hits: sharedRate.hits, runs: sharedRate.runs }, onlyShared } }),
  };
}

/**
 * Shrinks `c` while a run of it `shows` the finding: `smaller` cases, simplest first, a candidate
 * kept when it fails in any of `shrinkTries` runs, within `SHRINK_CANDIDATES_MAX` candidates and
 * the real-time budget. `atOnce` candidates run at once (`many`), the first of them in order
 * that fails is kept; on shared connections (`triesAtOnce`) every try of every candidate of a
 * round runs at once, on fresh processes one try of `atOnce` candidates at a time, the budget
 * checked between.
 */
export async function shrinkCase<Case, R>(
  c: Case,
  smaller: (c: Case) => Iterable<Case>,
  shows: (r: R) => boolean,
  first: R,
  many: (cases: readonly Case[]) => Promise<R[]>,
  settings: Pick<RealCampaignSettings, 'shrinkTries' | 'shrinkMsMax'> & { readonly shrinkCandidatesMax?: number },
  how: { readonly triesAtOnce: boolean; readonly atOnce: number } = { triesAtOnce: false, atOnce: 1 },
): Promise<{ minimal: Case; shrinks: number; witness: R }> {
  const tries = settings.shrinkTries ?? DEFAULT_SHRINK_TRIES;
  let minimal = c;
  let witness = first;
  let shrinks = 0;
  let budget = settings.shrinkCandidatesMax ?? SHRINK_CANDIDATES_MAX;
  const until = performance.now() + (settings.shrinkMsMax ?? DEFAULT_PROCESS_SHRINK_MS_MAX);
  /** The first of `candidates` that fails in one of `each` runs, and that run. */
  const firstFailing = async (candidates: readonly Case[], each: number): Promise<{ candidate: Case; run: R } | undefined> => {
    const results = await many(candidates.flatMap((x) => Array.from({ length: each }, () => x)));
    const k = results.findIndex(shows);
    return k < 0 ? undefined : { candidate: candidates[Math.floor(k / each)]!, run: results[k]! };
  };
  for (let improved = true; improved && budget > 0 && performance.now() < until; ) {
    improved = false;
    const candidates = [...smaller(minimal)].slice(0, budget);
    let found: { candidate: Case; run: R } | undefined;
    if (how.triesAtOnce) {
      found = await firstFailing(candidates, tries);
      budget -= candidates.length;
    } else {
      // One at a time: the budget pays for the candidates run, not for those after the one that failed.
      let tried = 0;
      for (let t = 0; t < tries && !found; t++) {
        for (let from = 0; from < candidates.length && !found && performance.now() < until; from += how.atOnce) {
          found = await firstFailing(candidates.slice(from, from + how.atOnce), 1);
          tried = Math.max(tried, Math.min(candidates.length, from + how.atOnce));
        }
      }
      budget -= tried;
    }
    if (found) {
      minimal = found.candidate;
      witness = found.run;
      shrinks++;
      improved = true;
    }
  }
  return { minimal, shrinks, witness };
}
