/**
 * The black-box campaign's speed, measured in one run on one machine (issue 32):
 * `node --import tsx bench/compareBlackBox.ts [--tree /work/main-ref] [--languages python,java] [--runs N]`.
 *
 * For each language's `correct` example server over stdio (examples/servers/<language>/servers.json,
 * built by `npm run examples`; `MCP_SIM_EXAMPLES_CACHE` says where), the default campaign of this
 * tree on shared connections (its default), the same with `--fresh` (one process per case), and,
 * with `--tree`, the same campaign of another checkout (read only, e.g. the tree before shared
 * connections; its old spelling `fuzz --stdio` when it has no `check -- <command>`): wall time from
 * spawn to exit, the runs/s and start-up it printed, its verdict and the invariant ids it named,
 * then the ratios of wall time. Same seed everywhere; nothing asserted (a machine is noisy:
 * numbers for a note, not a test).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

const flags = new Command()
  .name('bench/compareBlackBox.ts')
  .option('--tree <dir>', 'another checkout (with node_modules) to run the same campaign with, read only')
  .option('--languages <list>', 'the languages whose correct example server is measured', 'python,java')
  .option('--runs <n>', 'runs per campaign (default: each tree its own default)')
  .option('--seed <n>', 'the campaign seed of every run', '20261130')
  .parse()
  .opts<{ tree?: string; languages: string; runs?: string; seed: string }>();

const cacheRoot = process.env.MCP_SIM_EXAMPLES_CACHE ?? join(ROOT, 'node_modules', '.cache', 'mcp-sim', 'examples');

/** The `correct` server's stdio command of `language`, its `{cache}` and `{dir}` filled in. */
function correctServer(language: string): { command: string[]; cwd: string } {
  const dir = join(ROOT, 'examples', 'servers', language);
  const manifest = JSON.parse(readFileSync(join(dir, 'servers.json'), 'utf8')) as { servers: { name: string; stdio?: string[] }[] };
  const stdio = manifest.servers.find((s) => s.name === 'correct')?.stdio;
  if (!stdio) throw new Error(`${language}: no correct server over stdio in servers.json`);
  return { command: stdio.map((w) => w.replaceAll('{cache}', join(cacheRoot, language)).replaceAll('{dir}', dir)), cwd: dir };
}

interface Measured {
  readonly label: string;
  readonly wallMs: number;
  readonly code: number | null;
  readonly runsPerSecond: string;
  readonly startup: string;
  readonly verdict: string;
  readonly ids: string;
}

const quote = (w: string) => (/^[\w./=:{}-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`);

/** One campaign of the mcp-sim in `tree` against `server`, timed from spawn to exit. */
function measure(label: string, tree: string, server: { command: string[]; cwd: string }, extra: string[]): Measured {
  const out = mkdtempSync(join(tmpdir(), 'mcp-sim-bb-'));
  const common = ['--seed', flags.seed, '--out', out, ...(flags.runs ? ['--runs', flags.runs] : [])];
  // The front door (`check -- <command>`) where the tree has it; the old spelling before it.
  const args = existsSync(join(tree, 'src', 'cli', 'front.ts')) ? ['check', ...common, ...extra, '--', ...server.command] : ['fuzz', '--stdio', server.command.map(quote).join(' '), ...common, ...extra];
  const started = performance.now();
  const r = spawnSync(process.execPath, [join(tree, 'bin', 'mcp-sim.js'), ...args], { cwd: tree, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, MCP_SIM_EXAMPLES_CACHE: cacheRoot } });
  const wallMs = Math.round(performance.now() - started);
  const text = `${r.stdout}\n${r.stderr}`;
  const rate = /(?:speed|efficiency): ([\d.]+) runs\/s/.exec(text)?.[1] ?? '?';
  const startup = /start-up (\d+) ms/.exec(text)?.[1] ?? '?';
  const verdict = /^(PASS|FAIL)\b/m.exec(text)?.[1] ?? `exit ${r.status}`;
  const ids = [...new Set([...text.matchAll(/^(?:VIOLATION|WARNING|NOTE) ([a-z]+\.[a-z0-9-]+)/gm)].map((m) => m[1]!))].sort().join(', ') || '-';
  return { label, wallMs, code: r.status, runsPerSecond: rate, startup, verdict, ids };
}

const rows: string[] = ['| server | campaign | wall | runs/s | start-up (median) | verdict | ids | wall vs this tree, shared |', '|---|---|---|---|---|---|---|---|'];
for (const language of flags.languages.split(',')) {
  const server = correctServer(language);
  const shared = measure('this tree, shared connections (default)', ROOT, server, []);
  const fresh = measure('this tree, --fresh', ROOT, server, ['--fresh']);
  const before = flags.tree ? [measure(`${flags.tree} (default)`, resolve(flags.tree), server, [])] : [];
  for (const m of [shared, fresh, ...before]) {
    const row = `| ${language} correct (stdio) | ${m.label} | ${(m.wallMs / 1000).toFixed(1)} s | ${m.runsPerSecond} | ${m.startup} ms | ${m.verdict} | ${m.ids} | ${(m.wallMs / shared.wallMs).toFixed(1)}× |`;
    rows.push(row);
    console.error(row);
  }
}
console.log(rows.join('\n'));
