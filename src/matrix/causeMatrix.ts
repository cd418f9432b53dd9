import { buildBaseline, entryKey } from '../baseline/buildBaseline.ts';
import type { BaselineEntry } from '../baseline/baseline.ts';
import { fitToRelease, ReleaseCannotRunError, type LeftOut } from '../campaign/fitRelease.ts';
import type { CheckedRunner } from '../campaign/runCampaign.ts';
import { runChecked } from '../check/index.ts';
import type { ResolvedCampaignOptions, ResolvedWorkload } from '../options/index.ts';
import type { SdkAdapter } from '../sdk/index.ts';
import { realGlobals } from '../sim/realGlobals.ts';
import type { SimCase } from '../campaign/simCase.ts';
import { messageOf } from '../util/errors.ts';

/**
 * A version matrix by cause: the same campaign (seed, runs, workload) on each release, its
 * findings told apart the way a baseline tells them apart (`buildBaseline`: invariant, clause,
 * transport variant and the features of the minimal case), so two causes of one invariant are two
 * rows, and every violated cell has a minimal counterexample of its own.
 */

/** One release to put in the matrix: what `--sdk` named, and how to load it (install, import). */
export interface MatrixRelease {
  /** What the user named: a version, a folder or `installed`. */
  readonly choice: string;
  /** Loads the release; throws (install failed, adapter refused it) for a release that cannot be driven. */
  readonly load: () => Promise<SdkAdapter>;
}

/** What the matrix campaign is: a campaign's seed, runs and workload, and the shrinking budget per cause. */
export type MatrixCampaign = Pick<ResolvedCampaignOptions, 'seed' | 'runs' | 'workload'> & { readonly shrinkTimeMsMax: number };

/** One cause found on a release: a baseline entry of that release's campaign (its `runs` counted on it). */
export type CauseFound = BaselineEntry & { readonly key: string; readonly runs: number };

/** A release's column: it ran (its causes), or it cannot be driven (why). */
export type MatrixColumn =
  | {
      readonly status: 'ran';
      readonly choice: string;
      readonly sdk: { readonly name: string; readonly version: string; readonly root: string };
      /** The profiles it ran: the campaign's, cut by `fitToRelease`. */
      readonly profiles: ResolvedWorkload['profiles'];
      readonly leftOut: readonly LeftOut[];
      readonly limits: readonly LeftOut[];
      /** Cases it ran: the campaign's cases of its profiles (the same cases on every release). */
      readonly runs: number;
      readonly wallMs: number;
      readonly causes: readonly CauseFound[];
    }
  | {
      readonly status: 'cannot';
      readonly choice: string;
      readonly sdk?: { readonly name: string; readonly version: string; readonly root: string };
      /** One line: the install failed, the adapter refused the release, or every profile was left out. */
      readonly reason: string;
    };

/** Where the matrix stands, for a progress line per release. */
export interface MatrixProgress {
  readonly position: number;
  readonly total: number;
  readonly column: MatrixColumn;
}

/**
 * The column of one release: load it, cut the campaign to what it offers, run it and shrink each
 * cause. Whatever stops a release (install, load, a workload it cannot run, a run that throws)
 * makes a column with the reason, so one bad release never hides the others.
 */
export async function matrixColumn(
  release: MatrixRelease,
  campaign: MatrixCampaign,
  options: { readonly runnerFor?: (sdk: SdkAdapter) => CheckedRunner; readonly onProgress?: (message: string) => void } = {},
): Promise<MatrixColumn> {
  let sdk: SdkAdapter;
  try {
    sdk = await release.load();
  } catch (error) {
    return { status: 'cannot', choice: release.choice, reason: oneLine(messageOf(error)) };
  }
  const id = { name: sdk.name, version: sdk.version, root: sdk.root };
  let fitted: ReturnType<typeof fitToRelease>;
  try {
    fitted = fitToRelease(campaign, sdk);
  } catch (error) {
    if (!(error instanceof ReleaseCannotRunError)) throw error;
    return { status: 'cannot', choice: release.choice, sdk: id, reason: oneLine(error.message) };
  }
  const runner = options.runnerFor?.(sdk) ?? ((scenario, o) => runChecked(scenario, { ...o, sdk }));
  const started = realGlobals.Date.now();
  // The cases are drawn with the whole workload and those of a left-out profile are not run, so a
  // memory case is the same case on a release with http and on one without.
  const profiles: readonly string[] = fitted.options.workload.profiles;
  let runs = 0;
  const only = (c: SimCase) => {
    if (!profiles.includes(c.scenario.profile)) return false;
    runs++;
    return true;
  };
  // Drawn with every profile (above), but with the call options and methods the release lacks
  // stripped after the draw (`leaveOut`), as `check` runs it on that release.
  const { leaveOut } = fitted.options.workload;
  const workload = leaveOut ? { ...campaign.workload, leaveOut } : campaign.workload;
  try {
    const built = await buildBaseline(
      { seed: campaign.seed, runs: campaign.runs, workload, shrinkTimeMsMax: campaign.shrinkTimeMsMax },
      { package: sdk.name, version: sdk.version, runner, only, ...(options.onProgress && { onProgress: options.onProgress }) },
    );
    return {
      status: 'ran',
      choice: release.choice,
      sdk: id,
      profiles: fitted.options.workload.profiles,
      leftOut: fitted.leftOut,
      limits: fitted.limits,
      runs,
      wallMs: realGlobals.Date.now() - started,
      causes: built.entries.map((e) => ({ ...e, key: entryKey(e), runs: e.runs ?? 0 })),
    };
  } catch (error) {
    return { status: 'cannot', choice: release.choice, sdk: id, reason: `running its campaign failed: ${oneLine(messageOf(error))}` };
  }
}

/** The matrix: one column per release, in the order given, one release after another. */
export async function causeMatrix(
  releases: readonly MatrixRelease[],
  campaign: MatrixCampaign,
  options: Parameters<typeof matrixColumn>[2] & { readonly onRelease?: (p: MatrixProgress) => void; readonly onStart?: (position: number, total: number, choice: string) => void } = {},
): Promise<MatrixColumn[]> {
  const columns: MatrixColumn[] = [];
  for (const [i, release] of releases.entries()) {
    options.onStart?.(i + 1, releases.length, release.choice);
    const column = await matrixColumn(release, campaign, options);
    columns.push(column);
    options.onRelease?.({ position: i + 1, total: releases.length, column });
  }
  return columns;
}

const oneLine = (text: string) => text.split('\n')[0]!.trim();
