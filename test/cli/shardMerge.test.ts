import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportBody, untimedReport } from './campaignJson.ts';
import { runMain, type MainRun } from './runMain.ts';

describe('mcp-sim check --shard I/N and mcp-sim merge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-shards-'));
  const campaign = ['--seed', '5', '--runs', '120', '--actions-max', '3', '--profiles', 'memory', '--workers', '1'];
  const shard = (i: number) => join(dir, `shard-${i}.json`);
  let whole: MainRun;
  const shardRuns: MainRun[] = [];

  beforeAll(async () => {
    whole = await runMain(['check', ...campaign, '--json', join(dir, 'whole.json'), '--out', join(dir, 'whole')]);
    for (const i of [1, 2, 3]) shardRuns.push(await runMain(['check', ...campaign, '--shard', `${i}/3`, '--json', shard(i), '--out', join(dir, `s${i}`)]));
  });

  it('runs contiguous, disjoint slices of the case indices, and says which', () => {
    const slices = [1, 2, 3].map((i) => JSON.parse(readFileSync(shard(i), 'utf8')).shard);
    expect(slices).toEqual([
      { index: 1, count: 3, from: 0, to: 40 },
      { index: 2, count: 3, from: 40, to: 80 },
      { index: 3, count: 3, from: 80, to: 120 },
    ]);
    expect(shardRuns[1]!.lines).toContain('  shard         2/3: cases 40..79 of the 120-run campaign');
    expect(shardRuns[1]!.stdout).toContain('shard 2/3: cases 40..79 of the 120-run campaign; join the shards\' --json reports with mcp-sim merge');
    expect(shardRuns[1]!.stdout).toMatch(/^40 runs in /m);
  });

  it('merges, in any order, into the report of the unsharded campaign: JSON (timings aside), printed report and exit code', async () => {
    const merged = await runMain(['merge', shard(3), shard(1), shard(2), '--json', join(dir, 'merged.json'), '--junit', join(dir, 'merged.xml'), '--report', join(dir, 'merged.md'), '--out', join(dir, 'merged')]);
    expect(readFileSync(join(dir, 'merged.xml'), 'utf8')).toMatch(/<testsuite name="mcp-sim check seed=5 on @modelcontextprotocol\/sdk@/);
    expect(readFileSync(join(dir, 'merged.md'), 'utf8')).toMatch(/^## mcp-sim check: /);
    expect(merged.lines[0]).toBe('mcp-sim merge  seed=5');
    expect(merged.lines).toContain(`  shards        3: ${shard(3)}, ${shard(1)}, ${shard(2)} (made with mcp-sim@0.1.0)`);
    expect(untimedReport(join(dir, 'merged.json'))).toEqual(untimedReport(join(dir, 'whole.json')));
    expect(reportBody(merged.stdout, join(dir, 'merged'))).toEqual(reportBody(whole.stdout, join(dir, 'whole')));
    expect(merged.code).toBe(whole.code);
  });

  it('refuses shards of other campaigns, overlapping, missing or cut-short shards, and files that are no shard reports, with exit 2', async () => {
    const edited = (i: number, name: string, edit: (d: Record<string, unknown>) => void) => {
      const d = JSON.parse(readFileSync(shard(i), 'utf8')) as Record<string, unknown>;
      edit(d);
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify(d));
      return file;
    };
    const refused = async (files: string[], message: RegExp) => {
      const run = await runMain(['merge', ...files, '--out', join(dir, 'refused')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    };
    await refused([shard(1), edited(2, 'seed.json', (d) => (d['seed'] = 6)), shard(3)], /shards of different campaigns: .*shard-1\.json has seed 5, .*seed\.json has seed 6/);
    await refused([shard(1), edited(2, 'workload.json', (d) => ((d['workload'] as { actionsMax: number }).actionsMax = 4)), shard(3)], /shards of different campaigns: .* has workload .*"actionsMax":3.*"actionsMax":4/);
    await refused([shard(1), edited(2, 'sdk.json', (d) => ((d['sdk'] as { version: string }).version = '1.0.0')), shard(3)], /has SDK @modelcontextprotocol\/sdk@1\.32\.2, .* has SDK @modelcontextprotocol\/sdk@1\.0\.0/);
    await refused([shard(1), edited(2, 'tool.json', (d) => ((d['tool'] as { version: string }).version = '9.9.9')), shard(3)], /has mcp-sim mcp-sim@0\.1\.0, .* has mcp-sim mcp-sim@9\.9\.9/);
    await refused([shard(1), shard(1), shard(2), shard(3)], /overlapping shards: .*shard-1\.json and .*shard-1\.json are both shard 1\/3 \(cases 0\.\.39\)/);
    await refused([shard(1), shard(3)], /missing shard\(s\) 2\/3 \(cases 40\.\.79\) of the 120-run campaign of seed 5; got 2 of 3/);
    await refused([shard(1), edited(2, 'split.json', (d) => Object.assign(d, { shard: { index: 2, count: 4, from: 30, to: 60 }, runs: 30 })), shard(3)], /shards of different splits: .* is shard 1\/3, .* is shard 2\/4/);
    await refused([shard(1), edited(2, 'cut.json', (d) => Object.assign(d, { stopped: 'interrupted', runs: 7 })), shard(3)], /is shard 2\/3, interrupted \(Ctrl-C\) after 7 of its 40 runs: run that shard again to its end/);
    await refused([join(dir, 'whole.json')], /whole\.json is the report of a whole campaign, not of a shard/);
    await refused([edited(1, 'garbage.json', (d) => delete d['findings'])], /garbage\.json is not a campaign report/);
  });
});
