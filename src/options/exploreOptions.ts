import { DEFAULT_EXPLORE_DEPTH_MAX, DEFAULT_EXPLORE_REDUCE, DEFAULT_EXPLORE_RUNS_MAX, DEFAULT_FAIL_ON, DEFAULT_REPRO_DIR, FAIL_ON_LEVELS } from './defaults.ts';
import type { FailOn } from './campaignOptions.ts';
import { OptionError } from './OptionError.ts';
import { booleanValue, outputPaths, wholeNumber } from './optionRules.ts';

/** `mcp-sim explore`: which scenario, and how far to go; every field optional but the scenario. */
export interface ExploreCliOptions {
  /** A preset by name (`explore --list`). Exactly one of `preset` and `scenarioFile`. */
  readonly preset?: string;
  /** A scenario JSON file (validated as `runScenario` does). */
  readonly scenarioFile?: string;
  /** @default DEFAULT_EXPLORE_REDUCE (true) */
  readonly reduce?: boolean;
  /** @default DEFAULT_EXPLORE_RUNS_MAX */
  readonly runsMax?: number;
  /** @default DEFAULT_EXPLORE_DEPTH_MAX */
  readonly depthMax?: number;
  /** @default DEFAULT_FAIL_ON */
  readonly failOn?: FailOn;
  /** Folder for the replay files of findings. @default DEFAULT_REPRO_DIR */
  readonly reproDir?: string;
  /** Where to write the JSON report (`-`: stdout), the JUnit XML and the Markdown report, if anywhere. */
  readonly jsonFile?: string;
  readonly junitFile?: string;
  readonly markdownFile?: string;
}

export type ExploreSource = { readonly kind: 'preset'; readonly name: string } | { readonly kind: 'file'; readonly file: string };

export interface ResolvedExploreOptions {
  readonly source: ExploreSource;
  readonly reduce: boolean;
  readonly runsMax: number;
  readonly depthMax: number;
  readonly failOn: FailOn;
  readonly reproDir: string;
  readonly jsonFile: string | undefined;
  readonly junitFile: string | undefined;
  readonly markdownFile: string | undefined;
}

/** Fills in every default of an exploration and rejects a missing or doubled scenario and bad bounds. */
export function resolveExploreOptions(input: ExploreCliOptions): ResolvedExploreOptions {
  const { preset, scenarioFile } = input;
  if ((preset === undefined) === (scenarioFile === undefined)) {
    throw new OptionError(
      { option: 'preset', flag: '--preset' },
      preset,
      preset === undefined ? 'explore needs a scenario' : 'names a scenario, and so does --scenario',
      'give --preset NAME (explore --list prints them) or --scenario FILE, one of them',
    );
  }
  const failOn = input.failOn ?? DEFAULT_FAIL_ON;
  if (!FAIL_ON_LEVELS.includes(failOn)) {
    throw new OptionError({ option: 'failOn', flag: '--fail-on' }, failOn, `is not a level`, `give one of ${FAIL_ON_LEVELS.join(', ')}`);
  }
  outputPaths(input, DEFAULT_REPRO_DIR);
  const source: ExploreSource = preset !== undefined ? { kind: 'preset', name: preset } : { kind: 'file', file: scenarioFile! };
  return Object.freeze({
    source,
    reduce: booleanValue({ option: 'reduce', flag: '--no-reduction' }, input.reduce ?? DEFAULT_EXPLORE_REDUCE),
    runsMax: wholeNumber({ option: 'runsMax', flag: '--runs-max' }, input.runsMax ?? DEFAULT_EXPLORE_RUNS_MAX, 1, undefined, DEFAULT_EXPLORE_RUNS_MAX),
    depthMax: wholeNumber({ option: 'depthMax', flag: '--depth' }, input.depthMax ?? DEFAULT_EXPLORE_DEPTH_MAX, 1, undefined, DEFAULT_EXPLORE_DEPTH_MAX),
    failOn,
    reproDir: input.reproDir ?? DEFAULT_REPRO_DIR,
    jsonFile: input.jsonFile,
    junitFile: input.junitFile,
    markdownFile: input.markdownFile,
  });
}
