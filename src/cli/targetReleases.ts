import pc from 'picocolors';
import { DEFAULT_CAMPAIGN_SEED, DEFAULT_RATE_RUNS } from '../options/defaults.ts';
import { describePlan, determinismOf, pool, type Plan } from '../realtime/index.ts';
import { checkTestbed, runTestbedCase, sdkTestbedManifest, sdkTestbedReleases, testbedBounds, endpointOf, type SdkTestbedLanguage, type SdkTestbedTransport } from '../targets/testbed/index.ts';
import type { InvariantId } from '../model/invariants.ts';
import { writeFileAtomic } from '../util/atomicWrite.ts';
import { BadInput, badInputExit, checkTransport, languageOf, resolveTestbed, transportOf, type CheckTargetFlags } from './checkTarget.ts';

/** The flags `matrix --target` and `bisect --target` share. */
export interface TargetReleasesFlags extends Pick<CheckTargetFlags, 'target' | 'sdkVersion' | 'transport' | 'runs' | 'seed' | 'parallel' | 'rateRuns'> {
  /** `matrix`: the releases, comma-separated; `bisect`: the releases searched (default: the manifest's). */
  sdkVersion?: string;
  markdown?: string;
}

const DEFAULT_RELEASE_RUNS = 20;

/** The releases named, or the manifest's pinned ones, oldest first. */
function releasesOf(language: SdkTestbedLanguage, list: string | undefined): string[] {
  if (list !== undefined) return list.split(',').map((v) => v.trim()).filter(Boolean);
  const manifest = sdkTestbedManifest(language);
  if (!manifest) throw new BadInput(`mcp-sim: no test bed yet for ${language} (testbeds/${language}/testbed.json).`);
  return sdkTestbedReleases(manifest).map((r) => r.version).reverse();
}

/** One release's campaign (same seed, same cases on each): its confirmed findings by invariant, with rate and minimal case. */
async function campaignOf(language: SdkTestbedLanguage, version: string, transport: SdkTestbedTransport, flags: TargetReleasesFlags) {
  const testbed = await resolveTestbed(language, version);
  checkTransport(testbed, transport);
  process.stderr.write(`  ${testbed.manifest.sdk.name} ${version}: ${flags.runs ?? DEFAULT_RELEASE_RUNS} runs over ${transport}\n`);
  return checkTestbed(testbed, {
    transport,
    runs: flags.runs ?? DEFAULT_RELEASE_RUNS,
    seed: flags.seed ?? DEFAULT_CAMPAIGN_SEED,
    ...(flags.parallel !== undefined && { parallel: flags.parallel }),
    rateRuns: flags.rateRuns ?? 3,
  });
}

/**
 * `matrix --target L --sdk-version A,B,…`: the same test-bed campaign (seed, cases) on each
 * release, one table: invariant × release, each cell the rate of that release's minimal case (–:
 * not seen, or not confirmed). Exit 0 with the table, 2 bad input.
 */
export async function matrixTargetCommand(flags: TargetReleasesFlags): Promise<number> {
  try {
    const language = languageOf(flags.target);
    const transport = transportOf(flags.transport);
    const versions = releasesOf(language, flags.sdkVersion);
    console.log(pc.bold(`mcp-sim matrix --target ${language}  seed=${flags.seed ?? DEFAULT_CAMPAIGN_SEED}  (black box, real time)  ${versions.join(', ')} over ${transport}`));
    const columns: { version: string; findings: Map<InvariantId, string>; speed: string; lacks: readonly string[] }[] = [];
    for (const version of versions) {
      const report = await campaignOf(language, version, transport, flags);
      columns.push({ version, findings: new Map(report.findings.filter((f) => f.confirmed).map((f) => [f.invariant, `${f.rate.hits}/${f.rate.runs}`])), speed: `${report.runsPerSecond} runs/s`, lacks: report.lacks });
    }
    const rows = [...new Set(columns.flatMap((c) => [...c.findings.keys()]))].sort();
    const table = [
      `| invariant | ${columns.map((c) => c.version).join(' | ')} |`,
      `|---|${columns.map(() => '---').join('|')}|`,
      ...rows.map((id) => `| \`${id}\` | ${columns.map((c) => c.findings.get(id) ?? '–').join(' | ')} |`),
      `| speed | ${columns.map((c) => c.speed).join(' | ')} |`,
    ].join('\n');
    console.log(rows.length === 0 ? `no confirmed finding on any release in ${flags.runs ?? DEFAULT_RELEASE_RUNS} runs each` : table);
    for (const c of columns) for (const l of c.lacks) console.log(pc.yellow(`  ${c.version} lacks: ${l}`));
    if (flags.markdown !== undefined) writeFileAtomic(flags.markdown, `${table}\n`, { mkdir: true });
    return 0;
  } catch (error) {
    return badInputExit(error);
  }
}

/**
 * `bisect --target L --invariant ID`: the release (oldest first) where a finding of `ID` appears or
 * disappears. The campaign runs on the oldest release (then the newest, if the oldest does not
 * show it) for a minimal case; that case is re-run `--rate-runs` times on every release, and the
 * first release whose state differs from the one before is named, with the rates on both sides.
 * Exit 0 a change found, 1 none (the same on every release), 2 bad input.
 */
export async function bisectTargetCommand(flags: TargetReleasesFlags & { invariant: string }): Promise<number> {
  try {
    const language = languageOf(flags.target);
    const transport = transportOf(flags.transport);
    const versions = releasesOf(language, flags.sdkVersion);
    const id = flags.invariant as InvariantId;
    console.log(pc.bold(`mcp-sim bisect --target ${language} --invariant ${id}  seed=${flags.seed ?? DEFAULT_CAMPAIGN_SEED}  (black box, real time)  ${versions.join(' → ')} over ${transport}`));
    let minimal: Plan | undefined;
    for (const version of [versions[0]!, versions.at(-1)!]) {
      const report = await campaignOf(language, version, transport, flags);
      const f = report.findings.find((x) => x.invariant === id && x.confirmed);
      if (f) {
        minimal = f.minimal;
        console.log(`minimal case from ${version}:`);
        for (const line of describePlan(f.minimal)) console.log(`  ${line}`);
        break;
      }
    }
    if (!minimal) {
      console.log(pc.red(`${id} not seen on ${versions[0]} nor ${versions.at(-1)} in ${flags.runs ?? DEFAULT_RELEASE_RUNS} runs: nothing to bisect`));
      return 1;
    }
    const rateRuns = flags.rateRuns ?? DEFAULT_RATE_RUNS;
    const bounds = testbedBounds();
    const rates: { version: string; hits: number }[] = [];
    for (const version of versions) {
      const testbed = await resolveTestbed(language, version);
      checkTransport(testbed, transport);
      const target = endpointOf(testbed, transport);
      const again = await pool(Array.from({ length: rateRuns }), flags.parallel ?? 2, () => runTestbedCase(target, minimal, bounds));
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
    return badInputExit(error);
  }
}
