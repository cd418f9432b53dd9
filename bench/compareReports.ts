/**
 * Same seed, same report: `node --import tsx bench/compareReports.ts --against <tree> [--seeds 1,2,3] [--runs 300] [--profiles memory,http]`
 * runs `check --seed S --runs N --json FILE` in another tree (a checkout of an older revision,
 * for example /work/main) and in this one, and compares the two JSON reports with their timing
 * fields left out (`durationMs`, `wallMs`, `runWallMs`, `runsPerSecond`): the findings, their
 * counterexamples and trace hashes, coverage, rates and verdicts must be equal. A speed-up of
 * the harness must not change what a campaign finds or how it shrinks it. Exits 1 on a difference,
 * printing the first paths that differ.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** Fields that measure the machine, not the campaign. */
export const TIMING_FIELDS: ReadonlySet<string> = new Set(['durationMs', 'wallMs', 'runWallMs', 'runsPerSecond']);

/** `value` without the timing fields, at any depth. */
export function withoutTiming(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTiming);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !TIMING_FIELDS.has(k)).map(([k, v]) => [k, withoutTiming(v)]));
  }
  return value;
}

/** The paths at which `a` and `b` differ (at most `max`), `$` being the root. */
export function differences(a: unknown, b: unknown, max = 10, path = '$', out: string[] = []): string[] {
  if (out.length >= max) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: ${a.length} items against ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) differences(a[i], b[i], max, `${path}[${i}]`, out);
  } else if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (!(key in x) || !(key in y)) out.push(`${path}.${key}: only in the ${key in x ? 'first' : 'second'}`);
      else differences(x[key], y[key], max, `${path}.${key}`, out);
    }
  } else if (a !== b) {
    out.push(`${path}: ${JSON.stringify(a)?.slice(0, 80)} against ${JSON.stringify(b)?.slice(0, 80)}`);
  }
  return out;
}

/** The JSON report of one `check` campaign run in `tree` (its exit code 0 or 1 both give one). */
function reportOf(tree: string, seed: number, runs: number, profiles: string, file: string): unknown {
  const run = spawnSync(process.execPath, ['bin/mcp-sim.js', 'check', '--seed', String(seed), '--runs', String(runs), '--profiles', profiles, '--quiet', '--json', file], {
    cwd: tree,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`compareReports: check --seed ${seed} in ${tree} exited ${run.status}:\n${run.stderr}`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flags = new Command()
    .name('bench/compareReports.ts')
    .requiredOption('--against <tree>', 'the other tree (a checkout with node_modules, e.g. /work/main)')
    .option('--seeds <list>', 'campaign seeds, comma-separated', '20261130,7,424242')
    .option('--runs <n>', 'runs per campaign', '300')
    .option('--profiles <list>', 'transport profiles', 'memory,http')
    .parse()
    .opts<{ against: string; seeds: string; runs: string; profiles: string }>();
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-sim-reports-'));
  let failed = false;
  try {
    for (const seed of flags.seeds.split(',').map(Number)) {
      const before = withoutTiming(reportOf(resolve(flags.against), seed, Number(flags.runs), flags.profiles, join(scratch, `before-${seed}.json`)));
      const after = withoutTiming(reportOf(ROOT, seed, Number(flags.runs), flags.profiles, join(scratch, `after-${seed}.json`)));
      const diff = differences(before, after);
      const findings = (after as { findings: { counterexample?: unknown }[] }).findings;
      const shrunk = findings.filter((f) => f.counterexample !== undefined).length;
      console.log(`seed ${seed}, ${flags.runs} runs of ${flags.profiles}: ${diff.length === 0 ? 'identical' : 'DIFFERENT'} (${findings.length} findings, ${shrunk} counterexamples)`);
      for (const d of diff) console.log(`  ${d}`);
      failed ||= diff.length > 0;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}
