import type { ScenarioConstraints } from '../workload/scenarioArbitrary.ts';
import {
  DEFAULT_CAMPAIGN_RUNS,
  DEFAULT_CAMPAIGN_SEED,
  DEFAULT_REPRO_DIR,
  DEFAULT_SELF_CHECK,
  DEFAULT_SHRINK,
  DEFAULT_SHRINK_TIME_MS_MAX,
  ENV_RUNS,
  ENV_SEED,
  SEED_MAX,
} from './defaults.ts';
import { OptionError } from './OptionError.ts';
import { booleanValue, envWholeNumber, seedValue, wholeNumber, type Env } from './optionRules.ts';
import { resolveWorkload, type ResolvedWorkload } from './workloadOptions.ts';

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
  /** Shrink the first counterexample of each invariant found. @default DEFAULT_SHRINK (true) */
  readonly shrink?: boolean;
  /** Wall-clock budget for fast-check's shrinking of one counterexample. Needs `shrink`. @default DEFAULT_SHRINK_TIME_MS_MAX (20_000) */
  readonly shrinkTimeMsMax?: number;
  /** Run every case twice and compare trace hashes (`harness.deterministic`). @default DEFAULT_SELF_CHECK (false) */
  readonly selfCheck?: boolean;
  /** Folder `check` writes counterexample replay files to. @default DEFAULT_REPRO_DIR ('.mcp-sim/repro') */
  readonly reproDir?: string;
  /** Also write the report as JSON to this file. @default none */
  readonly jsonFile?: string;
}

/** A campaign with every default filled in and checked: what `runCampaign` runs and `check` prints. */
export interface ResolvedCampaignOptions {
  readonly seed: number;
  readonly runs: number;
  readonly workload: ResolvedWorkload;
  readonly shrink: boolean;
  readonly shrinkTimeMsMax: number;
  readonly selfCheck: boolean;
  readonly reproDir: string;
  readonly jsonFile: string | undefined;
}

/** Most runs of one campaign: beyond this, split it into seeds (and `MCP_SIM_RUNS` typos show). */
export const CAMPAIGN_RUNS_LIMIT = 10_000_000;

/**
 * Fills in every default of a campaign and rejects bad values and combinations. The only place
 * `MCP_SIM_SEED` and `MCP_SIM_RUNS` are read for a campaign; an explicit option wins over them.
 */
export function resolveCampaignOptions(input: CampaignOptions = {}, env: Env = process.env): ResolvedCampaignOptions {
  const seed = input.seed ?? envWholeNumber(env, ENV_SEED, 'seed', 0, SEED_MAX) ?? DEFAULT_CAMPAIGN_SEED;
  const runs = input.runs ?? envWholeNumber(env, ENV_RUNS, 'runs', 1, CAMPAIGN_RUNS_LIMIT) ?? DEFAULT_CAMPAIGN_RUNS;
  const shrink = booleanValue({ option: 'shrink', flag: '--no-shrink' }, input.shrink ?? DEFAULT_SHRINK);
  if (!shrink && input.shrinkTimeMsMax !== undefined) {
    throw new OptionError(
      { option: 'shrinkTimeMsMax' },
      input.shrinkTimeMsMax,
      'is a shrinking budget, and shrink is off (--no-shrink)',
      'drop shrinkTimeMsMax, or turn shrinking on',
    );
  }
  for (const [option, flag] of [['reproDir', '--out'], ['jsonFile', '--json']] as const) {
    const v = input[option];
    if (v !== undefined && (typeof v !== 'string' || v.trim() === '')) {
      throw new OptionError({ option, flag }, v, 'must be a non-empty path', `give a path${option === 'reproDir' ? `, or leave it out for ${DEFAULT_REPRO_DIR}` : ', or leave it out'}`);
    }
  }
  return Object.freeze({
    seed: seedValue({ option: 'seed', flag: '--seed' }, seed, DEFAULT_CAMPAIGN_SEED),
    runs: wholeNumber({ option: 'runs', flag: '--runs' }, runs, 1, CAMPAIGN_RUNS_LIMIT, DEFAULT_CAMPAIGN_RUNS),
    workload: resolveWorkload(input.workload),
    shrink,
    shrinkTimeMsMax: wholeNumber({ option: 'shrinkTimeMsMax' }, input.shrinkTimeMsMax ?? DEFAULT_SHRINK_TIME_MS_MAX, 1, undefined, DEFAULT_SHRINK_TIME_MS_MAX),
    selfCheck: booleanValue({ option: 'selfCheck', flag: '--self-check' }, input.selfCheck ?? DEFAULT_SELF_CHECK),
    reproDir: input.reproDir ?? DEFAULT_REPRO_DIR,
    jsonFile: input.jsonFile,
  });
}
