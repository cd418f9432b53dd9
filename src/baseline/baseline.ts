import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_KNOWN_CAUSES, type KnownCauses } from '../campaign/knownCauses.ts';
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
  /** The clause of the invariant its finding breaks (`Finding.clause`), when the invariant's findings name one. */
  readonly clause?: string;
  /** What goes wrong, in a sentence or two. */
  readonly explanation: string;
  readonly counterexample: SimCase;
  /**
   * Runs of the baseline's rate campaign (`Baseline.rateCampaign`) in which this cause was counted:
   * a campaign of the same workload expects it in about `runs / rateCampaign.runs` of its runs,
   * and a significant excess is a regression (`src/campaign/rateCheck.ts`).
   */
  readonly runs?: number;
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
  /** The fixed-seed campaign the entries' `runs` were counted on: seed, runs and `workloadKey` of its workload. */
  readonly rateCampaign?: { readonly seed: number; readonly runs: number; readonly workload: string };
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

const known = new WeakMap<Baseline, KnownCauses>();

/** The baseline as what a campaign is judged against (no baseline: nothing is known). */
export function knownCausesOf(baseline: Baseline | undefined): KnownCauses {
  if (!baseline) return NO_KNOWN_CAUSES;
  let k = known.get(baseline);
  if (!k) {
    k = {
      sdk: `${baseline.package}@${baseline.version}`,
      causes: baseline.entries.map((e) => ({
        invariant: e.invariant,
        variant: e.variant,
        shape: e.shape,
        ...(e.clause !== undefined && { clause: e.clause }),
        ...(e.runs !== undefined && { runs: e.runs }),
      })),
      ...(baseline.rateCampaign && { rateCampaign: baseline.rateCampaign }),
    };
    known.set(baseline, k);
  }
  return k;
}
