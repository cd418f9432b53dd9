import { invariants, type InvariantId } from '../model/invariants.ts';
import type { ScenarioConstraints } from '../workload/scenarioArbitrary.ts';
import { DEFAULT_REPLAY_FULL, DEFAULT_REPLAY_MERMAID, DEFAULT_SELF_CHECK } from './defaults.ts';
import { OptionError } from './OptionError.ts';
import { booleanValue, seedValue, wholeNumber } from './optionRules.ts';
import { parseMadeWith, replayFlags, type MadeWith } from './replayCaseCommand.ts';
import { resolveWorkload, workloadFlags, type ResolvedWorkload } from './workloadOptions.ts';
import { resolveSpec, SPEC_FLAG, workloadUnderSpec } from './specOptions.ts';
import type { SpecRevision } from '../model/specRevision.ts';

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
  /**
   * The rule set of the campaign the case is from (`--spec`, with `seed` and `caseIndex` only:
   * it shapes the workload the case was drawn from; a file's scenario names its own revision by
   * its profile). @default DEFAULT_SPEC ('2025-11-25')
   */
  readonly spec?: SpecRevision;
  /** A baseline entry of the installed SDK: `"<invariant> <variant> <shape>"`. */
  readonly baselineEntry?: string;
  /**
   * The invariant the case should show (`--expect`): replay ends with "reproduced: <invariant>"
   * or "NOT reproduced: …" and exits 3 when it did not. A replay file and a baseline entry name
   * their own; given with them, it must be the same.
   */
  readonly expect?: string;
  /**
   * The mcp-sim and SDK versions the case was made with (`--made-with`), as text
   * (`mcp-sim@0.1.0,@modelcontextprotocol/sdk@1.32.2`) or parsed: replay refuses to run under
   * others. A replay file records its own.
   */
  readonly madeWith?: string | MadeWith;
  /** Print every trace event, sends included. @default DEFAULT_REPLAY_FULL (false) */
  readonly full?: boolean;
  /** Print a Mermaid sequence diagram. @default DEFAULT_REPLAY_MERMAID (false) */
  readonly mermaid?: boolean;
  /** Replay twice and compare trace hashes. @default DEFAULT_SELF_CHECK (false) */
  readonly selfCheck?: boolean;
  /** Also write a vitest regression test of the case to this file (`--emit-test`). Needs the invariant. @default none */
  readonly emitTest?: string;
  /** Also write the replay as JSON to this file (`-`: stdout). @default none */
  readonly jsonFile?: string;
  /** What the emitted test expects of the finding: `absent` (fails while it reproduces) or `present`. @default 'absent' */
  readonly emitExpect?: string;
}

/** Where the replayed case comes from. */
export type ReplaySource =
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'case'; readonly seed: number; readonly caseIndex: number; readonly workload: ResolvedWorkload }
  | { readonly kind: 'baseline'; readonly entry: string };

/** A replay with its one source resolved and every default filled in. */
export interface ResolvedReplayOptions {
  readonly source: ReplaySource;
  /** The invariant `--expect` names, when given. */
  readonly expect?: InvariantId;
  /** The versions `--made-with` names, when given. */
  readonly madeWith?: MadeWith;
  /** Where to write the emitted regression test, and what it expects. */
  readonly emitTest?: string;
  readonly jsonFile?: string;
  readonly emitExpect: 'absent' | 'present';
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
  if (input.spec !== undefined && !byCase) {
    throw new OptionError(
      { option: 'spec', flag: SPEC_FLAG },
      input.spec,
      'only applies to --seed/--case: a replay file or baseline entry holds the case, and its profile says which rules judge it',
      `drop ${SPEC_FLAG}`,
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
      workload: resolveWorkload(workloadUnderSpec(resolveSpec(input.spec), input.workload)),
    };
  }
  const expect = input.expect === undefined ? undefined : expectedInvariant(input.expect);
  const madeWith = input.madeWith === undefined ? undefined : typeof input.madeWith === 'string' ? parseMadeWith(input.madeWith) : checkedMadeWith(input.madeWith);
  return Object.freeze({
    source,
    ...(expect !== undefined && { expect }),
    ...(madeWith !== undefined && { madeWith }),
    full: booleanValue({ option: 'full', flag: '--full' }, input.full ?? DEFAULT_REPLAY_FULL),
    mermaid: booleanValue({ option: 'mermaid', flag: '--mermaid' }, input.mermaid ?? DEFAULT_REPLAY_MERMAID),
    selfCheck: booleanValue({ option: 'selfCheck', flag: '--self-check' }, input.selfCheck ?? DEFAULT_SELF_CHECK),
    ...(input.emitTest !== undefined && { emitTest: emitTestFile(input.emitTest) }),
    ...(input.jsonFile !== undefined && { jsonFile: jsonFileValue(input.jsonFile) }),
    emitExpect: emitExpectValue(input.emitExpect, input.emitTest !== undefined),
  });
}

/** An invariant id of the catalogue (`docs/invariants.md`), or an `OptionError`. */
function jsonFileValue(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new OptionError({ option: 'jsonFile', flag: '--json' }, value, 'must be a non-empty path, or - for stdout', 'give a path or -');
  return value;
}

function emitTestFile(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new OptionError({ option: 'emitTest', flag: '--emit-test' }, value, 'must be a non-empty path', 'give the test file to write, such as test/regressions/cancel.test.ts');
  }
  return value;
}

function emitExpectValue(value: unknown, emitting: boolean): 'absent' | 'present' {
  if (value === undefined) return 'absent';
  if (!emitting) throw new OptionError({ option: 'emitExpect', flag: '--emit-expect' }, value, 'says what an emitted test expects, and no test is emitted', 'add --emit-test FILE, or drop --emit-expect');
  if (value === 'absent' || value === 'present') return value;
  throw new OptionError({ option: 'emitExpect', flag: '--emit-expect' }, value, 'must be absent or present', 'absent: the test fails while the finding reproduces; present: it fails once it is fixed');
}

export function expectedInvariant(id: unknown, flag: string = replayFlags.expect): InvariantId {
  if (typeof id !== 'string' || !invariants.has(id as InvariantId)) {
    throw new OptionError({ option: 'expect', flag }, id, 'must be an invariant id of the catalogue', 'give one as check printed it, e.g. cancel.not-initialize (docs/invariants.md lists them)');
  }
  return id as InvariantId;
}

function checkedMadeWith(m: MadeWith): MadeWith {
  const ok = (p: unknown) => typeof p === 'object' && p !== null && typeof (p as { name?: unknown }).name === 'string' && typeof (p as { version?: unknown }).version === 'string';
  if (!ok(m.tool) || !ok(m.sdk)) {
    throw new OptionError({ option: 'madeWith', flag: replayFlags.madeWith }, m, 'must be { tool: { name, version }, sdk: { name, version } }', 'pass the versions a case was made with, or leave it out');
  }
  return { tool: { name: m.tool.name, version: m.tool.version }, sdk: { name: m.sdk.name, version: m.sdk.version } };
}
