import { readFileSync } from 'node:fs';
import type { InvariantId } from '../model/invariants.ts';
import type { ProcessTargetSpec } from './fuzzProcess.ts';
import type { Plan } from '../real/plan.ts';

/** A black-box finding's minimal case as a file: `fuzz --stdio CMD --replay FILE` runs it again and reports its rate. */
export interface ProcessReplayFile {
  readonly kind: 'fuzz-process';
  readonly invariant: InvariantId;
  readonly target: ProcessTargetSpec;
  readonly plan: Plan;
  readonly bounds: { readonly hangAfterMs: number; readonly inFlightMs: number; readonly graceMs: number };
  readonly rate: { readonly hits: number; readonly runs: number };
}

/** Reads a replay file written by a process campaign; one-line error otherwise. */
export function readProcessReplayFile(file: string): ProcessReplayFile {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`mcp-sim fuzz --replay ${file}: cannot read it as JSON (${(error as Error).message}).`);
  }
  if (typeof data !== 'object' || data === null || (data as { kind?: unknown }).kind !== 'fuzz-process') {
    throw new Error(`mcp-sim fuzz --replay ${file}: not a replay file of a process campaign (kind "fuzz-process"); a module's replay file takes \`fuzz <module> --replay\`.`);
  }
  return data as ProcessReplayFile;
}
