import pc from 'picocolors';
import { knownCausesOf, loadBaseline } from '../baseline/baseline.ts';
import { formatMatrix, versionMatrix } from '../campaign/matrix.ts';
import type { ResolvedCampaignOptions } from '../options/index.ts';
import { parseSdkChoice, sdkFolderOf } from '../sdk/install.ts';
import { loadSdk, type SdkAdapter } from '../sdk/index.ts';

/**
 * `mcp-sim matrix --sdk A,B,…`: the same campaign (seed, runs, workload) on each release, then one
 * table, invariant × release, of the runs each invariant was broken in. Releases are versions
 * (installed into mcp-sim's cache) or folders, as `--sdk` takes them. Exit 0: a table is a
 * measurement, not a verdict (use check on the release you pin).
 */
export async function matrixCommand(list: string, options: ResolvedCampaignOptions): Promise<number> {
  const choices = list.split(',').map((x) => x.trim()).filter(Boolean);
  if (choices.length === 0) throw new Error('matrix: --sdk needs at least one release (versions or folders, comma-separated)');
  const releases: SdkAdapter[] = [];
  for (const choice of choices) {
    const folder = await sdkFolderOf(parseSdkChoice(choice), { onInstall: (m) => process.stderr.write(`${m}\n`) });
    releases.push(await loadSdk(folder === undefined ? { kind: 'installed' } : { kind: 'folder', path: folder }));
  }
  console.log(pc.bold(`mcp-sim matrix  seed=${options.seed}`));
  console.log(`  runs          ${options.runs} per release`);
  console.log(`  releases      ${releases.map((r) => `${r.name}@${r.version}`).join(', ')}`);
  const columns = await versionMatrix(releases, options, (sdk) => knownCausesOf(loadBaseline(sdk.name, sdk.version)), (sdk, i) =>
    process.stderr.write(`release ${i} of ${releases.length}: ${sdk.name}@${sdk.version}\n`),
  );
  for (const c of columns) for (const l of c.leftOut) console.log(pc.yellow(`  ${c.sdk.version}: left out ${l.what}: ${l.why}`));
  for (const c of columns) for (const l of c.limits) console.log(pc.yellow(`  ${c.sdk.version}: limit ${l.what}: ${l.why}`));
  console.log('');
  console.log(formatMatrix(columns));
  console.log('');
  console.log('Cells: runs of the campaign that broke the invariant; "new": the release\'s baseline does not explain it (no baseline: every finding is new).');
  return 0;
}
