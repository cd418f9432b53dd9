import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runMain } from '../cli/runMain.ts';
import { fuzzProcess } from '../../src/campaign/checkTarget.ts';
import { BadTargetError } from '../../src/real/index.ts';

const fixture = 'test/target/fixtures/workServer.mjs';
const server = (fault: string) => `node ${fixture} --fault ${fault}`;
/** The words after `--` that start the fixture with `fault`. */
const words = (fault: string) => ['--', 'node', fixture, '--fault', fault];

/** `mcp-sim …` through the exported `main` (the commands docs/process-targets.md shows), from the repository root. */
const cli = (args: string[]) => runMain(args);

describe('check -- <command> / check <url>: bad targets and bad black-box flags are one line and exit 2', () => {
  it.each([
    ['a command that is not found', ['--', 'no-such-server-xyz'], /cannot start "no-such-server-xyz" \(ENOENT\)|command not found.*no-such-server-xyz/],
    ['a server that exits at once', words('exits-at-once'), /exited \(code 1\); stderr: fatal: no config file before it answered initialize/],
    ['a program that is not MCP', words('not-mcp'), /not an MCP server: it wrote "Hello! Type a command:"/],
    ['a server of an unknown protocol version', words('old-protocol'), /protocol version "2023-01-01"/],
    ['a URL that refuses', ['http://127.0.0.1:9/mcp'], /refused the connection or cannot be reached/],
    ['--start without a URL', ['--start', 'y', '--', 'x'], /--start starts a server that listens on a URL: give the URL as the target/],
    ['a module-only flag', ['--config', '{}', '--', 'x'], /--config does not apply to a stdio server process/],
    ['an --args file that is not argument sets by tool', ['--args', 'package.json', '--', 'x'], /--args \(argsFile\) .*does not hold argument sets by tool/],
    ['--tool-duration without a duration', ['--tool-duration', 'work', '--', 'x'], /--tool-duration .*must be a tool's name, =, and its expected duration in ms/],
    ['--tool-duration of a tool the server does not list', ['--tool-duration', 'nope=100', '--runs', '1', ...words('none')], /--tool-duration names "nope", which .* does not list as a tool it calls \(work\)/],
    ['--fresh and --reuse at once', ['--fresh', '--reuse', '--', 'x'], /--fresh .*asks for one process per case, and --reuse for shared connections/],
  ])('Bad target: %s', async (_what, args, message) => {
    const { code, stderr } = await cli(['check', ...args]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it('check <url> --start whose server answers initialize with HTTP 500: one line at once, exit 2, and the process it started is gone', async () => {
    const { code, stderr } = await cli(['check', 'http://127.0.0.1:{port}/mcp', '--start', 'node test/target/fixtures/httpError.mjs {port}', '--runs', '2']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/answered the POST of initialize with HTTP 500 \("internal error: no database"\), not a JSON-RPC answer/);
    const alive = spawnSync('pgrep', ['-f', 'fixtures/httpError.mjs']);
    expect(alive.status).toBe(1);
  });

  it('a server refused mid-campaign (stdout that is not JSON-RPC) ends the process at once, exit 2, however many runs were asked: no case waits for a lane of a closed campaign', () => {
    // As its own process: a loop left polling for a lane kept the CLI alive after it printed the refusal.
    const run = spawnSync(process.execPath, ['bin/mcp-sim.js', 'check', '--runs', '60', '--', 'node', 'test/realtime/fixtures/printsToStdout.mjs'], { encoding: 'utf8', timeout: 90_000 });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^mcp-sim: the server wrote a line that is not JSON-RPC on stdout/m);
  }, 120_000);

  it('check --args FILE -- <command>: the tool is called with those arguments only; a tool the server does not list is refused', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-args-'));
    // The progress-own-token fault fails every case with a progress token: the shrunk case keeps the user's set whole.
    const report = await fuzzProcess({ command: server('progress-own-token') }, { runs: 3, rateRuns: 1, parallel: 1, args: { work: [{ steps: 1, stepMs: 7 }] } });
    const minimal = report.findings.find((f) => f.invariant === 'progress.token-requested')?.minimal;
    expect(minimal?.calls.map((c) => c.arguments)).toEqual([{ steps: 1, stepMs: 7 }]);
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ nope: [{}] }));
    const { code, stderr } = await cli(['check', '--runs', '1', '--args', join(dir, 'other.json'), ...words('none')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--args names tool "nope", which the server does not list/);
  });

  it('fuzzProcess: a bad target throws BadTargetError (kind exited)', async () => {
    await expect(fuzzProcess({ command: server('exits-at-once') }, { runs: 1 })).rejects.toMatchObject({ name: 'BadTargetError', kind: 'exited' });
    expect(BadTargetError).toBeDefined();
  });
});
