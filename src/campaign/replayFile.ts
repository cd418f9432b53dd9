import { readFileSync } from 'node:fs';
import { replayCaseCommand, type ResolvedWorkload } from '../options/index.ts';
import type { SimCase } from './simCase.ts';

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
 * the invariant it shows, and where it came from, so the original case can be drawn again.
 */
export interface ReplayFile extends SimCase {
  readonly invariant: string;
  /** Absent for cases that were not drawn by a campaign (a failing property's, a hand-written one). */
  readonly origin?: CaseOrigin;
}

/** The replay file of `simCase`, which shows `invariant`, shrunk from case `caseIndex` of campaign `seed` when given. */
export function replayFile(
  invariant: string,
  simCase: SimCase,
  from?: { readonly seed: number; readonly caseIndex: number; readonly workload: ResolvedWorkload },
): ReplayFile {
  const { scenario, tape, seed } = simCase;
  return {
    invariant,
    scenario,
    tape,
    seed,
    ...(from && {
      origin: { campaignSeed: from.seed, caseIndex: from.caseIndex, workload: from.workload, command: replayCaseCommand(from.seed, from.caseIndex, from.workload) },
    }),
  };
}

/** Reads a replay file, with an error that says what is wrong with it and what it should be. */
export function readReplayFile(path: string): { readonly simCase: SimCase; readonly origin?: CaseOrigin } {
  let parsed: Partial<ReplayFile>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ReplayFile>;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.message;
    throw new Error(`replay: cannot read ${path}: ${why}; give a file that mcp-sim check or a failing property wrote (.mcp-sim/repro/*.json)`);
  }
  if (!parsed || typeof parsed.scenario !== 'object' || parsed.scenario === null || !Array.isArray(parsed.tape)) {
    throw new Error(`replay: ${path} has no "scenario" and "tape"; it should be a file written by mcp-sim check`);
  }
  return {
    simCase: { scenario: parsed.scenario, tape: parsed.tape, seed: parsed.seed ?? 0 },
    ...(parsed.origin && { origin: parsed.origin }),
  };
}
