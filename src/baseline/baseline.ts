import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SimCase } from '../campaign/simCase.ts';
import type { InvariantId } from '../model/invariants.ts';
import { writeFileAtomic } from '../util/atomicWrite.ts';

/** One violation known for an SDK version, with the minimal case that shows it. */
export interface BaselineEntry {
  readonly invariant: InvariantId;
  /** Transport variant it was found on (`variantOf`). */
  readonly variant: string;
  /** Features of the minimal case (`shapeOf`): one entry per distinct cause. */
  readonly shape: string;
  /** What goes wrong, in a sentence or two. */
  readonly explanation: string;
  readonly counterexample: SimCase;
  /** How the fixed-seed campaign found and shrank it, for the findings table. */
  readonly measured?: {
    readonly runsToDetect: number;
    readonly msToDetect: number;
    readonly msToShrink: number;
    readonly shrinks: number;
    readonly removals: number;
  };
}

export interface Baseline {
  readonly package: string;
  readonly version: string;
  /** The command that wrote it. */
  readonly command?: string;
  readonly entries: readonly BaselineEntry[];
}

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `properties/baselines/<package>@<version>.json`; a scoped package makes a folder of its scope. */
export function baselinePath(pkg: string, version: string): string {
  return join(projectRoot, 'properties', 'baselines', `${pkg}@${version}.json`);
}

export function loadBaseline(pkg: string, version: string): Baseline | undefined {
  const file = baselinePath(pkg, version);
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Baseline;
  if (parsed.package !== pkg || parsed.version !== version || !Array.isArray(parsed.entries)) {
    throw new Error(`loadBaseline: ${file} is not a baseline of ${pkg}@${version}`);
  }
  return parsed;
}

export function saveBaseline(baseline: Baseline): string {
  const file = baselinePath(baseline.package, baseline.version);
  // Atomically: an interrupted update leaves the old baseline, never half a file.
  writeFileAtomic(file, JSON.stringify(baseline, null, 2) + '\n', { mkdir: true });
  return file;
}
