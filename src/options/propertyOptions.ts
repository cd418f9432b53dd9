import type { ScenarioConstraints } from '../workload/scenarioArbitrary.ts';
import { DEFAULT_CAMPAIGN_SEED, DEFAULT_PROPERTY_RUNS, DEFAULT_PROPERTY_TIME_MS_MAX, ENV_RUNS, ENV_SEED, SEED_MAX } from './defaults.ts';
import { envWholeNumber, seedValue, wholeNumber, type Env } from './optionRules.ts';
import { resolveWorkload, type ResolvedWorkload } from './workloadOptions.ts';

/** The property suite (`properties/`) and the cases of it a baseline covers; every field optional. */
export interface PropertyOptions {
  /**
   * fast-check seed of every property: `fc.assert` with it draws the same cases as `fc.sample`,
   * so the baseline can cover them. Env `MCP_SIM_SEED` when unset. @default DEFAULT_CAMPAIGN_SEED (20_261_130)
   */
  readonly seed?: number;
  /** Cases per property. Env `MCP_SIM_RUNS` when unset. @default DEFAULT_PROPERTY_RUNS (150) */
  readonly runs?: number;
  /** Bounds of the generated scenarios. @default DEFAULT_WORKLOAD (both profiles) */
  readonly workload?: ScenarioConstraints;
  /** Wall-clock budget of one property (fast-check's `interruptAfterTimeLimit`). @default DEFAULT_PROPERTY_TIME_MS_MAX (120_000) */
  readonly timeMsMax?: number;
}

/** The property suite's options with every default filled in and checked. */
export interface ResolvedPropertyOptions {
  readonly seed: number;
  readonly runs: number;
  readonly workload: ResolvedWorkload;
  readonly timeMsMax: number;
}

/**
 * Fills in every default of the property suite: the only place it reads `MCP_SIM_SEED` and
 * `MCP_SIM_RUNS` (an explicit option wins over them).
 */
export function resolvePropertyOptions(input: PropertyOptions = {}, env: Env = process.env): ResolvedPropertyOptions {
  const seed = input.seed ?? envWholeNumber(env, ENV_SEED, 'property.seed', 0, SEED_MAX) ?? DEFAULT_CAMPAIGN_SEED;
  const runs = input.runs ?? envWholeNumber(env, ENV_RUNS, 'property.runs', 1) ?? DEFAULT_PROPERTY_RUNS;
  return Object.freeze({
    seed: seedValue({ option: 'property.seed' }, seed, DEFAULT_CAMPAIGN_SEED),
    runs: wholeNumber({ option: 'property.runs' }, runs, 1, undefined, DEFAULT_PROPERTY_RUNS),
    workload: resolveWorkload(input.workload, 'property.workload'),
    timeMsMax: wholeNumber({ option: 'property.timeMsMax' }, input.timeMsMax ?? DEFAULT_PROPERTY_TIME_MS_MAX, 1, undefined, DEFAULT_PROPERTY_TIME_MS_MAX),
  });
}
