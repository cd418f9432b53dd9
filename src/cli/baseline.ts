import pc from 'picocolors';
import { REPORT_SCHEMA_VERSION } from '../report/jsonReport.ts';
import { TOOL } from '../util/toolVersion.ts';
import { writeJsonReport } from './check.ts';
import { baselinePath, loadBaseline, saveBaseline, type BaselineEntry } from '../baseline/baseline.ts';
import { buildBaseline, entryKey } from '../baseline/buildBaseline.ts';
import { runChecked } from '../check/index.ts';
import { DEFAULT_PROFILES, DEFAULT_WORKLOAD, ENV_RUNS, ENV_SEED, SPEC_FLAG, workloadArgs, type ResolvedBaselineOptions } from '../options/index.ts';
import { defaultSdk, installedSdk } from '../sdk/load.ts';
import { fitToRelease } from '../campaign/fitRelease.ts';
import { propertyCases } from '../baseline/propertyCases.ts';
import { SESSION_ERA, type SpecRevision } from '../model/specRevision.ts';

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
export async function baselineCommand(asked: ResolvedBaselineOptions, out: { readonly json?: string } = {}): Promise<number> {
  const sdk = installedSdk();
  const { spec } = asked;
  if (asked.table) {
    const existing = loadBaseline(sdk.name, sdk.version, spec);
    if (!existing) throw new Error(`baseline --table: no baseline for ${sdk.name}@${sdk.version}${specName(spec)}; run npx mcp-sim baseline${specArgs(spec)} --update`);
    console.log(baselineTable(existing.entries));
    return 0;
  }
  // Another rule set's campaign is the one `check --spec` runs on this release: cut to it as
  // check cuts it (a 1.x release, which has no 2026-07-28 era, is refused in one line).
  const flags = spec === SESSION_ERA ? asked : fitToRelease(asked, await defaultSdk()).options;
  const { seed, runs, workload, property } = flags;
  // The profiles always, the other workload flags when they differ from the defaults (of the rule set).
  const others = workloadArgs({ ...workload, profiles: DEFAULT_PROFILES, ...(spec !== SESSION_ERA && { serverRequests: DEFAULT_WORKLOAD.serverRequests }) });
  const where = spec === SESSION_ERA ? ['--profiles', workload.profiles.join(',')] : [SPEC_FLAG, spec];
  const command = ['npx mcp-sim baseline --runs', runs, '--seed', seed, ...where, ...others, '--update'].join(' ');
  // The property suite runs the session era only: its cases belong in that baseline alone.
  const extraCases = spec === SESSION_ERA ? propertyCases(property) : [];
  console.log(pc.bold(`mcp-sim baseline  seed=${seed}`));
  console.log(`  sdk       ${sdk.name}@${sdk.version}`);
  console.log(`  spec      ${spec}`);
  console.log(`  runs      ${runs}`);
  console.log(`  profiles  ${workload.profiles.join(', ')}`);
  if (others.length > 0) console.log(`  workload  ${others.join(' ')}`);
  console.log(
    spec === SESSION_ERA
      ? `  property  ${property.runs} cases of seed ${property.seed} (${ENV_RUNS}, ${ENV_SEED})`
      : `  property  none: the property suite runs the ${SESSION_ERA} profiles, judged by that rule set's baseline`,
  );
  const previous = loadBaseline(sdk.name, sdk.version, spec);
  const explanations = new Map(previous?.entries.map((e) => [entryKey(e), e.explanation]));
  const baseline = await buildBaseline(flags, {
    package: sdk.name,
    version: sdk.version,
    spec,
    runner: runChecked,
    // The property suite's own cases (MCP_SIM_RUNS, MCP_SIM_SEED): CI must not fail on known causes.
    extraCases,
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
  const written = flags.update ? saveBaseline(baseline) : undefined;
  if (written) console.log(pc.green(`wrote ${written}`));
  else console.log(pc.dim(`dry run: --update writes ${baselinePath(sdk.name, sdk.version, spec)}`));
  if (out.json) {
    writeJsonReport(out.json, {
      schemaVersion: REPORT_SCHEMA_VERSION,
      kind: 'baseline',
      tool: TOOL,
      sdk,
      options: { seed, runs, spec, profiles: workload.profiles, workload, update: flags.update, ...(spec === SESSION_ERA && { property }) },
      ...(written && { file: written }),
      ...(baseline.rateCampaign && { rateCampaign: baseline.rateCampaign }),
      entries: baseline.entries.map((e) => ({
        entry: entryKey(e),
        invariant: e.invariant,
        ...(e.clause !== undefined && { clause: e.clause }),
        variant: e.variant,
        shape: e.shape,
        explanation: e.explanation,
        ...(e.runs !== undefined && { runs: e.runs }),
        ...(e.measured && { measured: e.measured }),
        replay: { command: `npx mcp-sim replay --baseline "${entryKey(e)}"` },
        case: e.counterexample,
      })),
    });
  }
  return 0;
}

/** How messages name a rule set's baseline: nothing for the session era, ` under rule set <spec>` otherwise. */
const specName = (spec: SpecRevision) => (spec === SESSION_ERA ? '' : ` under rule set ${spec}`);

/** The `--spec` flag a printed command needs to name `spec`'s baseline. */
const specArgs = (spec: SpecRevision) => (spec === SESSION_ERA ? '' : ` ${SPEC_FLAG} ${spec}`);
