import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportBody, untimedReport } from './campaignJson.ts';
import { runMain } from './runMain.ts';

describe('mcp-sim check --workers', () => {
  it('gives the report of one worker: same findings, run counts, first cases, shrunk counterexamples, coverage and text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-workers-'));
    const args = ['check', '--seed', '5', '--runs', '120', '--actions-max', '3', '--profiles', 'memory'];
    const one = await runMain([...args, '--workers', '1', '--json', join(dir, 'one.json'), '--out', join(dir, 'one')]);
    const two = await runMain([...args, '--workers', '2', '--json', join(dir, 'two.json'), '--out', join(dir, 'two')]);
    expect(one.lines).toContain('  workers       1 (in process)');
    expect(two.lines).toContain('  workers       2');
    const a = untimedReport(join(dir, 'one.json'));
    expect((a['findings'] as { counterexample?: unknown }[]).filter((f) => f.counterexample).length).toBeGreaterThan(3);
    expect(untimedReport(join(dir, 'two.json'))).toEqual(a);
    expect(reportBody(two.stdout, join(dir, 'two'))).toEqual(reportBody(one.stdout, join(dir, 'one')));
    expect(two.code).toBe(one.code);
  });
});
