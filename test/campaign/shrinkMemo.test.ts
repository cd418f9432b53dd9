import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownCausesFor } from '../../src/baseline/baseline.ts';
import { loadShrinkMemo } from '../../src/baseline/shrinkMemoFile.ts';
import { runChecked } from '../../src/check/index.ts';
import { runCampaign, shrinkCounterexample, type CheckedRunner } from '../../src/campaign/runCampaign.ts';
import { knownDigest, ShrinkMemo } from '../../src/campaign/shrinkMemo.ts';
import type { ResolvedWorkload } from '../../src/options/index.ts';
import { resolveCampaignOptions } from '../../src/options/index.ts';
import { defaultSdk } from '../../src/sdk/index.ts';
import { runMain } from '../cli/runMain.ts';
import { standInRunner } from './standIn.ts';

/**
 * Kept shrinks (src/campaign/shrinkMemo.ts) may stand in for shrinking only while they are what
 * shrinking gives: the installed SDK's memo, re-shrunk here task by task, must match entry for
 * entry (a change of the harness, the model or the shrinker that changes a shrink fails this
 * test: `npx mcp-sim check --record-shrinks` writes the memo again), and a campaign that takes
 * them reports exactly what one that shrinks afresh reports.
 */
const timing = new Set(['durationMs', 'wallMs', 'runWallMs', 'runsPerSecond']);
const withoutTiming = (json: string) => JSON.stringify(JSON.parse(json), (k, v: unknown) => (timing.has(k) ? undefined : v));

describe('kept shrinks', () => {
  it("the installed SDK's kept shrinks are what shrinking each task afresh gives", async () => {
    const sdk = await defaultSdk();
    const memo = loadShrinkMemo(sdk.name, sdk.version);
    expect(memo.size).toBeGreaterThan(0);
    const runner: CheckedRunner = (scenario, options) => runChecked(scenario, { ...options, sdk });
    for (const entry of memo.entries()) {
      const workload = JSON.parse(entry.key.workload) as ResolvedWorkload;
      const known = knownCausesFor(sdk, workload.profiles);
      if (entry.key.fresh) expect(entry.key.known, 'a fresh task kept under other known causes: record again').toBe(knownDigest(known));
      const fresh = await shrinkCounterexample({ invariant: entry.key.invariant, fcSeed: entry.key.fcSeed, ...(entry.key.fresh && { fresh: true }) }, { runner, workload, shrinkTimeMsMax: 60_000, known });
      expect({ invariant: entry.key.invariant, case: fresh?.case, fcPath: fresh?.fcPath, shrinks: fresh?.shrinks, removals: fresh?.removals }).toEqual({
        invariant: entry.key.invariant,
        case: entry.case,
        fcPath: entry.fcPath,
        shrinks: entry.shrinks,
        removals: entry.removals,
      });
    }
  }, 120_000);

  it('check with kept shrinks writes the very report check --fresh-shrinks writes (seed 20261130, 300 runs)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-kept-'));
    try {
      const kept = await runMain(['check', '--runs', '300', '--json', join(dir, 'kept.json'), '--out', dir]);
      const fresh = await runMain(['check', '--runs', '300', '--fresh-shrinks', '--json', join(dir, 'fresh.json'), '--out', dir]);
      expect(kept.stdout).toMatch(/shrinking +\d+ of \d+ counterexample\(s\) kept from properties\/baselines\//);
      expect(fresh.stdout).not.toMatch(/kept from/);
      expect(kept.code).toBe(fresh.code);
      expect(withoutTiming(readFileSync(join(dir, 'kept.json'), 'utf8'))).toBe(withoutTiming(readFileSync(join(dir, 'fresh.json'), 'utf8')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a kept case that no longer shows its invariant is not used: the task is shrunk as usual', async () => {
    const options = resolveCampaignOptions({ seed: 99, runs: 10, workload: { actionsMax: 4 }, shrinkTimeMsMax: 5_000 }, {});
    const plain = await runCampaign(options, { runner: standInRunner });
    const recorded = new ShrinkMemo();
    await runCampaign(options, { runner: standInRunner, recordShrinks: recorded });
    expect(recorded.size).toBe(plain.findings.length);
    // Every kept case emptied (no action, the memory profile): it shows no invariant of the stand-in oracle.
    const wrong = new ShrinkMemo(recorded.entries().map((e) => ({ ...e, case: { ...e.case, scenario: { ...e.case.scenario, profile: 'memory' as const, actions: [] } } })));
    let kept = -1;
    const again = await runCampaign(options, { runner: standInRunner, shrinkMemo: wrong, onShrinksKept: (n) => (kept = n) });
    expect(kept).toBe(0);
    expect(again.findings.map((f) => f.counterexample?.case)).toEqual(plain.findings.map((f) => f.counterexample?.case));
    // The right ones are taken, and give the same counterexamples.
    const right = await runCampaign(options, { runner: standInRunner, shrinkMemo: recorded, onShrinksKept: (n) => (kept = n) });
    expect(kept).toBe(plain.findings.length);
    expect(right.findings.map((f) => f.counterexample)).toEqual(plain.findings.map((f) => f.counterexample));
  });
});
