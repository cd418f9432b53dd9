import type { ScenarioConstraints } from '../workload/scenarioArbitrary.ts';
import { DEFAULT_REPLAY_FULL, DEFAULT_REPLAY_MERMAID, DEFAULT_SELF_CHECK } from './defaults.ts';
import { OptionError } from './OptionError.ts';
import { booleanValue, seedValue, wholeNumber } from './optionRules.ts';
import { resolveWorkload, workloadFlags, type ResolvedWorkload } from './workloadOptions.ts';

/**
 * A replay (`mcp-sim replay`) of one case; every field optional, but exactly one source: a
 * `file`, a `seed` with a `caseIndex`, or a `baselineEntry`. Replay reads no environment
 * variable: the coordinates of a case are all on its command line.
 */
export interface ReplayOptions {
  /** A replay file written by `check` or a failing property (`.mcp-sim/repro/*.json`). */
  readonly file?: string;
  /** Seed of the campaign the case is from (with `caseIndex`). */
  readonly seed?: number;
  /** Index of the case in that campaign (with `seed`). */
  readonly caseIndex?: number;
  /**
   * Bounds the campaign drew its cases with (with `seed` and `caseIndex` only; a file and a
   * baseline entry hold the case itself). @default DEFAULT_WORKLOAD, as `check`'s
   */
  readonly workload?: ScenarioConstraints;
  /** A baseline entry of the installed SDK: `"<invariant> <variant> <shape>"`. */
  readonly baselineEntry?: string;
  /** Print every trace event, sends included. @default DEFAULT_REPLAY_FULL (false) */
  readonly full?: boolean;
  /** Print a Mermaid sequence diagram. @default DEFAULT_REPLAY_MERMAID (false) */
  readonly mermaid?: boolean;
  /** Replay twice and compare trace hashes. @default DEFAULT_SELF_CHECK (false) */
  readonly selfCheck?: boolean;
}

/** Where the replayed case comes from. */
export type ReplaySource =
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'case'; readonly seed: number; readonly caseIndex: number; readonly workload: ResolvedWorkload }
  | { readonly kind: 'baseline'; readonly entry: string };

/** A replay with its one source resolved and every default filled in. */
export interface ResolvedReplayOptions {
  readonly source: ReplaySource;
  readonly full: boolean;
  readonly mermaid: boolean;
  readonly selfCheck: boolean;
}

const sourcesHelp = 'give a replay file, or --seed <campaign seed> --case <index> (both print in check reports), or --baseline "<invariant> <variant> <shape>"';

/** Picks the one source of a replay and rejects missing, conflicting or out-of-range coordinates. */
export function resolveReplayOptions(input: ReplayOptions = {}): ResolvedReplayOptions {
  const byCase = input.seed !== undefined || input.caseIndex !== undefined;
  const given = [input.file !== undefined && 'a replay file', byCase && '--seed/--case', input.baselineEntry !== undefined && '--baseline'].filter(
    (x): x is string => x !== false,
  );
  if (given.length === 0) throw new OptionError({ option: 'the case to replay' }, undefined, 'must be named', sourcesHelp);
  if (given.length > 1) {
    throw new OptionError({ option: 'the case to replay' }, given, 'must be named one way, not several', `${sourcesHelp}; only one`);
  }
  const workloadKeys = Object.entries(input.workload ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [k as keyof typeof workloadFlags]));
  if (workloadKeys.length > 0 && !byCase) {
    throw new OptionError(
      { option: 'workload', flag: workloadKeys.map((k) => workloadFlags[k] ?? k).join(', ') },
      input.workload,
      'only applies to --seed/--case: a replay file or baseline entry holds the case itself',
      'drop the workload flags',
    );
  }
  let source: ReplaySource;
  if (input.file !== undefined) {
    if (typeof input.file !== 'string' || input.file.trim() === '') throw new OptionError({ option: 'file' }, input.file, 'must be a path', 'give the path of a replay file');
    source = { kind: 'file', file: input.file };
  } else if (input.baselineEntry !== undefined) {
    const entry = String(input.baselineEntry).trim();
    if (entry === '') throw new OptionError({ option: 'baselineEntry', flag: '--baseline' }, input.baselineEntry, 'must name a baseline entry', 'give "<invariant> <variant> <shape>"');
    source = { kind: 'baseline', entry };
  } else {
    if (input.seed === undefined || input.caseIndex === undefined) {
      const [missing, other] = input.seed === undefined ? [{ option: 'seed', flag: '--seed' }, '--case'] : [{ option: 'caseIndex', flag: '--case' }, '--seed'];
      throw new OptionError(missing, undefined, `must come with ${other}: a campaign case is named by its seed and its index together`, 'give both --seed and --case (a check report prints them)');
    }
    source = {
      kind: 'case',
      seed: seedValue({ option: 'seed', flag: '--seed' }, input.seed),
      caseIndex: wholeNumber({ option: 'caseIndex', flag: '--case' }, input.caseIndex, 0),
      workload: resolveWorkload(input.workload),
    };
  }
  return Object.freeze({
    source,
    full: booleanValue({ option: 'full', flag: '--full' }, input.full ?? DEFAULT_REPLAY_FULL),
    mermaid: booleanValue({ option: 'mermaid', flag: '--mermaid' }, input.mermaid ?? DEFAULT_REPLAY_MERMAID),
    selfCheck: booleanValue({ option: 'selfCheck', flag: '--self-check' }, input.selfCheck ?? DEFAULT_SELF_CHECK),
  });
}
