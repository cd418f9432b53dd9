import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baselinePath, knownCausesFor, loadBaseline, loadBaselines, type Baseline } from '../../src/baseline/baseline.ts';
import { entryKey, showsFinding } from '../../src/baseline/buildBaseline.ts';
import { campaignOn } from '../../src/campaign/check.ts';
import { fitToRelease } from '../../src/campaign/fitRelease.ts';
import { singleRemovals } from '../../src/campaign/minimize.ts';
import type { CheckedRunner } from '../../src/campaign/runCampaign.ts';
import { verdictOf } from '../../src/campaign/verdict.ts';
import { runChecked } from '../../src/check/index.ts';
import { MODERN_ERA, SESSION_ERA } from '../../src/model/specRevision.ts';
import { DEFAULT_PROFILES, resolveCampaignOptions, workloadKey } from '../../src/options/index.ts';
import type { SdkAdapter } from '../../src/sdk/SdkAdapter.ts';
import { runMain } from '../cli/runMain.ts';
import { modernSdk, v2Folder } from './helpers.ts';

/**
 * The baseline of the 2026-07-28 rule set on the project's 2.x pair (2.4.0):
 * `properties/baselines/@modelcontextprotocol/server@2.4.0+2026-07-28.json`. Every entry must
 * still reproduce, minimally, on that pair, and `check --spec 2026-07-28` must judge by it.
 */
describe('baseline of the 2026-07-28 rule set on the 2.x pair', () => {
  let sdk: SdkAdapter;
  let baseline: Baseline;
  let runner: CheckedRunner;
  const out = mkdtempSync(join(tmpdir(), 'mcp-sim-baseline2026-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  beforeAll(async () => {
    sdk = await modernSdk();
    baseline = loadBaseline(sdk.name, sdk.version, MODERN_ERA)!;
    runner = (scenario, options) => runChecked(scenario, { ...options, sdk });
  });

  it('should have its own file, beside the session era one, named by the rule set', () => {
    expect(basename(baselinePath(sdk.name, sdk.version))).toBe(`server@${sdk.version}.json`);
    expect(basename(baselinePath(sdk.name, sdk.version, MODERN_ERA))).toBe(`server@${sdk.version}+2026-07-28.json`);
    expect(baseline, 'npx mcp-sim baseline --spec 2026-07-28 --sdk node_modules/@modelcontextprotocol --update writes it').toBeDefined();
    expect(baseline.spec).toBe(MODERN_ERA);
    expect(loadBaselines(sdk.name, sdk.version).map((b) => b.spec ?? SESSION_ERA)).toEqual([SESSION_ERA, MODERN_ERA]);
    expect(baseline.entries.every((e) => e.variant === 'http-2026' && e.explanation.length > 80)).toBe(true);
  });

  it('should measure its rates on the very workload check --spec 2026-07-28 runs on this release', () => {
    const { options } = fitToRelease(resolveCampaignOptions({ spec: MODERN_ERA }, {}), sdk);
    expect(baseline.rateCampaign?.workload).toBe(workloadKey(options.workload));
    expect(knownCausesFor(sdk, options.workload.profiles).rateCampaign).toEqual(baseline.rateCampaign);
  });

  it('should be what a campaign of the http-2026 profile is judged against, and only that', () => {
    const session = loadBaseline(sdk.name, sdk.version)!;
    expect(knownCausesFor(sdk, ['http-2026']).causes).toHaveLength(baseline.entries.length);
    expect(knownCausesFor(sdk, DEFAULT_PROFILES).causes).toHaveLength(session.entries.length);
    // A workload of both eras: the causes of both baselines, and no rates (neither baseline's own campaign).
    const mixed = knownCausesFor(sdk, [...DEFAULT_PROFILES, 'http-2026']);
    expect(mixed.causes).toHaveLength(session.entries.length + baseline.entries.length);
    expect(mixed.rateCampaign).toBeUndefined();
  });

  it('should have every entry still reproduce, minimally (removing any action, step, tape entry or deviation loses it)', async () => {
    const stale: string[] = [];
    const notMinimal: string[] = [];
    for (const entry of baseline.entries) {
      const fires = showsFinding(runner, entry.invariant, entry.variant, entry.clause);
      if (!(await fires(entry.counterexample))) stale.push(entryKey(entry));
      for (const removal of singleRemovals(entry.counterexample)) {
        if (await fires(removal.case)) notMinimal.push(`${entryKey(entry)} without ${removal.what}`);
      }
    }
    expect(stale, 'stale: update the baseline (npx mcp-sim baseline --spec 2026-07-28 --update)').toEqual([]);
    expect(notMinimal).toEqual([]);
  });

  it('should tell known from new: a campaign that fails without the baseline passes with it, and fails again without one of its causes', async () => {
    const { options } = fitToRelease(resolveCampaignOptions({ spec: MODERN_ERA, runs: 80, shrink: false, workers: 1 }, {}), sdk);
    const known = knownCausesFor(sdk, options.workload.profiles);
    const verdictWith = async (k: typeof known) => verdictOf(await campaignOn(sdk, options, undefined, { known: k }), { failOn: options.failOn, known: k });
    expect((await verdictWith({ causes: [] })).failed).toBe(true);
    const judged = await verdictWith(known);
    expect(judged.failed, judged.fresh.map((f) => f.invariant).join(', ')).toBe(false);
    // Without the causes of the maximum total timeout, its findings are new again.
    const without = { ...known, causes: known.causes.filter((c) => c.invariant !== 'timeout.max-total') };
    expect((await verdictWith(without)).fresh.map((f) => f.invariant)).toContain('timeout.max-total');
  });

  it('should be named by check --spec 2026-07-28 and replayed by replay --baseline', async () => {
    const check = await runMain(['check', '--spec', '2026-07-28', '--sdk', v2Folder, '--runs', '60', '--no-shrink', '--workers', '1', '--all-findings', '--out', out]);
    expect(check.stdout).toMatch(
      new RegExp(`^ {2}baseline {6}@modelcontextprotocol/server@${sdk.version.replace(/\./g, '\\.')} \\(rule set 2026-07-28\\): ${baseline.entries.length} known cause`, 'm'),
    );
    expect(check.stdout).toMatch(/\(known cause: in the baseline\)/);
    expect(check.stdout).toMatch(/^PASS: /m);
    expect(check.code).toBe(0);
    const entry = entryKey(baseline.entries[0]!);
    const replay = await runMain(['replay', '--baseline', entry, '--sdk', v2Folder]);
    expect(replay.stdout).toMatch(new RegExp(`^reproduced: ${baseline.entries[0]!.invariant.replace('.', '\\.')}$`, 'm'));
  });

  it('should judge merged shards of a check --spec campaign and an explored http-2026 scenario by it too', async () => {
    const shards = ['1/2', '2/2'].map((shard, i) => ({ shard, file: join(out, `shard-${i + 1}.json`) }));
    for (const { shard, file } of shards) {
      await runMain(['check', '--spec', '2026-07-28', '--sdk', v2Folder, '--runs', '40', '--no-shrink', '--workers', '1', '--shard', shard, '--json', file, '--out', out]);
    }
    const merged = await runMain(['merge', ...shards.map((s) => s.file), '--out', out]);
    expect(merged.stdout).toMatch(/^ {2}baseline {6}@modelcontextprotocol\/server@\S+ \(rule set 2026-07-28\): /m);
    expect(merged.code).toBe(0);
    // The minimal case of a maximum total timeout not enforced: every schedule of its scenario.
    const entry = baseline.entries.find((e) => e.invariant === 'timeout.max-total')!;
    const scenarioFile = join(out, 'max-total.json');
    writeFileSync(scenarioFile, JSON.stringify(entry.counterexample.scenario));
    const explored = await runMain(['explore', '--scenario', scenarioFile, '--sdk', v2Folder, '--out', out]);
    expect(explored.stdout).toMatch(/timeout\.max-total.*\(known: the baseline explains it\)/);
    expect(explored.code).toBe(0);
  });

  it('should build a rule set baseline with baseline --spec, without the session era property cases', async () => {
    const run = await runMain(['baseline', '--spec', '2026-07-28', '--sdk', v2Folder, '--runs', '3']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}spec {6}2026-07-28$/m);
    expect(run.stdout).toMatch(/^ {2}profiles {2}http-2026$/m);
    expect(run.stdout).toMatch(/^ {2}property {2}none: /m);
    expect(run.stdout).toContain(`dry run: --update writes ${baselinePath(sdk.name, sdk.version, MODERN_ERA)}`);
    const table = await runMain(['baseline', '--spec', '2026-07-28', '--sdk', v2Folder, '--table']);
    expect(table.lines.filter((l) => l.startsWith('| `'))).toHaveLength(baseline.entries.length);
  });

  it('should refuse baseline --spec 2026-07-28 on a 1.x SDK in one line', async () => {
    // The project's installed SDK (1.x), whatever MCP_SIM_SDK the suite runs under.
    const run = await runMain(['baseline', '--spec', '2026-07-28', '--runs', '3'], { MCP_SIM_SDK: undefined });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/has no 2026-07-28 era: .*needs the 2\.x packages/);
  });
});
