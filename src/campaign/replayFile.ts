import { readFileSync } from 'node:fs';
import { invariants, type InvariantId } from '../model/invariants.ts';
import { replayCaseCommand, type MadeWith } from '../options/replayCaseCommand.ts';
import type { ResolvedWorkload } from '../options/workloadOptions.ts';
import type { Plan } from '../real/plan.ts';
import type { Clock, RealBounds, TargetSpec } from '../targets/Target.ts';
import type { JsonValue } from '../util/json.ts';
import { TOOL, type PackageId } from '../util/toolVersion.ts';
import type { Rate } from './real/rate.ts';
import type { SimCase } from './simCase.ts';

/**
 * The version of the replay file format this mcp-sim writes. 2: one file for every kind of target
 * (`target`, `clock`, `case`); 1: a simulated case of the installed SDK, its `scenario`, `tape` and
 * `seed` at the top. Version 1 files, and the per-kind files of earlier releases (`kind` `fuzz`,
 * `fuzz-process`, `testbed-check`), are still read.
 */
export const REPLAY_FILE_SCHEMA_VERSION = 2;

/** The campaign case a counterexample was shrunk from: enough to draw it again. */
export interface CaseOrigin {
  /** Seed of the campaign. */
  readonly campaignSeed: number;
  /** Index of the case in that campaign. */
  readonly caseIndex: number;
  /** The workload the campaign drew its cases with (simulated SDK campaigns). */
  readonly workload?: ResolvedWorkload;
  /** The command that replays the original case, as the report prints it. */
  readonly command: string;
}

/** Who made a replay file: mcp-sim's version, and the SDK release it ran on (in process). */
export interface ReplayMadeWith {
  readonly tool: PackageId;
  readonly sdk?: PackageId;
}

/**
 * A replay file (`.mcp-sim/repro/*.json`): the (minimal) case of one finding, on the target that
 * showed it, and what it showed. `replay FILE` opens the target again and runs the case: on the
 * virtual clock once, byte for byte; on the real clock `--rate-runs` times, for its rate.
 */
export interface ReplayFile<Case = JsonValue> {
  readonly schemaVersion: typeof REPLAY_FILE_SCHEMA_VERSION;
  readonly madeWith: ReplayMadeWith;
  readonly target: TargetSpec;
  readonly clock: Clock;
  /** Absent for a case that shows nothing in particular (a counterfactual). */
  readonly invariant?: InvariantId;
  readonly case: Case;
  /** Where the finding ran and the features of its minimal case. */
  readonly cause?: { readonly variant: string; readonly shape: string };
  /** Real clock: how often the case reproduced when the campaign re-ran it, and the bounds it was judged with. */
  readonly rate?: Rate;
  readonly bounds?: RealBounds;
  readonly origin?: CaseOrigin;
}

/** A replay file as `readReplayFile` gives it back: the current layout, whatever version it was written in. */
export interface LoadedReplayFile extends Omit<ReplayFile<unknown>, 'schemaVersion' | 'madeWith'> {
  readonly madeWith?: ReplayMadeWith;
  /** A file older than `schemaVersion` (no versions in it): its versions cannot be checked. */
  readonly legacy?: boolean;
}

/** The simulated case of a loaded replay file (its target is an SDK release or a module, in process). */
export const simCaseOf = (file: LoadedReplayFile): SimCase => file.case as SimCase;

/**
 * The replay file of `simCase` on an SDK release in process, which shows `invariant`, found with
 * `sdk` by this mcp-sim; shrunk from case `caseIndex` of campaign `seed` when `from` is given.
 * `release`: the release's folder or version when it is not the installed one.
 */
export function replayFile(
  invariant: InvariantId,
  simCase: SimCase,
  sdk: PackageId,
  from?: { readonly seed: number; readonly caseIndex: number; readonly workload: ResolvedWorkload },
  release?: string,
): ReplayFile<SimCase> {
  const { scenario, tape, seed } = simCase;
  const madeWith: MadeWith = { tool: { name: TOOL.name, version: TOOL.version }, sdk: { name: sdk.name, version: sdk.version } };
  return {
    schemaVersion: REPLAY_FILE_SCHEMA_VERSION,
    madeWith,
    target: { kind: 'sdk', ...(release !== undefined && { release }) },
    clock: 'virtual',
    invariant,
    case: { scenario, tape, seed },
    ...(from && {
      origin: {
        campaignSeed: from.seed,
        caseIndex: from.caseIndex,
        workload: from.workload,
        command: replayCaseCommand(from.seed, from.caseIndex, from.workload, { expect: invariant, madeWith }),
      },
    }),
  };
}

/** The replay file of a module's case (a user's server in process), found with the SDK copy `sdk` the module resolves. */
export function moduleReplayFile(target: TargetSpec, invariant: InvariantId, c: SimCase, sdk: PackageId): ReplayFile<SimCase> {
  return { schemaVersion: REPLAY_FILE_SCHEMA_VERSION, madeWith: { tool: { name: TOOL.name, version: TOOL.version }, sdk: { name: sdk.name, version: sdk.version } }, target, clock: 'virtual', invariant, case: c };
}

/** The replay file of a real-time finding's minimal case (a known cause's first case), with its rate and the bounds it was judged with. */
export function realReplayFile(target: TargetSpec, f: { readonly invariant: InvariantId; readonly minimal: unknown; readonly rate: Rate; readonly cause: { readonly variant: string; readonly shape: string } }, bounds: RealBounds, system?: PackageId): ReplayFile<unknown> {
  return {
    schemaVersion: REPLAY_FILE_SCHEMA_VERSION,
    madeWith: { tool: { name: TOOL.name, version: TOOL.version }, ...(system && { sdk: system }) },
    target,
    clock: 'real',
    invariant: f.invariant,
    case: f.minimal,
    cause: f.cause,
    // A known cause of the baseline is not re-run when found: its file has no rate.
    ...(f.rate.runs > 0 && { rate: f.rate }),
    bounds,
  } as ReplayFile<unknown>;
}

const isId = (p: unknown): p is PackageId =>
  typeof p === 'object' && p !== null && typeof (p as PackageId).name === 'string' && typeof (p as PackageId).version === 'string';

type Parsed = Record<string, unknown> & { schemaVersion?: unknown; madeWith?: { tool?: unknown; sdk?: unknown }; invariant?: unknown };

/**
 * Reads a replay file of any kind and version, with an error that says what is wrong with it and
 * what it should be: a file of an unknown `schemaVersion` is refused; one without (older than the
 * field) is read, marked `legacy`.
 */
export function readReplayFile(path: string): LoadedReplayFile {
  let parsed: Parsed;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Parsed;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.message;
    throw new Error(`replay: cannot read ${path}: ${why}; give a replay file that mcp-sim check wrote (.mcp-sim/repro/*.json)`);
  }
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`replay: ${path} is not a JSON object; give a replay file that mcp-sim check wrote`);
  if (parsed.invariant !== undefined && !invariants.has(parsed.invariant as InvariantId)) {
    throw new Error(`replay: ${path} names invariant ${JSON.stringify(parsed.invariant)}, which is not in the catalogue (docs/invariants.md); fix its "invariant" field or leave it out`);
  }
  const invariant = parsed.invariant as InvariantId | undefined;
  const head = { ...(invariant !== undefined && { invariant }) };
  const madeWith = isId(parsed.madeWith?.tool) ? { madeWith: { tool: parsed.madeWith.tool, ...(isId(parsed.madeWith.sdk) && { sdk: parsed.madeWith.sdk }) } } : {};
  // The per-kind files of earlier releases.
  if (parsed.kind === 'fuzz') {
    const m = parsed as unknown as { module: string; case: SimCase; madeWith?: { sdk?: PackageId } };
    return { ...head, ...madeWith, target: { kind: 'module', module: m.module }, clock: 'virtual', case: m.case, legacy: true };
  }
  if (parsed.kind === 'fuzz-process') {
    const p = parsed as unknown as { target: { command?: string; url?: string; start?: never; cwd?: string; env?: Record<string, string> }; plan: Plan; bounds: RealBounds; rate: Rate };
    const target: TargetSpec = 'url' in p.target && p.target.url !== undefined ? { kind: 'url', url: p.target.url, ...(p.target.start !== undefined && { start: p.target.start as never }) } : { kind: 'process', command: p.target.command ?? '', ...(p.target.cwd !== undefined && { cwd: p.target.cwd }), ...(p.target.env && { env: p.target.env }) };
    return { ...head, target, clock: 'real', case: p.plan, bounds: p.bounds, rate: p.rate, legacy: true };
  }
  if (parsed.kind === 'testbed-check') {
    const t = parsed as unknown as { language: string; version: string; transport: string; plan: Plan; bounds: RealBounds; rate: Rate };
    return { ...head, target: { kind: 'testbed', language: t.language, release: t.version, ...(t.transport !== 'stdio' && { transport: t.transport }) }, clock: 'real', case: t.plan, bounds: t.bounds, rate: t.rate, legacy: true };
  }
  if (parsed.schemaVersion !== undefined && parsed.schemaVersion !== 1 && parsed.schemaVersion !== REPLAY_FILE_SCHEMA_VERSION) {
    const tool = parsed.madeWith?.tool;
    const writer = isId(tool) && tool.version !== TOOL.version ? `${tool.name}@${tool.version}, which wrote it` : 'the mcp-sim that wrote it';
    throw new Error(
      `replay refused: ${path} has schemaVersion ${JSON.stringify(parsed.schemaVersion)}, but ${TOOL.name}@${TOOL.version} reads schemaVersion 1 and ${REPLAY_FILE_SCHEMA_VERSION} only. ` +
        `Fix: replay it with ${writer}, or run mcp-sim check again with this version for a new file.`,
    );
  }
  if (parsed.schemaVersion === REPLAY_FILE_SCHEMA_VERSION) {
    const file = parsed as unknown as ReplayFile<unknown>;
    if (!isId(file.madeWith?.tool) || typeof file.target !== 'object' || file.target === null || file.case === undefined) {
      throw new Error(`replay: ${path} has schemaVersion ${REPLAY_FILE_SCHEMA_VERSION} but lacks "madeWith", "target" or "case"; it should be a file written by mcp-sim check`);
    }
    const { schemaVersion: _v, ...rest } = file;
    return rest;
  }
  // Version 1 and older: a simulated case of an SDK release, at the top of the file.
  if (typeof parsed.scenario !== 'object' || parsed.scenario === null || !Array.isArray(parsed.tape)) {
    throw new Error(`replay: ${path} has no "target" and "case" (nor a "scenario" and "tape"); it should be a file written by mcp-sim check`);
  }
  const legacy = parsed.schemaVersion === undefined;
  if (!legacy && (!isId(parsed.madeWith?.tool) || !isId(parsed.madeWith?.sdk))) {
    throw new Error(`replay: ${path} has schemaVersion 1 but no "madeWith": { tool: { name, version }, sdk: { name, version } }; it should be a file written by mcp-sim check`);
  }
  return {
    ...head,
    ...madeWith,
    target: { kind: 'sdk' },
    clock: 'virtual',
    case: { scenario: parsed.scenario, tape: parsed.tape, seed: (parsed.seed as number | undefined) ?? 0 },
    ...(parsed.origin !== undefined && { origin: parsed.origin as CaseOrigin }),
    ...(legacy && { legacy }),
  };
}
