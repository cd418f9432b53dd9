import { readFileSync } from 'node:fs';
import { invariants, type InvariantId } from '../model/invariants.ts';
import { replayCaseCommand, type MadeWith } from '../options/replayCaseCommand.ts';
import type { ResolvedWorkload } from '../options/workloadOptions.ts';
import { TOOL, type PackageId } from '../util/toolVersion.ts';
import type { SimCase } from './simCase.ts';

/**
 * The version of the replay file format this mcp-sim writes and reads. Raise it when a field's
 * meaning changes; `readReplayFile` refuses any other (a file without one is older than the
 * field and is read with a warning).
 */
export const REPLAY_FILE_SCHEMA_VERSION = 1;

/** The campaign case a counterexample was shrunk from: enough to draw it again. */
export interface CaseOrigin {
  /** Seed of the campaign. */
  readonly campaignSeed: number;
  /** Index of the case in that campaign. */
  readonly caseIndex: number;
  /** The workload the campaign drew its cases with. */
  readonly workload: ResolvedWorkload;
  /** The command that replays the original case, as the report prints it. */
  readonly command: string;
}

/**
 * A replay file (`.mcp-sim/repro/*.json`): the (shrunk) case itself, which `replay FILE` runs,
 * the invariant it shows, the mcp-sim and SDK versions that made it (replay refuses others), and
 * where it came from, so the original case can be drawn again.
 */
export interface ReplayFile extends SimCase {
  readonly schemaVersion: typeof REPLAY_FILE_SCHEMA_VERSION;
  readonly invariant: InvariantId;
  readonly madeWith: MadeWith;
  /** Absent for cases that were not drawn by a campaign (a failing property's, a hand-written one). */
  readonly origin?: CaseOrigin;
}

/** A replay file as `readReplayFile` gives it back. */
export interface LoadedReplayFile {
  readonly simCase: SimCase;
  /** The invariant the file says the case shows, when it names one. */
  readonly invariant?: InvariantId;
  /** The versions that made it; absent only in a file older than `schemaVersion`. */
  readonly madeWith?: MadeWith;
  readonly origin?: CaseOrigin;
  /** True for a file without `schemaVersion` (older than the field): its versions are unknown. */
  readonly legacy?: boolean;
}

/**
 * The replay file of `simCase`, which shows `invariant`, found with `sdk` by this mcp-sim;
 * shrunk from case `caseIndex` of campaign `seed` when `from` is given.
 */
export function replayFile(
  invariant: InvariantId,
  simCase: SimCase,
  sdk: PackageId,
  from?: { readonly seed: number; readonly caseIndex: number; readonly workload: ResolvedWorkload },
): ReplayFile {
  const { scenario, tape, seed } = simCase;
  const madeWith: MadeWith = { tool: { name: TOOL.name, version: TOOL.version }, sdk: { name: sdk.name, version: sdk.version } };
  return {
    schemaVersion: REPLAY_FILE_SCHEMA_VERSION,
    invariant,
    madeWith,
    scenario,
    tape,
    seed,
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

const isId = (p: unknown): p is PackageId =>
  typeof p === 'object' && p !== null && typeof (p as PackageId).name === 'string' && typeof (p as PackageId).version === 'string';

/**
 * Reads a replay file, with an error that says what is wrong with it and what it should be: a
 * file of another `schemaVersion` is refused; one without `schemaVersion` (older than it) is
 * read, marked `legacy`: its versions cannot be checked.
 */
export function readReplayFile(path: string): LoadedReplayFile {
  let parsed: Partial<Omit<ReplayFile, 'schemaVersion'>> & { schemaVersion?: unknown };
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as typeof parsed;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.message;
    throw new Error(`replay: cannot read ${path}: ${why}; give a file that mcp-sim check or a failing property wrote (.mcp-sim/repro/*.json)`);
  }
  if (!parsed || typeof parsed.scenario !== 'object' || parsed.scenario === null || !Array.isArray(parsed.tape)) {
    throw new Error(`replay: ${path} has no "scenario" and "tape"; it should be a file written by mcp-sim check`);
  }
  const legacy = parsed.schemaVersion === undefined;
  if (!legacy && parsed.schemaVersion !== REPLAY_FILE_SCHEMA_VERSION) {
    const tool = parsed.madeWith?.tool;
    const writer = isId(tool) && tool.version !== TOOL.version ? `${tool.name}@${tool.version}, which wrote it` : 'the mcp-sim that wrote it';
    throw new Error(
      `replay refused: ${path} has schemaVersion ${JSON.stringify(parsed.schemaVersion)}, but ${TOOL.name}@${TOOL.version} reads schemaVersion ${REPLAY_FILE_SCHEMA_VERSION} only. ` +
        `Fix: replay it with ${writer}, or run mcp-sim check again with this version for a new file.`,
    );
  }
  if (!legacy && (!isId(parsed.madeWith?.tool) || !isId(parsed.madeWith?.sdk))) {
    throw new Error(
      `replay: ${path} has schemaVersion ${REPLAY_FILE_SCHEMA_VERSION} but no "madeWith": { tool: { name, version }, sdk: { name, version } }; it should be a file written by mcp-sim check`,
    );
  }
  if (parsed.invariant !== undefined && !invariants.has(parsed.invariant)) {
    throw new Error(`replay: ${path} names invariant ${JSON.stringify(parsed.invariant)}, which is not in the catalogue (docs/invariants.md); fix its "invariant" field or leave it out`);
  }
  return {
    simCase: { scenario: parsed.scenario, tape: parsed.tape, seed: parsed.seed ?? 0 },
    ...(parsed.invariant !== undefined && { invariant: parsed.invariant }),
    ...(isId(parsed.madeWith?.tool) && isId(parsed.madeWith?.sdk) && { madeWith: parsed.madeWith }),
    ...(parsed.origin && { origin: parsed.origin }),
    ...(legacy && { legacy }),
  };
}
