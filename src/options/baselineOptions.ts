import type { ScenarioConstraints } from '../workload/scenarioArbitrary.ts';
import {
  DEFAULT_BASELINE_RUNS,
  DEFAULT_BASELINE_SHRINK_TIME_MS_MAX,
  DEFAULT_BASELINE_TABLE,
  DEFAULT_BASELINE_UPDATE,
  DEFAULT_CAMPAIGN_SEED,
} from './defaults.ts';
import { OptionError } from './OptionError.ts';
import { booleanValue, seedValue, wholeNumber, type Env } from './optionRules.ts';
import { resolvePropertyOptions, type PropertyOptions, type ResolvedPropertyOptions } from './propertyOptions.ts';
import { resolveWorkload, type ResolvedWorkload } from './workloadOptions.ts';
import { resolveSpec, workloadUnderSpec } from './specOptions.ts';
import type { SpecRevision } from '../model/specRevision.ts';

/** A baseline build (`mcp-sim baseline`, `buildBaseline`); every field optional. */
export interface BaselineOptions {
  /**
   * Seed of the baseline campaign. Not read from `MCP_SIM_SEED`: a baseline is written once and
   * reviewed, from coordinates its file records. @default DEFAULT_CAMPAIGN_SEED (20_261_130)
   */
  readonly seed?: number;
  /** Runs of the baseline campaign. @default DEFAULT_BASELINE_RUNS (2_000) */
  readonly runs?: number;
  /** Bounds of the campaign's scenarios. @default DEFAULT_WORKLOAD (both profiles) */
  readonly workload?: ScenarioConstraints;
  /** Wall-clock budget for fast-check's shrinking of one entry. @default DEFAULT_BASELINE_SHRINK_TIME_MS_MAX (30_000) */
  readonly shrinkTimeMsMax?: number;
  /**
   * The property suite whose cases the baseline covers too, so a fixed-seed CI run fails only on
   * news; its seed and runs follow `MCP_SIM_SEED` and `MCP_SIM_RUNS` as the suite's do.
   * @default the property suite's own options
   */
  readonly property?: PropertyOptions;
  /**
   * The rule set the baseline is about (`--spec`): its campaign runs that rule set's workload
   * (`workloadUnderSpec`), and it is written to its own file (`baselinePath`). @default DEFAULT_SPEC
   */
  readonly spec?: SpecRevision;
  /** Write `properties/baselines/<package>@<version>[+<spec>].json`. @default DEFAULT_BASELINE_UPDATE (false) */
  readonly update?: boolean;
  /** Only print the existing baseline as a Markdown table. Not with `update`. @default DEFAULT_BASELINE_TABLE (false) */
  readonly table?: boolean;
}

/** A baseline build with every default filled in and checked. */
export interface ResolvedBaselineOptions {
  readonly seed: number;
  readonly runs: number;
  readonly workload: ResolvedWorkload;
  readonly spec: SpecRevision;
  readonly shrinkTimeMsMax: number;
  readonly property: ResolvedPropertyOptions;
  readonly update: boolean;
  readonly table: boolean;
}

/** Fills in every default of a baseline build and rejects bad values and combinations. */
export function resolveBaselineOptions(input: BaselineOptions = {}, env: Env = process.env): ResolvedBaselineOptions {
  const update = booleanValue({ option: 'update', flag: '--update' }, input.update ?? DEFAULT_BASELINE_UPDATE);
  const table = booleanValue({ option: 'table', flag: '--table' }, input.table ?? DEFAULT_BASELINE_TABLE);
  if (update && table) {
    throw new OptionError(
      { option: 'table', flag: '--table' },
      true,
      'only prints the existing baseline, and --update builds and writes a new one',
      'give --table or --update, not both',
    );
  }
  const spec = resolveSpec(input.spec);
  return Object.freeze({
    seed: seedValue({ option: 'seed', flag: '--seed' }, input.seed ?? DEFAULT_CAMPAIGN_SEED, DEFAULT_CAMPAIGN_SEED),
    runs: wholeNumber({ option: 'runs', flag: '--runs' }, input.runs ?? DEFAULT_BASELINE_RUNS, 1, undefined, DEFAULT_BASELINE_RUNS),
    workload: resolveWorkload(workloadUnderSpec(spec, input.workload)),
    spec,
    shrinkTimeMsMax: wholeNumber(
      { option: 'shrinkTimeMsMax' },
      input.shrinkTimeMsMax ?? DEFAULT_BASELINE_SHRINK_TIME_MS_MAX,
      1,
      undefined,
      DEFAULT_BASELINE_SHRINK_TIME_MS_MAX,
    ),
    property: resolvePropertyOptions(input.property, env),
    update,
    table,
  });
}
