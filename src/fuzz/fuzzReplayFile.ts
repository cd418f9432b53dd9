import { readFileSync } from 'node:fs';
import type { InvariantId } from '../model/invariants.ts';
import { TOOL } from '../util/toolVersion.ts';
import type { FuzzCase } from '../workload/index.ts';

/** Version of the fuzz replay file's layout; a file of another version is refused. */
export const FUZZ_REPLAY_SCHEMA_VERSION = 1;

/** One fuzz counterexample on disk: the case, the server it ran against, what it showed, and the versions that made it. */
export interface FuzzReplayFile {
  readonly schemaVersion: number;
  readonly kind: 'fuzz';
  /** The module, as given on the command line. */
  readonly module: string;
  readonly invariant: InvariantId;
  readonly case: FuzzCase;
  readonly madeWith: { readonly tool: { readonly name: string; readonly version: string }; readonly sdk: { readonly name: string; readonly version: string } };
}

export function fuzzReplayFile(module: string, invariant: InvariantId, c: FuzzCase, sdk: { name: string; version: string }): FuzzReplayFile {
  return { schemaVersion: FUZZ_REPLAY_SCHEMA_VERSION, kind: 'fuzz', module, invariant, case: c, madeWith: { tool: { name: TOOL.name, version: TOOL.version }, sdk } };
}

/** Reads a fuzz replay file; throws with a one-line reason when it is not one mcp-sim can replay. */
export function readFuzzReplayFile(path: string): FuzzReplayFile {
  let data: Partial<FuzzReplayFile>;
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as Partial<FuzzReplayFile>;
  } catch (error) {
    throw new Error(`mcp-sim fuzz --replay: cannot read ${path}: ${(error as Error).message}`);
  }
  if (data.kind !== 'fuzz' || !data.case?.scenario) throw new Error(`mcp-sim fuzz --replay: ${path} is not a fuzz replay file (write one with mcp-sim fuzz).`);
  if (data.schemaVersion !== FUZZ_REPLAY_SCHEMA_VERSION) {
    throw new Error(`mcp-sim fuzz --replay: ${path} has schemaVersion ${String(data.schemaVersion)}; this mcp-sim reads ${FUZZ_REPLAY_SCHEMA_VERSION}. Run the campaign again to write a new one.`);
  }
  return data as FuzzReplayFile;
}
