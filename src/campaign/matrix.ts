import type { ResolvedCampaignOptions } from '../options/index.ts';
import type { SdkAdapter } from '../sdk/index.ts';
import { campaignOn } from './check.ts';
import { fitToRelease, type LeftOut } from './fitRelease.ts';
import type { KnownCauses } from './knownCauses.ts';
import type { CampaignReport } from './runCampaign.ts';

/** One release's column of a version matrix. */
export interface MatrixColumn {
  readonly sdk: { readonly name: string; readonly version: string; readonly root: string };
  readonly report: CampaignReport;
  /** What the campaign left out for this release (`fitToRelease`). */
  readonly leftOut: readonly LeftOut[];
  /** What it ran on this release with a limit (`fitToRelease`). */
  readonly limits: readonly LeftOut[];
}

/**
 * The same campaign on several SDK releases, one after another in this process: "which release
 * should I pin, and when did this break?" Each release runs the campaign cut to what it offers,
 * judged against its own baseline (`knownFor`). Releases load side by side (one adapter each), so
 * their runs never share module state.
 */
export async function versionMatrix(
  releases: readonly SdkAdapter[],
  options: ResolvedCampaignOptions,
  knownFor: (sdk: SdkAdapter) => KnownCauses,
  onRelease?: (sdk: SdkAdapter, position: number) => void,
): Promise<MatrixColumn[]> {
  const columns: MatrixColumn[] = [];
  for (const [i, sdk] of releases.entries()) {
    onRelease?.(sdk, i + 1);
    const fitted = fitToRelease(options, sdk);
    const report = await campaignOn(sdk, fitted.options, undefined, { known: knownFor(sdk) });
    columns.push({ sdk: { name: sdk.name, version: sdk.version, root: sdk.root }, report, leftOut: fitted.leftOut, limits: fitted.limits });
  }
  return columns;
}

/**
 * The matrix as Markdown: a row per invariant broken on some release, a column per release; a
 * cell is the runs it was found in (`new` marks findings the release's baseline does not explain),
 * `–` when not found. Findings are comparable across releases only on the same cases, so the
 * header names each column's profiles when a release ran fewer.
 */
export function formatMatrix(columns: readonly MatrixColumn[]): string {
  const ids = [...new Set(columns.flatMap((c) => c.report.findings.map((f) => f.invariant)))].sort();
  const head = columns.map((c) => `${c.sdk.version}${c.leftOut.length > 0 ? ` (${c.report.workload.profiles.join(',')})` : ''}`);
  const lines = [`| invariant | ${head.join(' | ')} |`, `|---|${columns.map(() => '---|').join('')}`];
  for (const id of ids) {
    const cells = columns.map((c) => {
      const f = c.report.findings.find((x) => x.invariant === id);
      if (!f) return '–';
      return `${f.runs}${f.fresh ? ' new' : ''}`;
    });
    lines.push(`| \`${id}\` | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
