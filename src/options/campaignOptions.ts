import { availableParallelism } from 'node:os';
import type { ScenarioConstraints } from '../workload/scenarioArbitrary.ts';
import {
  AUTO_WORKER_RUNS_MIN,
  DEFAULT_CAMPAIGN_RUNS,
  DEFAULT_CAMPAIGN_SEED,
  DEFAULT_REPRO_DIR,
  DEFAULT_SELF_CHECK,
  DEFAULT_FAIL_ON,
  FAIL_ON_LEVELS,
  DEFAULT_SHRINK,
  DEFAULT_SHRINK_TIME_MS_MAX,
  ENV_RUNS,
  ENV_SEED,
  SEED_MAX,
  SEEDS_SWEEP_MAX,
  TIME_LIMIT_SECONDS_MAX,
  WORKERS_MAX,
  DEFAULT_STRICT_CAUSES,
} from './defaults.ts';
import { OptionError } from './OptionError.ts';
import { booleanValue, envWholeNumber, outputPaths, seedValue, wholeNumber, type Env } from './optionRules.ts';
import { resolveWorkload, type ResolvedWorkload } from './workloadOptions.ts';
import { resolveSpec, workloadUnderSpec } from './specOptions.ts';
import type { SpecRevision } from '../model/specRevision.ts';

/** A fuzz campaign (`mcp-sim check`, `runCampaign`); every field optional. */
export interface CampaignOptions {
  /**
   * Campaign seed: case `i` is drawn from `caseSeed(seed, i)`, so the same seed runs the same
   * campaign anywhere. Env `MCP_SIM_SEED` when unset. @default DEFAULT_CAMPAIGN_SEED (20_261_130)
   */
  readonly seed?: number;
  /** Generated cases to run. Env `MCP_SIM_RUNS` when unset. @default DEFAULT_CAMPAIGN_RUNS (300) */
  readonly runs?: number;
  /** Bounds of the generated scenarios. @default DEFAULT_WORKLOAD (both profiles, 6 actions, 4 steps, server requests, faults) */
  readonly workload?: ScenarioConstraints;
  /**
   * The spec revision whose rules judge the campaign: `2026-07-28` runs the `http-2026` profile
   * only, on the 2.x packages (`workloadUnderSpec`). @default DEFAULT_SPEC ('2025-11-25')
   */
  readonly spec?: SpecRevision;
  /** Shrink the first counterexample of each invariant found. @default DEFAULT_SHRINK (true) */
  readonly shrink?: boolean;
  /** Wall-clock budget for fast-check's shrinking of one counterexample. Needs `shrink`. @default DEFAULT_SHRINK_TIME_MS_MAX (20_000) */
  readonly shrinkTimeMsMax?: number;
  /** Run every case twice and compare trace hashes (`harness.deterministic`). @default DEFAULT_SELF_CHECK (false) */
  readonly selfCheck?: boolean;
  /**
   * The lowest severity beyond the baseline that fails the campaign (`must`, `should`, `advice`).
   * @default DEFAULT_FAIL_ON ('should')
   */
  readonly failOn?: FailOn;
  /**
   * Fail on a new cause of a known invariant found outside the baseline's own campaign too.
   * @default DEFAULT_STRICT_CAUSES (false)
   */
  readonly strictCauses?: boolean;
  /** Folder `check` writes counterexample replay files to. @default DEFAULT_REPRO_DIR ('.mcp-sim/repro') */
  readonly reproDir?: string;
  /** Also write the report as JSON to this file. @default none */
  readonly jsonFile?: string;
  /** Also write the report as JUnit XML to this file (one test case per invariant). @default none */
  readonly junitFile?: string;
  /** Also write a Markdown summary to this file (a CI job summary). @default none */
  readonly markdownFile?: string;
  /**
   * Worker threads that run the cases (1: in process). The report does not depend on it.
   * @default DEFAULT_WORKERS: one per core, at most one per AUTO_WORKER_RUNS_MIN (5,000) runs
   */
  readonly workers?: number;
  /**
   * Run only slice `index` of `count` (1-based) of the campaign: the contiguous case indices
   * `shardRange(index, count, runs)`, for a CI matrix whose reports `mcp-sim merge` joins.
   * Given as `"I/N"` or `{ index, count }`. @default none (the whole campaign)
   */
  readonly shard?: string | { readonly index: number; readonly count: number };
  /**
   * Stop starting runs after this many seconds of wall-clock time; the report covers the runs
   * done (cases 0 … k−1). Without `runs` (and `MCP_SIM_RUNS`), the campaign runs until the
   * time is up (at most CAMPAIGN_RUNS_LIMIT runs). @default DEFAULT_TIME_LIMIT_SECONDS (none)
   */
  readonly timeLimitSeconds?: number;
  /**
   * A sweep: one campaign per seed from `from` to `to` (inclusive), one combined report. Given
   * as `"A..B"` or `{ from, to }`; excludes `seed` and `shard`. @default none (one campaign)
   */
  readonly seeds?: string | { readonly from: number; readonly to: number };
}

/** Slice `index` (1-based) of `count` of a campaign. */
export interface ShardSpec {
  readonly index: number;
  readonly count: number;
}

/** A campaign with every default filled in and checked: what `runCampaign` runs and `check` prints. */
export interface ResolvedCampaignOptions {
  readonly seed: number;
  readonly runs: number;
  readonly workload: ResolvedWorkload;
  readonly spec: SpecRevision;
  readonly shrink: boolean;
  readonly shrinkTimeMsMax: number;
  readonly selfCheck: boolean;
  readonly failOn: FailOn;
  readonly strictCauses: boolean;
  readonly reproDir: string;
  readonly jsonFile: string | undefined;
  readonly junitFile: string | undefined;
  readonly markdownFile: string | undefined;
  /** Worker threads (1: in process). */
  readonly workers: number;
  /** Whether `workers` was chosen by default (one per core, capped by the runs), not asked for. */
  readonly workersAuto: boolean;
  readonly shard: ShardSpec | undefined;
  readonly timeLimitSeconds: number | undefined;
  /** The seeds of a sweep (`seeds`), in order; undefined for one campaign. */
  readonly seeds: readonly number[] | undefined;
}

/** Most runs of one campaign: beyond this, split it into seeds (and `MCP_SIM_RUNS` typos show). */
export const CAMPAIGN_RUNS_LIMIT = 10_000_000;

/**
 * Fills in every default of a campaign and rejects bad values and combinations. The only place
 * `MCP_SIM_SEED` and `MCP_SIM_RUNS` are read for a campaign; an explicit option wins over them.
 */
export function resolveCampaignOptions(input: CampaignOptions = {}, env: Env = process.env): ResolvedCampaignOptions {
  const timeLimitSeconds = timeLimitValue(input.timeLimitSeconds);
  const spec = resolveSpec(input.spec);
  const envSeed = envWholeNumber(env, ENV_SEED, 'seed', 0, SEED_MAX);
  // A time limit without a run count runs until the time is up.
  const runs = input.runs ?? envWholeNumber(env, ENV_RUNS, 'runs', 1, CAMPAIGN_RUNS_LIMIT) ?? (timeLimitSeconds === undefined ? DEFAULT_CAMPAIGN_RUNS : CAMPAIGN_RUNS_LIMIT);
  const shrink = booleanValue({ option: 'shrink', flag: '--no-shrink' }, input.shrink ?? DEFAULT_SHRINK);
  if (!shrink && input.shrinkTimeMsMax !== undefined) {
    throw new OptionError(
      { option: 'shrinkTimeMsMax' },
      input.shrinkTimeMsMax,
      'is a shrinking budget, and shrink is off (--no-shrink)',
      'drop shrinkTimeMsMax, or turn shrinking on',
    );
  }
  outputPaths(input, DEFAULT_REPRO_DIR);
  const resolvedRuns = wholeNumber({ option: 'runs', flag: '--runs' }, runs, 1, CAMPAIGN_RUNS_LIMIT, DEFAULT_CAMPAIGN_RUNS);
  const seeds = seedsValue(input.seeds);
  const shard = shardValue(input.shard, resolvedRuns);
  if (seeds && input.seed !== undefined) {
    throw new OptionError({ option: 'seeds', flag: '--seeds' }, input.seeds, 'is a sweep over seeds, and a single seed is given too (--seed)', 'give either --seed N or --seeds A..B');
  }
  if (seeds && shard) {
    throw new OptionError(
      { option: 'shard', flag: '--shard' },
      input.shard,
      'splits one campaign, and --seeds runs several',
      'shard one seed (--seed N --shard I/N), or sweep seeds without --shard',
    );
  }
  if (shard && timeLimitSeconds !== undefined) {
    throw new OptionError(
      { option: 'timeLimitSeconds', flag: '--time-limit' },
      timeLimitSeconds,
      'could cut a shard short, and merge needs every run of every shard',
      'size the shards with --runs and drop --time-limit (or use the CI job timeout)',
    );
  }
  // The runs this process runs at a time: a shard's slice, or one campaign of a sweep.
  const runsHere = shard ? Math.ceil(resolvedRuns / shard.count) : resolvedRuns;
  const workersAuto = input.workers === undefined;
  const workers = workersAuto
    ? Math.max(1, Math.min(availableParallelism(), Math.floor(runsHere / AUTO_WORKER_RUNS_MIN)))
    : wholeNumber({ option: 'workers', flag: '--workers' }, input.workers, 1, WORKERS_MAX);
  return Object.freeze({
    seed: seeds ? seeds[0]! : seedValue({ option: 'seed', flag: '--seed' }, input.seed ?? envSeed ?? DEFAULT_CAMPAIGN_SEED, DEFAULT_CAMPAIGN_SEED),
    runs: resolvedRuns,
    workload: resolveWorkload(workloadUnderSpec(spec, input.workload)),
    spec,
    shrink,
    shrinkTimeMsMax: wholeNumber({ option: 'shrinkTimeMsMax' }, input.shrinkTimeMsMax ?? DEFAULT_SHRINK_TIME_MS_MAX, 1, undefined, DEFAULT_SHRINK_TIME_MS_MAX),
    selfCheck: booleanValue({ option: 'selfCheck', flag: '--self-check' }, input.selfCheck ?? DEFAULT_SELF_CHECK),
    failOn: failOnValue(input.failOn),
    strictCauses: booleanValue({ option: 'strictCauses', flag: '--strict-causes' }, input.strictCauses ?? DEFAULT_STRICT_CAUSES),
    reproDir: input.reproDir ?? DEFAULT_REPRO_DIR,
    jsonFile: input.jsonFile,
    junitFile: input.junitFile,
    markdownFile: input.markdownFile,
    workers: Math.min(workers, runsHere),
    workersAuto,
    shard,
    timeLimitSeconds,
    seeds,
  });
}

const shardName = { option: 'shard', flag: '--shard' } as const;

/** `"I/N"` or `{ index, count }`: 1 ≤ I ≤ N ≤ runs. */
function shardValue(value: CampaignOptions['shard'], runs: number): ShardSpec | undefined {
  if (value === undefined) return undefined;
  let index: unknown;
  let count: unknown;
  if (typeof value === 'string') {
    const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
    if (!m) throw new OptionError(shardName, value, 'must be I/N: slice I of N (for example 2/4)', 'give two whole numbers with a slash, such as --shard 1/4');
    [index, count] = [Number(m[1]), Number(m[2])];
  } else if (typeof value === 'object' && value !== null) {
    ({ index, count } = value);
  } else {
    throw new OptionError(shardName, value, 'must be I/N or { index, count }', 'give --shard I/N, such as --shard 1/4');
  }
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1) {
    throw new OptionError(shardName, value, 'needs a shard count N ≥ 1', 'give --shard I/N with N ≥ 1, such as --shard 1/4');
  }
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 1 || index > count) {
    throw new OptionError(shardName, value, `has shard index ${String(index)}, outside 1 … ${count}`, `give an index from 1 to ${count} (shards are numbered from 1)`);
  }
  if (count > runs) {
    throw new OptionError(shardName, value, `splits ${runs} run(s) into ${count} shards, and every shard needs at least one run`, `use at most ${runs} shards, or more runs`);
  }
  return Object.freeze({ index, count });
}

/** Seconds > 0 (fractions allowed) up to a week. */
function timeLimitValue(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= TIME_LIMIT_SECONDS_MAX) return value;
  throw new OptionError(
    { option: 'timeLimitSeconds', flag: '--time-limit' },
    value,
    `must be a number of seconds > 0 and ≤ ${TIME_LIMIT_SECONDS_MAX}`,
    'give the seconds the runs may take, such as --time-limit 3600, or leave it out to do every run',
  );
}

/** `"A..B"` or `{ from, to }`: seeds A to B inclusive, A ≤ B, at most SEEDS_SWEEP_MAX of them. */
function seedsValue(value: CampaignOptions['seeds']): readonly number[] | undefined {
  if (value === undefined) return undefined;
  const name = { option: 'seeds', flag: '--seeds' };
  let from: unknown;
  let to: unknown;
  if (typeof value === 'string') {
    const m = /^\s*(\d+)\s*\.\.\s*(\d+)\s*$/.exec(value);
    if (!m) throw new OptionError(name, value, 'must be a range A..B of seeds (both included)', 'give two whole numbers with two dots, such as --seeds 1..7');
    [from, to] = [Number(m[1]), Number(m[2])];
  } else if (typeof value === 'object' && value !== null) {
    ({ from, to } = value);
  } else {
    throw new OptionError(name, value, 'must be A..B or { from, to }', 'give --seeds A..B, such as --seeds 1..7');
  }
  const a = seedValue({ ...name, option: 'seeds.from' }, from);
  const b = seedValue({ ...name, option: 'seeds.to' }, to);
  if (a > b) throw new OptionError(name, value, `runs from ${a} down to ${b}`, `give the smaller seed first: --seeds ${b}..${a}`);
  if (b - a + 1 > SEEDS_SWEEP_MAX) {
    throw new OptionError(name, value, `names ${b - a + 1} seeds; a sweep runs at most ${SEEDS_SWEEP_MAX}`, 'split the range into several sweeps');
  }
  return Object.freeze(Array.from({ length: b - a + 1 }, (_, i) => a + i));
}

/** How strict a campaign's verdict is: see `DEFAULT_FAIL_ON`. */
export type FailOn = (typeof FAIL_ON_LEVELS)[number];

function failOnValue(value: unknown): FailOn {
  if (value === undefined) return DEFAULT_FAIL_ON;
  if (typeof value === 'string' && (FAIL_ON_LEVELS as readonly string[]).includes(value)) return value as FailOn;
  throw new OptionError(
    { option: 'failOn', flag: '--fail-on' },
    value,
    `must be one of ${FAIL_ON_LEVELS.join(', ')}`,
    `give --fail-on must (violations only), should (warnings too) or advice (notes too), or leave it out for ${DEFAULT_FAIL_ON}`,
  );
}
