import pc from 'picocolors';
import { pool } from '../campaign/real/pool.ts';
import { determinismOf } from '../campaign/real/rate.ts';
import { realCampaign, runAndJudge, type RealCampaignReport } from '../campaign/real/realCampaign.ts';
import { invariants, type InvariantId } from '../model/invariants.ts';
import { DEFAULT_CAMPAIGN_SEED, DEFAULT_RATE_RUNS } from '../options/defaults.ts';
import { resolveRealCampaignOptions } from '../options/realCampaignOptions.ts';
import { targetKind } from '../targets/kinds.ts';
import { TargetArgumentError, type RealTarget, type SpecOf } from '../targets/Target.ts';
import { sdkTestbedManifest, sdkTestbedReleases } from '../targets/testbed/sdkTestbed.ts';
import type { SdkTestbedLanguage } from '../targets/testbed/languages.ts';
import { layerOfCase, type TestbedCase } from '../targets/testbed/testbedCases.ts';
import { writeFileAtomic } from '../util/atomicWrite.ts';
import { usageExit } from './usageExit.ts';

/** The flags `matrix` and `bisect` take for a test bed's releases (real time). */
export interface TargetReleasesFlags {
  readonly runs?: number;
  readonly seed?: number;
  readonly parallel?: number;
  readonly rateRuns?: number;
  readonly report?: string;
}

const DEFAULT_RELEASE_RUNS = 20;

/** The releases named, or the manifest's pinned ones, oldest first. */
function releasesOf(language: string, list: readonly string[] | undefined): readonly string[] {
  if (list !== undefined && list.length > 0) return list;
  const manifest = sdkTestbedManifest(language as SdkTestbedLanguage);
  if (!manifest) throw new TargetArgumentError(`mcp-sim: no test bed yet for ${language} (testbeds/${language}/testbed.json).`);
  return sdkTestbedReleases(manifest).map((r) => r.version).reverse();
}

/** `spec` at `release`, opened (installed first when missing). */
async function openAt(spec: SpecOf<'testbed'>, release: string): Promise<RealTarget> {
  const kind = await targetKind('testbed');
  return kind.openReal!({ ...spec, release } as never, { graceMs: resolveRealCampaignOptions({}, { userServer: false }).bounds.graceMs, say: (line) => process.stderr.write(`${line}\n`) });
}

/** One release's campaign (same seed, same cases on each): its findings by cause, each with its rate. */
async function campaignAt(spec: SpecOf<'testbed'>, release: string, flags: TargetReleasesFlags): Promise<RealCampaignReport> {
  const options = resolveRealCampaignOptions({ runs: flags.runs ?? DEFAULT_RELEASE_RUNS, seed: flags.seed, parallel: flags.parallel, rateRuns: flags.rateRuns ?? 3 }, { userServer: false });
  const target = await openAt(spec, release);
  process.stderr.write(`  ${target.describe().label}: ${options.runs} runs\n`);
  return realCampaign(target, { seed: options.seed, runs: options.runs, parallel: options.parallel, bounds: options.bounds, rateRuns: options.rateRuns, shrink: true });
}

/**
 * `matrix testbed:<language> --releases A,B,…`: the same campaign (seed, cases) on each release,
 * one table: invariant × release, each cell the rate of that release's minimal case (–: not seen,
 * or not confirmed). Exit 0 with the table, 2 bad input.
 */
export async function matrixTargetCommand(spec: SpecOf<'testbed'>, releases: readonly string[] | undefined, flags: TargetReleasesFlags): Promise<number> {
  try {
    const versions = releasesOf(spec.language, releases);
    console.log(pc.bold(`mcp-sim matrix testbed:${spec.language}  seed=${flags.seed ?? DEFAULT_CAMPAIGN_SEED}  (real time)  ${versions.join(', ')} over ${spec.transport ?? 'stdio'}, ${spec.layer === undefined ? 'both layers' : `${spec.layer} layer`}`));
    const columns: { version: string; findings: Map<string, string>; speed: string; lacks: readonly string[] }[] = [];
    for (const version of versions) {
      const report = await campaignAt(spec, version, flags);
      // Both layers: a row per invariant and layer, so what one layer shows is never filed under the other.
      const row = (f: RealCampaignReport['findings'][number]) => (spec.layer === undefined ? `${f.invariant} (${layerOfCase(f.minimal as TestbedCase)} layer)` : f.invariant);
      columns.push({ version, findings: new Map(report.findings.filter((f) => f.confirmed).map((f) => [row(f), `${f.rate.hits}/${f.rate.runs}`])), speed: `${report.runsPerSecond} runs/s`, lacks: [] });
    }
    const rows = [...new Set(columns.flatMap((c) => [...c.findings.keys()]))].sort();
    const table = [
      `| invariant | ${columns.map((c) => c.version).join(' | ')} |`,
      `|---|${columns.map(() => '---').join('|')}|`,
      ...rows.map((id) => `| \`${id}\` | ${columns.map((c) => c.findings.get(id) ?? '–').join(' | ')} |`),
      `| speed | ${columns.map((c) => c.speed).join(' | ')} |`,
    ].join('\n');
    console.log(rows.length === 0 ? `no confirmed finding on any release in ${flags.runs ?? DEFAULT_RELEASE_RUNS} runs each` : table);
    if (flags.report !== undefined) writeFileAtomic(flags.report, `${table}\n`, { mkdir: true });
    return 0;
  } catch (error) {
    return usageExit(error);
  }
}

/**
 * `bisect testbed:<language> --invariant ID [--releases A,B,…]`: the release (oldest first) where
 * a finding of `ID` appears or disappears. The campaign runs on the oldest release (then the
 * newest, if the oldest does not show it) for a minimal case; that case is re-run `--rate-runs`
 * times on every release, and the first release whose state differs from the one before is
 * named, with the rates on both sides. Exit 0 a change found, 1 none, 2 bad input.
 */
export async function bisectTargetCommand(spec: SpecOf<'testbed'>, invariant: string, releases: readonly string[] | undefined, flags: TargetReleasesFlags): Promise<number> {
  try {
    const versions = releasesOf(spec.language, releases);
    const id = invariant as InvariantId;
    if (!invariants.has(id)) throw new TargetArgumentError(`mcp-sim bisect testbed:${spec.language}: --invariant ${invariant}: no such invariant (docs/invariants.md lists them; a test bed's findings are searched by id, without a clause)`);
    console.log(pc.bold(`mcp-sim bisect testbed:${spec.language} --invariant ${id}  seed=${flags.seed ?? DEFAULT_CAMPAIGN_SEED}  (real time)  ${versions.join(' → ')} over ${spec.transport ?? 'stdio'}, ${spec.layer === undefined ? 'both layers' : `${spec.layer} layer`}`));
    let minimal: unknown;
    for (const version of [versions[0]!, versions.at(-1)!]) {
      const report = await campaignAt(spec, version, flags);
      const f = report.findings.find((x) => x.invariant === id && x.confirmed);
      if (f) {
        minimal = f.minimal;
        console.log(`minimal case from ${version}:`);
        for (const line of f.steps) console.log(`  ${line}`);
        break;
      }
    }
    if (minimal === undefined) {
      console.log(pc.red(`${id} not seen on ${versions[0]} nor ${versions.at(-1)} in ${flags.runs ?? DEFAULT_RELEASE_RUNS} runs: nothing to bisect`));
      return 1;
    }
    const rateRuns = flags.rateRuns ?? DEFAULT_RATE_RUNS;
    const rates: { version: string; hits: number }[] = [];
    for (const version of versions) {
      const target = await openAt(spec, version);
      const bounds = resolveRealCampaignOptions({}, { userServer: false }).bounds;
      const again = await pool(Array.from({ length: rateRuns }), flags.parallel ?? 2, () => runAndJudge(target, minimal, bounds));
      const hits = again.filter((r) => r.findings.some((x) => x.invariant === id)).length;
      rates.push({ version, hits });
      console.log(`  ${version}: ${hits > 0 ? `shows ${id}, ${determinismOf(hits, rateRuns)}` : `does not show it (0/${rateRuns})`}`);
    }
    const change = rates.findIndex((r, k) => k > 0 && r.hits > 0 !== rates[k - 1]!.hits > 0);
    if (change === -1) {
      console.log(pc.yellow(`no change: the minimal case ${rates[0]!.hits > 0 ? 'fails' : 'passes'} on every release`));
      return 1;
    }
    const before = rates[change - 1]!;
    const at = rates[change]!;
    const rate = (r: { hits: number }) => `${r.hits}/${rateRuns}`;
    console.log(pc.green(`${at.hits > 0 ? `${id} appears in` : `${id} is fixed in`} ${at.version}: its minimal case fails ${rate(before)} on ${before.version}, ${rate(at)} on ${at.version}`));
    return 0;
  } catch (error) {
    return usageExit(error);
  }
}
