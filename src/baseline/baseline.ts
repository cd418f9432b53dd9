import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_KNOWN_CAUSES, type KnownCauses } from '../campaign/knownCauses.ts';
import type { SimCase } from '../campaign/simCase.ts';
import type { InvariantId } from '../model/invariants.ts';
import { SESSION_ERA, SPEC_REVISIONS, specOf, type SpecRevision } from '../model/specRevision.ts';
import type { Profile } from '../sim/scenario.ts';
import { writeFileAtomic } from '../util/atomicWrite.ts';
import { BASELINES_DIR } from '../util/projectPaths.ts';
import type { PackageId } from '../util/toolVersion.ts';

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
  /**
   * The rule set its entries were judged by (`--spec`): a release has a baseline per rule set it
   * speaks, since the same run is judged differently under each. Absent: the session era.
   */
  readonly spec?: SpecRevision;
  /** The command that wrote it. */
  readonly command?: string;
  /** The fixed-seed campaign the entries' `runs` were counted on: seed, runs and `workloadKey` of its workload. */
  readonly rateCampaign?: { readonly seed: number; readonly runs: number; readonly workload: string };
  readonly entries: readonly BaselineEntry[];
}


/**
 * `properties/baselines/<package>@<version>.json` for the session era, `<package>@<version>+<spec>.json`
 * for another rule set (`+` is no character of a version's core, so the names never collide);
 * a scoped package makes a folder of its scope. The one place a baseline's file is named.
 */
export function baselinePath(pkg: string, version: string, spec: SpecRevision = SESSION_ERA): string {
  return join(BASELINES_DIR, `${pkg}@${version}${spec === SESSION_ERA ? '' : `+${spec}`}.json`);
}

/** The baseline of `pkg@version` under the rule set `spec` (default: the session era), if it has one. */
export function loadBaseline(pkg: string, version: string, spec: SpecRevision = SESSION_ERA): Baseline | undefined {
  const file = baselinePath(pkg, version, spec);
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Baseline;
  if (parsed.package !== pkg || parsed.version !== version || (parsed.spec ?? SESSION_ERA) !== spec || !Array.isArray(parsed.entries)) {
    throw new Error(`loadBaseline: ${file} is not a baseline of ${pkg}@${version} under rule set ${spec}`);
  }
  return parsed;
}

/** Every baseline of `pkg@version`, one per rule set that has one, in `SPEC_REVISIONS` order. */
export function loadBaselines(pkg: string, version: string): Baseline[] {
  return SPEC_REVISIONS.flatMap((spec) => loadBaseline(pkg, version, spec) ?? []);
}

export function saveBaseline(baseline: Baseline): string {
  const file = baselinePath(baseline.package, baseline.version, baseline.spec);
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
      sdk: `${baseline.package}@${baseline.version}${(baseline.spec ?? SESSION_ERA) === SESSION_ERA ? '' : ` (rule set ${baseline.spec})`}`,
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

/**
 * What a campaign of `profiles` on `sdk` is judged against: the baseline of the rule set its
 * profiles speak (`specOf`; `--spec 2026-07-28` runs `http-2026` only). A workload mixing both
 * eras gets the causes of both baselines (their variants never overlap) and no rates: it is
 * neither baseline's own campaign.
 */
export function knownCausesFor(sdk: PackageId, profiles: readonly Profile[]): KnownCauses {
  const specs = SPEC_REVISIONS.filter((spec) => profiles.some((profile) => specOf({ profile }) === spec));
  const known = specs.flatMap((spec) => {
    const baseline = loadBaseline(sdk.name, sdk.version, spec);
    return baseline ? [knownCausesOf(baseline)] : [];
  });
  if (known.length === 0) return NO_KNOWN_CAUSES;
  if (specs.length === 1) return known[0]!;
  return { sdk: `${sdk.name}@${sdk.version} (rule sets ${specs.join(', ')})`, causes: known.flatMap((k) => k.causes) };
}
