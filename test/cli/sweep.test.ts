import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from './runMain.ts';

describe('mcp-sim check --seeds A..B', () => {
  it('runs one campaign per seed and prints one combined report: a verdict per seed, the union of new violations, one exit code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-sweep-'));
    const run = await runMain(['check', '--seeds', '3..5', '--runs', '20', '--profiles', 'memory', '--actions-max', '3', '--json', join(dir, 'sweep.json'), '--out', join(dir, 'repro')]);
    expect(run.lines[0]).toBe('mcp-sim check  seeds=3..5');
    const sweep = JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8'));
    expect(sweep.seeds.map((s: { seed: number }) => s.seed)).toEqual([3, 4, 5]);
    for (const s of sweep.seeds) {
      expect(s.report).toMatchObject({ seed: s.seed, runs: 20 });
      expect(run.stdout).toMatch(new RegExp(`^(PASS|FAIL) seed ${s.seed}: 20 runs, ${s.report.findings.length} invariant\\(s\\) broken, ${s.fresh.length} finding\\(s\\) beyond the baseline at --fail-on should`, 'm'));
      expect(s.verdict).toBe(s.fresh.length > 0 || s.report.nondeterministic.length > 0 ? 'fail' : 'pass');
    }
    // Each seed's counterexamples in a folder of their own.
    expect(readdirSync(join(dir, 'repro')).sort()).toEqual(['seed-3', 'seed-4', 'seed-5']);
    const failed = sweep.seeds.filter((s: { verdict: string }) => s.verdict === 'fail');
    expect(run.stdout).toContain(`sweep of seeds 3..5: 3 of 3 seed(s) run, ${failed.length} failed`);
    const union = new Set(sweep.seeds.flatMap((s: { fresh: string[] }) => s.fresh));
    expect(sweep.fresh.map((f: { invariant: string }) => f.invariant).sort()).toEqual([...union].sort());
    expect(run.code).toBe(failed.length > 0 ? 1 : 0);
    expect(run.lines.at(-1)).toMatch(failed.length > 0 ? /^FAIL: .*; seeds=3\.\.5$/ : /^PASS: .*; seeds=3\.\.5$/);
  });

  it('refuses a sweep with --seed or --shard, and a backwards range', async () => {
    for (const [args, message] of [
      [['--seeds', '1..3', '--seed', '2'], /--seeds \(seeds\) = "1..3": is a sweep over seeds, and a single seed is given too/],
      [['--seeds', '1..3', '--shard', '1/2'], /--shard \(shard\) = "1\/2": splits one campaign, and --seeds runs several/],
      [['--seeds', '5..1'], /--seeds \(seeds\) = "5..1": runs from 5 down to 1\. Fix: give the smaller seed first: --seeds 1..5/],
    ] as const) {
      const run = await runMain(['check', ...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});
