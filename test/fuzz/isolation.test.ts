import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fuzzServer, type FuzzReport } from '../../src/fuzz/index.ts';
import { createServer as slowSteps } from './fixtures/slowSteps.ts';

/**
 * Runs are isolated from what a server leaves behind (timers, promises settled late, module
 * state), never overlap, and never end `fuzz` with exit 2 for what the server does.
 */
const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

/** The report without its timings (`durationMs`, `runsPerSecond`): what must not change between identical commands. */
const timingsAside = ({ durationMs: _d, runsPerSecond: _r, ...rest }: FuzzReport) => rest;

describe('fuzz: runs isolated from what the server leaves behind', () => {
  it('five runs of the same fuzz command on a server that leaves timers and late promises behind give five identical JSON reports (timings aside), exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-isolation-'));
    const reports: unknown[] = [];
    for (let n = 0; n < 5; n++) {
      const file = join(dir, `report-${n}.json`);
      const exit = await run(process.execPath, ['bin/mcp-sim.js', 'fuzz', 'test/fuzz/fixtures/leftovers.ts', '--runs', '10', '--json', file, '--quiet'], { cwd: root }).then(
        () => 0,
        (error: { code?: number }) => error.code,
      );
      expect(exit).toBe(1);
      reports.push(timingsAside(JSON.parse(readFileSync(file, 'utf8')) as FuzzReport));
    }
    for (const r of reports.slice(1)) expect(r).toEqual(reports[0]);
    const first = reports[0] as Omit<FuzzReport, 'durationMs' | 'runsPerSecond'>;
    // The late promises make a handler of one run work in the next: reported as state kept across runs.
    expect(first.stateful).toBe(true);
    const ids = first.findings.filter((f) => f.owner === 'server').map((f) => f.invariant);
    expect(ids).toEqual(expect.arrayContaining(['leak.timers', 'progress.increasing', 'cancel.zombie-work']));
  }, 240_000);

  it('shrinking the crash report\'s server with a wall-clock budget shorter than one run never overlaps runs, and says the counterexample was cut short', async () => {
    const report = await fuzzServer(slowSteps, { runs: 10, shrinkTimeMsMax: 20 });
    const shrunk = report.findings.filter((f) => f.counterexample !== undefined);
    expect(report.findings.filter((f) => f.owner === 'server').map((f) => f.invariant)).toContain('cancel.zombie-work');
    expect(shrunk.length).toBeGreaterThan(0);
    for (const f of shrunk) expect(f.counterexample!.cutShort).toBe('time');
    // The runs of the campaign after shrinking still start clean: the same case, the same trace.
    const again = await fuzzServer(slowSteps, { runs: 10, shrink: false });
    expect(again.findings.map((f) => [f.invariant, f.runs, f.firstCase])).toEqual(report.findings.map((f) => [f.invariant, f.runs, f.firstCase]));
  }, 60_000);
});
