import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pc from 'picocolors';
import { loadBaseline } from '../baseline/baseline.ts';
import { DEFAULT_CAMPAIGN_RUNS, DEFAULT_CAMPAIGN_SEED, runCampaign } from '../campaign/runCampaign.ts';
import { runChecked } from '../check/index.ts';
import { formatCampaignReport } from '../report/textReport.ts';
import { createProgress } from './progress.ts';
import { installedSdk } from './sdkInfo.ts';
import type { Profile } from '../sim/index.ts';

export interface CheckFlags {
  runs?: number;
  seed?: number;
  actionsMax: number;
  profiles: Profile[];
  serverRequests: boolean;
  faults: boolean;
  shrink: boolean;
  selfCheck?: boolean;
  json?: string;
  out: string;
}

function fromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return n;
}

/** `mcp-sim check`: seed first, the resolved options, the campaign, the report, a verdict line. */
export async function checkCommand(flags: CheckFlags): Promise<number> {
  const sdk = installedSdk();
  const seed = flags.seed ?? fromEnv('MCP_SIM_SEED') ?? DEFAULT_CAMPAIGN_SEED;
  const runs = flags.runs ?? fromEnv('MCP_SIM_RUNS') ?? DEFAULT_CAMPAIGN_RUNS;
  const constraints = {
    actionsMax: flags.actionsMax,
    serverRequests: flags.serverRequests,
    faults: flags.faults,
    profiles: flags.profiles,
  };
  const baseline = loadBaseline(sdk.name, sdk.version);
  const known = new Set(baseline?.entries.map((e) => e.invariant) ?? []);

  console.log(pc.bold(`mcp-sim check  seed=${seed}`));
  console.log(`  sdk           ${sdk.name}@${sdk.version}`);
  console.log(`  runs          ${runs}`);
  console.log(`  profiles      ${flags.profiles.join(', ')}`);
  console.log(`  actions max   ${constraints.actionsMax}`);
  console.log(`  server reqs   ${constraints.serverRequests}`);
  console.log(`  faults        ${constraints.faults} (close, reconnect)`);
  console.log(`  shrink        ${flags.shrink}`);
  console.log(`  self-check    ${Boolean(flags.selfCheck)}`);
  console.log(`  baseline      ${baseline ? `${known.size} known invariant(s)` : 'none for this SDK version'}`);

  const progress = { run: createProgress('runs'), shrink: createProgress('shrinking') };
  const report = await runCampaign({
    seed,
    runs,
    constraints,
    shrink: flags.shrink,
    selfCheck: Boolean(flags.selfCheck),
    runner: runChecked,
    onProgress: (done, total, phase) => {
      progress[phase].update(done, total);
      if (done === total) progress[phase].stop();
    },
  });

  const replayFiles = new Map<string, string>();
  for (const f of report.findings) {
    if (!f.counterexample) continue;
    mkdirSync(flags.out, { recursive: true });
    const file = join(flags.out, `${f.invariant}.json`);
    writeFileSync(file, JSON.stringify({ invariant: f.invariant, ...f.counterexample.case }, null, 2) + '\n');
    replayFiles.set(f.invariant, file);
  }
  console.log(formatCampaignReport(report, { replayFiles, known: (id) => known.has(id) }));
  if (flags.json) writeFileSync(flags.json, JSON.stringify({ sdk, ...report }, null, 2) + '\n');

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
