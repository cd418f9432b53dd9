/**
 * `npm run hostile [-- --runs N] [-- --only a,b]`: runs `mcp-sim check` against servers that
 * misbehave on purpose (test/realtime/fixtures/hostileServer.mjs, printsToStdout.mjs,
 * prints_to_stdout.py) and prints a Markdown table: fixture, wall time, its budget, what mcp-sim
 * ended with (its findings, or the exit-2 refusal), and the peak RSS of the mcp-sim process.
 *
 * Each check runs as its own `node bin/mcp-sim.js` process (the CLI, in one process: from src/
 * through tsx, or dist/ when it is current); its peak RSS is the kernel's high-water mark of that
 * process (`VmHWM` in /proc/<pid>/status), read every 50 ms until it exits: the server processes
 * it starts are not counted. The budget is a stated wall time per fixture (a campaign of `--runs`
 * with its shrinking and rate re-runs, as `check` runs by default); a run past it is stopped and
 * shown as such. Exits 1 when a fixture does not end with what it should, or past its budget, or
 * over `PEAK_RSS_MB_MAX`: a measurement, so no test asserts on its timings.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = resolve(import.meta.dirname, '..');
const fixtures = join(root, 'test', 'realtime', 'fixtures');
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = option('--runs') ?? '4';
const only = option('--only')?.split(',');
const python = join(process.env.MCP_SIM_EXAMPLES_CACHE ?? join(root, 'node_modules', '.cache', 'mcp-sim', 'examples'), 'python', 'venv', 'bin', 'python');

/** The most mcp-sim may hold at its peak, whatever the server sends. */
const PEAK_RSS_MB_MAX = 300;

/** One hostile server, what `check` must end with, and the wall time it has. */
export interface HostileFixture {
  readonly name: string;
  readonly command: readonly string[];
  /** Every invariant id the findings must hold, or `refused`: exit 2 with that line. */
  readonly expect: { readonly findings: readonly string[] } | { readonly refused: RegExp };
  readonly budgetS: number;
}

const hostile = join(fixtures, 'hostileServer.mjs');
export const HOSTILE_FIXTURES: readonly HostileFixture[] = [
  { name: '200,000 progress notifications on one call', command: ['node', hostile, '--mode', 'progress-flood'], expect: { findings: ['progress.rate-limited'] }, budgetS: 300 },
  { name: 'a 200 MB line with no newline', command: ['node', hostile, '--mode', 'huge-frame'], expect: { findings: ['rpc.frame-size'] }, budgetS: 300 },
  { name: '20,000 log notifications on every call', command: ['node', hostile, '--mode', 'log-flood', '--count', '20000'], expect: { findings: ['rpc.rate-limited'] }, budgetS: 300 },
  { name: 'console.log on stdout (node)', command: ['node', join(fixtures, 'printsToStdout.mjs')], expect: { refused: /not JSON-RPC on stdout: "handling call/ }, budgetS: 60 },
  { name: 'print() on stdout (python)', command: [python, join(fixtures, 'prints_to_stdout.py')], expect: { refused: /not JSON-RPC on stdout: "handling call/ }, budgetS: 60 },
  { name: 'the same server, correct (none)', command: ['node', hostile, '--mode', 'none'], expect: { findings: [] }, budgetS: 120 },
];

/** The peak RSS of `pid` so far, MB (its VmHWM), or 0 once it is gone. */
function peakMb(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

interface Measured {
  readonly wallS: number;
  readonly code: number | null;
  readonly ended: string;
  readonly peakMb: number;
  readonly ok: boolean;
}

async function measure(f: HostileFixture): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-hostile-'));
  const json = join(dir, 'report.json');
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'bin', 'mcp-sim.js'), 'check', '--runs', runs, '--json', json, '--out', join(dir, 'repro'), '--', ...f.command], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-20_000)));
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, peakMb(child.pid!))), 50);
  let stopped = false;
  const budget = setTimeout(() => {
    stopped = true;
    child.kill('SIGTERM');
  }, f.budgetS * 1000);
  const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
  clearInterval(poll);
  clearTimeout(budget);
  const wallS = (performance.now() - started) / 1000;
  let ended: string;
  let ok: boolean;
  if (stopped) {
    ended = `stopped at its budget (${f.budgetS} s)`;
    ok = false;
  } else if (code === 2) {
    const line = stderr.split('\n').find((l) => l.startsWith('mcp-sim: ')) ?? '(no line)';
    ended = `exit 2: ${line.slice(0, 90)}…`;
    ok = 'refused' in f.expect && f.expect.refused.test(line);
  } else if (!existsSync(json)) {
    ended = `exit ${code}, no report`;
    ok = false;
  } else {
    const report = JSON.parse(readFileSync(json, 'utf8')) as { findings: { invariant: string }[] };
    const ids = [...new Set(report.findings.map((x) => x.invariant))];
    ended = `exit ${code}: ${ids.length > 0 ? ids.join(', ') : 'no finding'}`;
    ok = 'findings' in f.expect && (f.expect.findings.length === 0 ? ids.length === 0 : f.expect.findings.every((id) => ids.includes(id)));
  }
  rmSync(dir, { recursive: true, force: true });
  return { wallS, code, ended, peakMb: peak, ok: ok && wallS <= f.budgetS && peak < PEAK_RSS_MB_MAX };
}

const picked = HOSTILE_FIXTURES.filter((f) => !only || only.some((o) => f.name.includes(o)));
console.log(`mcp-sim check --runs ${runs} against hostile servers (peak RSS: the mcp-sim process, VmHWM; must stay under ${PEAK_RSS_MB_MAX} MB)\n`);
console.log('| fixture | wall time | budget | ended with | peak RSS |');
console.log('|---|---|---|---|---|');
let failed = 0;
for (const f of picked) {
  const m = await measure(f);
  if (!m.ok) failed++;
  console.log(`| ${f.name} | ${m.wallS.toFixed(1)} s | ${f.budgetS} s | ${m.ended}${m.ok ? '' : ' **(not as expected)**'} | ${m.peakMb.toFixed(0)} MB |`);
}
process.exitCode = failed > 0 ? 1 : 0;
