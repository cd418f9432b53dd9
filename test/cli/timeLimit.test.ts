import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { untimedReport } from './campaignJson.ts';
import { runMain } from './runMain.ts';

describe('mcp-sim check --time-limit', () => {
  it('stops starting runs when the time is up, says so, and reports the runs done: the report of --runs <that many>', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-time-limit-'));
    const campaign = ['--seed', '9', '--profiles', 'memory', '--no-shrink', '--workers', '1'];
    const started = Date.now();
    const cut = await runMain(['check', ...campaign, '--runs', '100000', '--time-limit', '1', '--json', join(dir, 'cut.json'), '--out', dir]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(cut.lines).toContain('  time limit    1 s of runs');
    const report = JSON.parse(readFileSync(join(dir, 'cut.json'), 'utf8'));
    expect(report).toMatchObject({ stopped: 'time-limit', planned: 100_000 });
    expect(report.runs).toBeGreaterThan(0);
    expect(report.runs).toBeLessThan(100_000);
    expect(cut.stdout).toContain(`cut by the time limit: ${report.runs} of 100000 runs done (cases 0..${report.runs - 1}); the findings are those of --runs ${report.runs}`);
    expect(cut.stdout).toMatch(new RegExp(`^${report.runs} runs in `, 'm'));
    expect(cut.code).toBe(cut.lines.at(-1)!.startsWith('PASS') ? 0 : 1);

    const whole = await runMain(['check', ...campaign, '--runs', String(report.runs), '--json', join(dir, 'whole.json'), '--out', dir]);
    // The options name the runs asked for (100,000 and that many): everything else is the same report.
    const { stopped: _s, planned: _p, options: cutOptions, ...cutRest } = untimedReport(join(dir, 'cut.json'));
    const { planned, options: wholeOptions, ...wholeRest } = untimedReport(join(dir, 'whole.json'));
    expect(planned).toBe(report.runs);
    expect(cutRest).toEqual(wholeRest);
    expect({ ...(cutOptions as object), runs: report.runs }).toEqual(wholeOptions);
    expect(whole.code).toBe(cut.code);
  });

  it('without --runs, runs until the time is up; a budget the runs fit in changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-time-limit-'));
    const run = await runMain(['check', '--seed', '9', '--runs', '5', '--profiles', 'memory', '--no-shrink', '--time-limit', '600', '--json', join(dir, 'r.json'), '--out', dir]);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(report.runs).toBe(5);
    expect(report.stopped).toBeUndefined();
    expect(run.stdout).not.toContain('cut by the time limit');
    const open = await runMain(['check', '--time-limit', '0.2', '--profiles', 'memory', '--no-shrink', '--workers', '1', '--out', dir]);
    expect(open.lines).toContain('  runs          10000000');
    expect(open.stdout).toMatch(/cut by the time limit: \d+ of 10000000 runs done/);
  });
});
