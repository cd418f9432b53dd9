import pc from 'picocolors';
import { baselinePath, loadBaseline, saveBaseline, type BaselineEntry } from '../baseline/baseline.ts';
import { buildBaseline, entryKey } from '../baseline/buildBaseline.ts';
import { DEFAULT_CAMPAIGN_SEED } from '../campaign/runCampaign.ts';
import { runChecked } from '../check/index.ts';
import type { Profile } from '../sim/index.ts';
import { installedSdk } from './sdkInfo.ts';
import { PROPERTY_RUNS, PROPERTY_SEED, propertyCases } from '../baseline/propertyCases.ts';

/** Runs of the baseline campaign: enough for every known race to show up on both profiles. */
export const DEFAULT_BASELINE_RUNS = 2_000;

export interface BaselineFlags {
  runs: number;
  seed?: number;
  profiles: Profile[];
  update?: boolean;
  table?: boolean;
}

/** The baseline's measurements as a Markdown table, for docs/findings.md. */
export function baselineTable(entries: readonly BaselineEntry[]): string {
  const rows = entries.map((e) => {
    const m = e.measured;
    const where = `\`${entryKey(e)}\``;
    return m
      ? `| ${where} | ${m.runsToDetect || '(property case)'} | ${m.runsToDetect ? (m.msToDetect / 1000).toFixed(2) : '–'} | ${(m.msToShrink / 1000).toFixed(2)} | ${e.counterexample.scenario.actions.length} | [${e.counterexample.tape.join(',')}] |`
      : `| ${where} | – | – | – | ${e.counterexample.scenario.actions.length} | [${e.counterexample.tape.join(',')}] |`;
  });
  const detect = entries.flatMap((e) => (e.measured?.runsToDetect ? [e.measured.msToDetect + e.measured.msToShrink] : [])).sort((a, b) => a - b);
  const median = detect.length ? detect[Math.floor(detect.length / 2)]! / 1000 : 0;
  return [
    '| entry (invariant, variant, shape) | runs to detect | s to detect | s to shrink | actions | tape |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `Median time to first detection plus shrinking: ${median.toFixed(2)} s over ${detect.length} campaign-detected entries.`,
  ].join('\n');
}

/** `mcp-sim baseline`: finds the installed SDK's violations and (with --update) writes its baseline file. */
export async function baselineCommand(flags: BaselineFlags): Promise<number> {
  const sdk = installedSdk();
  if (flags.table) {
    const existing = loadBaseline(sdk.name, sdk.version);
    if (!existing) throw new Error(`baseline --table: no baseline for ${sdk.name}@${sdk.version}; run npx mcp-sim baseline --update`);
    console.log(baselineTable(existing.entries));
    return 0;
  }
  const seed = flags.seed ?? DEFAULT_CAMPAIGN_SEED;
  const command = `npx mcp-sim baseline --runs ${flags.runs} --seed ${seed} --profiles ${flags.profiles.join(',')} --update`;
  console.log(pc.bold(`mcp-sim baseline  seed=${seed}`));
  console.log(`  sdk       ${sdk.name}@${sdk.version}`);
  console.log(`  runs      ${flags.runs}`);
  console.log(`  profiles  ${flags.profiles.join(', ')}`);
  console.log(`  property  ${PROPERTY_RUNS} cases of seed ${PROPERTY_SEED} (MCP_SIM_RUNS, MCP_SIM_SEED)`);
  const previous = loadBaseline(sdk.name, sdk.version);
  const explanations = new Map(previous?.entries.map((e) => [entryKey(e), e.explanation]));
  const baseline = await buildBaseline({
    package: sdk.name,
    version: sdk.version,
    seed,
    runs: flags.runs,
    constraints: { profiles: flags.profiles },
    runner: runChecked,
    // The property suite's own cases (MCP_SIM_RUNS, MCP_SIM_SEED): CI must not fail on known causes.
    extraCases: propertyCases(),
    explanations,
    command,
    onProgress: (m) => process.stderr.write(`${m}\n`),
  });
  for (const e of baseline.entries) {
    const m = e.measured!;
    console.log(
      `${e.invariant.padEnd(30)} ${e.variant.padEnd(20)} ${e.shape.padEnd(28)} detect: ${String(m.runsToDetect).padStart(5)} runs ${(m.msToDetect / 1000).toFixed(2).padStart(6)} s` +
        `  shrink: ${(m.msToShrink / 1000).toFixed(2).padStart(6)} s  → ${e.counterexample.scenario.actions.length} action(s), tape [${e.counterexample.tape.join(',')}]`,
    );
  }
  if (flags.update) console.log(pc.green(`wrote ${saveBaseline(baseline)}`));
  else console.log(pc.dim(`dry run: --update writes ${baselinePath(sdk.name, sdk.version)}`));
  return 0;
}
