import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `mcp-sim check` in a child process and sends it SIGINT once it has printed progress. */
function interruptedCheck(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/mcp-sim.js', 'check', ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      if (!sent && /^runs: \d+\/100000/m.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('Ctrl-C during mcp-sim check', () => {
  it.each([['1'], ['2']])(
    'with --workers %s: stops after the current run, prints and writes the report of the runs done, exits 130',
    async (workers) => {
      const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-sigint-'));
      const json = join(dir, 'report.json');
      const run = await interruptedCheck(['--runs', '100000', '--profiles', 'memory', '--workers', workers, '--json', json, '--out', join(dir, 'repro')]);
      expect(run.code, run.stderr).toBe(130);
      expect(run.stderr).toContain('mcp-sim: interrupted: stopping after the current run');
      const report = JSON.parse(readFileSync(json, 'utf8'));
      expect(report).toMatchObject({ stopped: 'interrupted', planned: 100_000 });
      expect(report.runs).toBeGreaterThan(0);
      expect(report.runs).toBeLessThan(100_000);
      expect(run.stdout).toContain(`interrupted (Ctrl-C): ${report.runs} of 100000 runs done (cases 0..${report.runs - 1}); not shrunk`);
      expect(run.stdout).toMatch(new RegExp(`^${report.runs} runs in [\\d.]+ s`, 'm'));
      expect(run.stdout).toMatch(/^(PASS|FAIL): .*; seed=20261130$/m);
      // Interrupted in the runs: nothing shrunk, so no replay file; no temporary file left behind.
      expect(report.findings.every((f: { counterexample?: unknown }) => f.counterexample === undefined)).toBe(true);
      expect(readdirSync(dir)).toEqual(['report.json']);
    },
    60_000,
  );
});
