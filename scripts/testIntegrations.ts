// `npm run test:integrations`: the test suites of the pytest plugin (integrations/pytest, in the venv
// `npm run integrations` makes) and the Go helper (integrations/go), each on mcp-sim's example
// servers of its language (`npm run examples` builds them). Each suite's own report is counted:
// pytest's JUnit XML and `go test -json`'s events, one line each, then one
// "integrations: N passed, N failed" line (.ci/run adds it to its own). Exit 1 when any test
// failed or a suite could not run (a suite that cannot run counts as one failed test).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const cache = process.env.MCP_SIM_INTEGRATIONS_CACHE ?? join(root, 'node_modules', '.cache', 'mcp-sim', 'integrations');
const env = { ...process.env, MCP_SIM: process.env.MCP_SIM ?? `node ${join(root, 'bin', 'mcp-sim.js')}` };

interface Counts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

/** Runs a command with its output shown as it comes (and kept); resolves with its exit code and stdout. */
function run(command: string, args: readonly string[], cwd: string, show: (chunk: string) => void = (c) => process.stdout.write(c)): Promise<{ readonly code: number; readonly stdout: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
      show(c);
    });
    child.on('error', (e) => done({ code: 127, stdout: `${stdout}${e.message}\n` }));
    child.on('close', (code) => done({ code: code ?? 1, stdout }));
  });
}

/** pytest on integrations/pytest/tests, counted from its JUnit XML (tests, failures, errors, skipped). */
async function pytestSuite(): Promise<Counts> {
  const python = join(cache, 'pytest', 'venv', 'bin', 'python');
  if (!existsSync(python)) {
    console.log(`pytest: no test venv at ${python}: run \`npm run integrations\` first`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-pytest-'));
  try {
    const xml = join(dir, 'junit.xml');
    const { code } = await run(python, ['-m', 'pytest', 'integrations/pytest/tests', '-q', '-p', 'no:cacheprovider', `--junitxml=${xml}`], root);
    const suite = existsSync(xml) ? /<testsuite\b[^>]*>/.exec(readFileSync(xml, 'utf8'))?.[0] : undefined;
    const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite ?? '')?.[1] ?? 0);
    if (!suite) return { passed: 0, failed: 1, skipped: 0 };
    const failed = attr('failures') + attr('errors');
    const counts = { passed: attr('tests') - failed - attr('skipped'), failed, skipped: attr('skipped') };
    // pytest failed without a failing test (a collection or usage error): one failure, never a pass.
    return code !== 0 && counts.failed === 0 ? { ...counts, failed: 1 } : counts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `go test -json ./...` in integrations/go, counted from its pass/fail/skip events of tests. */
async function goSuite(): Promise<Counts> {
  let shown = '';
  // The JSON stream as go test prints it without -json: each event's output line.
  const show = (chunk: string) => {
    shown += chunk;
    const lines = shown.split('\n');
    shown = lines.pop()!;
    for (const line of lines) {
      try {
        const e = JSON.parse(line) as { Action?: string; Output?: string };
        if (e.Action === 'output' && e.Output) process.stdout.write(e.Output);
      } catch {
        process.stdout.write(`${line}\n`);
      }
    }
  };
  const { code, stdout } = await run('go', ['test', '-json', '-count=1', './...'], join(root, 'integrations', 'go'), show);
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const e = JSON.parse(line) as { Action?: string; Test?: string };
    if (e.Test === undefined) continue;
    if (e.Action === 'pass') counts.passed++;
    else if (e.Action === 'fail') counts.failed++;
    else if (e.Action === 'skip') counts.skipped++;
  }
  return code !== 0 && counts.failed === 0 ? { ...counts, failed: 1 } : counts;
}

const started = performance.now();
const suites: [string, Counts][] = [];
for (const [name, suite] of [['pytest', pytestSuite], ['go test', goSuite]] as const) {
  const t = performance.now();
  const counts = await suite();
  suites.push([name, counts]);
  console.log(`${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${((performance.now() - t) / 1000).toFixed(1)} s)`);
}
const passed = suites.reduce((n, [, c]) => n + c.passed, 0);
const failed = suites.reduce((n, [, c]) => n + c.failed, 0);
console.log(`integrations: ${passed} passed, ${failed} failed (${((performance.now() - started) / 1000).toFixed(1)} s)`);
process.exitCode = failed === 0 ? 0 : 1;
