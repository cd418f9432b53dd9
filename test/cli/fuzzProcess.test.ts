import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from './runMain.ts';

const fixture = 'test/target/fixtures/workServer.mjs';

/** `mcp-sim …` through the exported `main` (the commands docs/process-targets.md shows), from the repository root. */
const cli = (args: string[]) => runMain(args);

describe('mcp-sim check -- <command> / check <url> and rogue -- <command> (black box, real time)', () => {
  it('check -- <command>: a faulty server is flagged with its rates (fresh and shared), the efficiency line, and the printed replay command reproduces it with a rate', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mcp-sim-process-'));
    const found = await cli(['check', '--runs', '4', '--rate-runs', '2', '--no-shrink', '--out', out, '--json', join(out, 'report.json'), '--junit', join(out, 'junit.xml'), '--report', join(out, 'report.md'), '--', 'node', fixture, '--fault', 'total-changes']);
    expect(found.code).toBe(1);
    expect(found.stdout).toMatch(/real time \(black box\)/);
    expect(found.stdout).toMatch(/NOTE progress\.total-stable .*\n  fix \(TypeScript, tool work\): .*\n.*(reproduced 2\/2|1\/2: timing-dependent) on a fresh process; \d\/2 on shared connections/);
    expect(found.stdout).toMatch(/efficiency: [\d.]+ runs\/s .*start-up \d+ ms median .*the server worked on calls \d+% of the wall time/);
    expect(found.stdout).toMatch(/shared connections: state may carry over between cases: many cases at once on \d+ process/);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/- efficiency: /);
    const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { efficiency: { busyShare: number; startup: { processes: number } }; waits: { inFlightMs: number } };
    expect(json.efficiency.startup.processes).toBeGreaterThan(0);
    expect(json.efficiency.busyShare).toBeGreaterThanOrEqual(0);
    expect(json.waits.inFlightMs).toBeGreaterThanOrEqual(150);
    const replay = /replay: npx mcp-sim (replay \S+)/.exec(found.stdout)![1]!;
    const args = replay.match(/'[^']*'|\S+/g)!.map((a) => a.replace(/^'|'$/g, ''));
    const again = await cli([...args, '--rate-runs', '2']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/reproduced: progress\.total-stable, (reproduced 2\/2|1\/2: timing-dependent)/);
  });

  it('check -- <command> --fresh: one process per case, the report says so', async () => {
    const { code, stdout } = await cli(['check', '--runs', '3', '--fresh', '--', 'node', fixture]);
    expect(stdout).toMatch(/one process per run, \d+ at once/);
    expect(stdout).toMatch(/PASS node .*: no finding beyond the baseline in 3 runs/);
    expect(code).toBe(0);
  });

  it('check <url> --start: the correct HTTP server is clean (one server process, sessions on it, {port} filled in)', async () => {
    const { code, stdout } = await cli(['check', 'http://127.0.0.1:{port}/mcp', '--start', `node ${fixture} --http --port {port}`, '--runs', '3', '--parallel', '2']);
    expect(stdout).toMatch(/PASS http:\/\/127\.0\.0\.1:\{port\}\/mcp .*: no finding beyond the baseline in 3 runs/);
    expect(stdout).toMatch(/start-up \d+ ms median \(1 process/);
    expect(code).toBe(0);
  });

  it('rogue -- <command>: every rogue frame against the process: its answer, whether it stays usable, the model\'s findings', async () => {
    const { code, stdout } = await cli(['rogue', '--filter', 'unknown-method', '--', 'node', fixture]);
    expect(stdout).toMatch(/unknown-method-request\s+error -32601\s+ok\s+—/);
    expect(stdout).toMatch(/no findings: every rogue frame answered as the model judges, the server stayed usable \(1 kind\)/);
    expect(stdout).toMatch(/not judged from outside: whether a handler saw a cancel/);
    expect(code).toBe(0);
  });
});
