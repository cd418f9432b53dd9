import { variantOf } from '../campaign/cause.ts';
import { scriptExplains } from '../campaign/conduct.ts';
import { isKnown, NO_KNOWN_CAUSES, type KnownCauses } from '../campaign/knownCauses.ts';
import { failingSeverities } from '../campaign/verdict.ts';
import { runChecked, type CheckedRun, type CheckedRunOptions } from '../check/index.ts';
import type { Finding } from '../model/finding.ts';
import type { InvariantId, Level } from '../model/invariants.ts';
import { DEFAULT_EXPLORE_DEPTH_MAX, DEFAULT_EXPLORE_REDUCE, DEFAULT_EXPLORE_RUNS_MAX, DEFAULT_FAIL_ON } from '../options/defaults.ts';
import type { FailOn } from '../options/index.ts';
import { defaultSdk } from '../sdk/load.ts';
import type { SdkAdapter } from '../sdk/SdkAdapter.ts';
import { DEFAULT_SEED, type Scenario, type TraceEvent } from '../sim/index.ts';
import { endStateHash } from './endStateHash.ts';
import { enumerateSchedules, type EnumerationStats } from './enumerateSchedules.ts';

export interface ExploreOptions {
  /** Dynamic partial-order reduction; `false` enumerates every schedule. @default DEFAULT_EXPLORE_REDUCE */
  readonly reduce?: boolean;
  /** @default DEFAULT_EXPLORE_RUNS_MAX */
  readonly runsMax?: number;
  /** Depth bound in scheduler steps per run. @default DEFAULT_EXPLORE_DEPTH_MAX */
  readonly depthMax?: number;
  /** Timers later than this never fire (a run reaching one ends, counted in `timeCut`). @default DEFAULT_MAX_VIRTUAL_MS */
  readonly virtualMsMax?: number;
  /** Seed of chance inside each run. @default DEFAULT_SEED */
  readonly seed?: number;
  /** @default the installed SDK */
  readonly sdk?: SdkAdapter;
  /** The baseline's known causes: a finding they explain does not fail. @default none */
  readonly known?: KnownCauses;
  /** @default DEFAULT_FAIL_ON */
  readonly failOn?: FailOn;
}

/** One cause met while exploring: an invariant broken the same way, with its least-deviating schedule. */
export interface ExploreFinding {
  /** `invariant[clause] variant request (after root)`: what tells two causes apart. */
  readonly cause: string;
  readonly invariant: InvariantId;
  readonly level: Level;
  readonly severity: Finding['severity'];
  readonly message: string;
  /**
   * A schedule (a tape) that shows it: the explored one with the fewest choices off the natural
   * order, then 1-minimal (no single remaining deviation can go back to the natural choice).
   */
  readonly tape: readonly number[];
  /** The run of `tape` in this exploration's scope: the sequence diagram of the Markdown report. */
  readonly trace: readonly TraceEvent[];
  /** Choices of `tape` off the natural order (non-zero). */
  readonly deviations: number;
  /** How many explored schedules showed it. */
  readonly schedules: number;
  /** Explored schedules before the first that showed it, and the time it took to get there. */
  readonly firstAt: { readonly schedule: number; readonly ms: number };
  /** The baseline explains it (same invariant, variant, and features of its known minimal case). */
  readonly known: boolean;
  /** It fails the run: at `failOn` or above, not known, not a scripted handler's own conduct. */
  readonly failing: boolean;
}

/** What one enumeration found, and how far it got. */
export interface ExploreResult {
  readonly reduced: boolean;
  readonly stats: EnumerationStats;
  /** Distinct trace hashes among the explored schedules. */
  readonly traces: number;
  /** Distinct end states (`endStateHash`), sorted: what the soundness test compares. */
  readonly endStates: readonly string[];
  readonly findings: readonly ExploreFinding[];
  /** Runs cut by the depth bound, and by the virtual time budget: their continuations were not explored. */
  readonly depthCut: number;
  readonly timeCut: number;
  /** Every schedule within the scope ran: nothing left by `runsMax`, no run cut by the depth bound. */
  readonly complete: boolean;
  readonly failed: boolean;
  readonly depthMax: number;
  readonly runsMax: number;
  readonly seed: number;
  readonly ms: number;
  readonly sdk: { readonly name: string; readonly version: string };
}

/** The cause key of a finding of `scenario`: its invariant (and clause), variant, request, and root. */
export function causeOf(f: Finding, scenario: Scenario): string {
  return [
    `${f.invariant}${f.clause ? `[${f.clause}]` : ''}`,
    variantOf(scenario),
    ...(f.request !== undefined ? [f.request] : []),
    ...(f.rootCause ? [`after ${f.rootCause.invariant}`] : []),
  ].join(' ');
}

const deviationsOf = (tape: readonly number[]) => tape.filter((c) => c !== 0).length;

/** Trims the natural choices off a tape's end: past its end the tape takes them anyway. */
const trimmed = (tape: readonly number[]) => {
  let n = tape.length;
  while (n > 0 && tape[n - 1] === 0) n--;
  return tape.slice(0, n);
};

/**
 * Takes deviations off `tape` one at a time (latest first), keeping each removal after which the
 * run still shows `cause`: the schedule it returns is 1-minimal in deviations (putting any one
 * remaining choice back to the natural order loses the cause). A few runs per finding.
 */
async function fewerDeviations(scenario: Scenario, cause: string, shown: Shown, options: CheckedRunOptions): Promise<Shown> {
  let current = shown;
  for (let k = current.tape.length - 1; k >= 0; k--) {
    if (current.tape[k] === 0) continue;
    const candidate = trimmed(current.tape.map((c, i) => (i === k ? 0 : c)));
    const run = await runChecked(scenario, { ...options, tape: candidate });
    const finding = run.findings.find((f) => causeOf(f, scenario) === cause);
    if (finding) current = { tape: candidate, trace: run.result.trace, finding };
  }
  return current;
}

/** A schedule that shows a cause: its tape, the run's trace, and the finding as that run worded it. */
interface Shown {
  readonly tape: number[];
  readonly trace: readonly TraceEvent[];
  readonly finding: Finding;
}

/**
 * Runs every schedule of `scenario` (or one of each class of equivalent schedules, with the
 * reduction) against the real SDK, judges each with the oracle, and gathers the causes found,
 * the distinct traces and end states, and what a bound left out.
 */
export async function explore(scenario: Scenario, options: ExploreOptions = {}): Promise<ExploreResult> {
  const reduce = options.reduce ?? DEFAULT_EXPLORE_REDUCE;
  const runsMax = options.runsMax ?? DEFAULT_EXPLORE_RUNS_MAX;
  const depthMax = options.depthMax ?? DEFAULT_EXPLORE_DEPTH_MAX;
  const seed = options.seed ?? DEFAULT_SEED;
  const known = options.known ?? NO_KNOWN_CAUSES;
  const failOn = options.failOn ?? DEFAULT_FAIL_ON;
  const sdk = options.sdk ?? (await defaultSdk());
  const started = performance.now();
  const traces = new Set<string>();
  const endStates = new Set<string>();
  const found = new Map<string, { shown: Shown; schedules: number; firstAt: { schedule: number; ms: number } }>();
  let schedule = 0;
  let depthCut = 0;
  let timeCut = 0;
  const visit = (run: CheckedRun) => {
    schedule++;
    traces.add(run.result.hash);
    endStates.add(endStateHash(run.endState));
    if (run.result.outcome.kind === 'step-budget') depthCut++;
    if (run.result.outcome.kind === 'time-budget') timeCut++;
    const tape = trimmed(run.result.taken);
    for (const f of run.findings) {
      const cause = causeOf(f, scenario);
      const seen = found.get(cause);
      const shown = { tape, trace: run.result.trace, finding: f };
      if (!seen) {
        found.set(cause, { shown, schedules: 1, firstAt: { schedule, ms: performance.now() - started } });
        continue;
      }
      seen.schedules++;
      const best = seen.shown.tape;
      if (deviationsOf(tape) < deviationsOf(best) || (deviationsOf(tape) === deviationsOf(best) && tape.length < best.length)) seen.shown = shown;
    }
  };
  const runOptions = { seed, sdk, maxSteps: depthMax, ...(options.virtualMsMax !== undefined && { maxVirtualMs: options.virtualMsMax }) };
  const stats = await enumerateSchedules(
    async (choose) => {
      const run = await runChecked(scenario, { choose, ...runOptions });
      return { value: run, quiescent: run.result.outcome.kind !== 'step-budget' };
    },
    visit,
    { reduce, runsMax },
  );
  for (const [cause, s] of found) s.shown = await fewerDeviations(scenario, cause, s.shown, runOptions);
  const failing = failingSeverities[failOn];
  const findings = [...found.entries()]
    .map(([cause, { shown, schedules, firstAt }]): ExploreFinding => {
      const { finding, tape, trace } = shown;
      const isKnownCause = isKnown(known, { scenario, tape, seed }, finding);
      return {
        cause,
        invariant: finding.invariant,
        level: finding.level,
        severity: finding.severity,
        message: finding.message,
        tape,
        trace,
        deviations: deviationsOf(tape),
        schedules,
        firstAt,
        known: isKnownCause,
        failing: !isKnownCause && failing.has(finding.severity) && scriptExplains(finding) === undefined,
      };
    })
    .sort((a, b) => (a.cause < b.cause ? -1 : a.cause > b.cause ? 1 : 0));
  return {
    reduced: reduce,
    stats,
    traces: traces.size,
    endStates: [...endStates].sort(),
    findings,
    depthCut,
    timeCut,
    complete: stats.unexplored === 0 && depthCut === 0,
    failed: findings.some((f) => f.failing),
    depthMax,
    runsMax,
    seed,
    ms: performance.now() - started,
    sdk: { name: sdk.name, version: sdk.version },
  };
}
