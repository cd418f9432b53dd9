import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pc from 'picocolors';
import { loadBaseline } from '../baseline/baseline.ts';
import { campaignOn } from '../campaign/check.ts';
import { formatCampaignReport } from '../report/textReport.ts';
import { replayFile } from '../campaign/replayFile.ts';
import { createProgress } from './progress.ts';
import { defaultSdk } from '../sdk/load.ts';
import { TOOL } from '../util/toolVersion.ts';
import type { ResolvedCampaignOptions } from '../options/index.ts';

/** `mcp-sim check`: seed first, the resolved options, the campaign, the report, a verdict line. */
export async function checkCommand(options: ResolvedCampaignOptions): Promise<number> {
  // Loaded before the campaign: a release is imported once, not inside its first run.
  const adapter = await defaultSdk();
  const sdk = { name: adapter.name, version: adapter.version };
  const { seed, runs, workload } = options;
  const baseline = loadBaseline(sdk.name, sdk.version);
  const known = new Set(baseline?.entries.map((e) => e.invariant) ?? []);

  console.log(pc.bold(`mcp-sim check  seed=${seed}`));
  console.log(`  sdk           ${sdk.name}@${sdk.version}`);
  console.log(`  runs          ${runs}`);
  console.log(`  profiles      ${workload.profiles.join(', ')}`);
  console.log(`  actions max   ${workload.actionsMax}`);
  console.log(`  steps max     ${workload.stepsMax}`);
  console.log(`  server reqs   ${workload.serverRequests}`);
  console.log(`  faults        ${workload.faults} (close, reconnect)`);
  console.log(`  shrink        ${options.shrink}${options.shrink ? ` (at most ${options.shrinkTimeMsMax / 1000} s per counterexample)` : ''}`);
  console.log(`  self-check    ${options.selfCheck}`);
  console.log(`  baseline      ${baseline ? `${known.size} known invariant(s)` : 'none for this SDK version'}`);

  const progress = { run: createProgress('runs'), shrink: createProgress('shrinking') };
  const report = await campaignOn(adapter, options, (done, total, phase) => {
    progress[phase].update(done, total);
    if (done === total) progress[phase].stop();
  });

  const replayFiles = new Map<string, string>();
  for (const f of report.findings) {
    if (!f.counterexample) continue;
    mkdirSync(options.reproDir, { recursive: true });
    const file = join(options.reproDir, `${f.invariant}.json`);
    writeFileSync(file, JSON.stringify(replayFile(f.invariant, f.counterexample.case, sdk, { seed, caseIndex: f.firstCase, workload }), null, 2) + '\n');
    replayFiles.set(f.invariant, file);
  }
  console.log(formatCampaignReport(report, { replayFiles, known: (id) => known.has(id), madeWith: { tool: TOOL, sdk } }));
  // The SDK facts in each run result hold RegExps, which JSON would write as `{}`: write their source.
  const asJson = (_key: string, value: unknown) => (value instanceof RegExp ? value.source : value);
  if (options.jsonFile) writeFileSync(options.jsonFile, JSON.stringify({ sdk, ...report }, asJson, 2) + '\n');

  const fresh = report.findings.filter((f) => f.example.severity === 'violation' && !known.has(f.invariant));
  const stale = [...known].filter((id) => !report.findings.some((f) => f.invariant === id));
  if (stale.length > 0) {
    console.log(pc.dim(`baseline entries not met by this campaign: ${stale.join(', ')} (the property suite checks them exactly)`));
  }
  const failed = fresh.length > 0 || report.nondeterministic.length > 0;
  console.log(
    failed
      ? pc.red(`FAIL: ${fresh.length} violation(s) not in the baseline (${fresh.map((f) => f.invariant).join(', ')}); seed=${seed}`)
      : pc.green(`PASS: no violation beyond the baseline of ${sdk.name}@${sdk.version}; seed=${seed}`),
  );
  return failed ? 1 : 0;
}
