import { exec } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from './runMain.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
for (const k of ['FORCE_COLOR', 'MCP_SIM_RUNS', 'MCP_SIM_SEED', 'MCP_SIM_INJECT_FAULT', 'MCP_SIM_SDK']) delete env[k];

/** Runs one command line through the shell, in the project's folder, as a user pastes it; never rejects. */
function sh(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    exec(command, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

/**
 * `--spec 2026-07-28` on a project folder holding only the 2.x client and server (the project's
 * own 2.4.0 devDependencies, linked), as a user's project would.
 */
describe('mcp-sim --spec 2026-07-28', () => {
  let folder: string;
  let out: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'mcp-sim-2x-'));
    out = join(folder, 'repro');
    mkdirSync(join(folder, 'node_modules', '@modelcontextprotocol'), { recursive: true });
    for (const p of ['client', 'server']) symlinkSync(join(root, 'node_modules', '@modelcontextprotocol', p), join(folder, 'node_modules', '@modelcontextprotocol', p));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('should refuse a 1.x SDK with one line and exit 2: the revision needs the 2.x packages', async () => {
    const run = await runMain(['check', '--spec', '2026-07-28', '--runs', '5']);
    expect(run.code).toBe(2);
    const lines = run.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/@modelcontextprotocol\/sdk@1\.\d+\.\d+ has no 2026-07-28 era: .*needs the 2\.x packages/);
  });

  it('should refuse an unknown revision and a clashing profile with one line and exit 2', async () => {
    const bogus = await runMain(['check', '--spec', '2024-01-01', '--runs', '5']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/--spec \(spec\) = "2024-01-01": is no rule set mcp-sim has; it has 2025-11-25 and 2026-07-28/);
    const clash = await runMain(['check', '--spec', '2026-07-28', '--profiles', 'memory', '--runs', '5']);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toMatch(/--profiles .* names memory, which speak revision 2025-11-25, and --spec 2026-07-28 runs http-2026 only/);
  });

  it('should run a campaign on the 2.x folder, say what it does not judge, and print replay commands that reproduce in a fresh process', async () => {
    const check = await sh(`node bin/mcp-sim.js check --spec 2026-07-28 --sdk ${folder} --runs 25 --no-shrink --workers 1 --all-findings --out ${out}`);
    expect(check.stdout).toMatch(/^ {2}sdk {11}@modelcontextprotocol\/server@2\.4\.0$/m);
    expect(check.stdout).toMatch(/^ {2}profiles {6}http-2026$/m);
    expect(check.stdout).toMatch(/^ {2}spec {10}2026-07-28/m);
    expect(check.stdout).toMatch(/^ {2}not judged {4}http\.disconnect-not-cancel: inverted/m);
    const replays = [...check.stdout.matchAll(/^ {4}replay(?: the original case)?: (npx mcp-sim replay .*)$/gm)].map((m) => m[1]!);
    expect(replays.length).toBeGreaterThan(0);
    // The first two findings' commands.
    for (const printed of replays.slice(0, 2)) {
      const run = await sh(printed.replace(/^npx mcp-sim /, 'node bin/mcp-sim.js '));
      expect(run.stdout, printed).toMatch(/^reproduced: /m);
    }
  }, 120_000);
});
