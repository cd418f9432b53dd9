/**
 * The speed-up of `check --workers N` over `--workers 1`, measured the way a user meets it:
 * each campaign in a fresh `node bin/mcp-sim.js check` process (so every worker, and the
 * in-process campaign alike, starts cold: module loading, SDK import, JIT warm-up), the two
 * settings alternating round by round (the machines are noisy: medians of one run).
 *
 *   node --import tsx bench/workers.bench.ts [--runs 3000] [--profiles memory] [--workers 2] [--rounds 3]
 *
 * Two figures per setting: the campaign's own wall time (the report's "N runs in S s": from the
 * campaign's start, worker start-up included, to the last run; `--no-shrink`), and the whole
 * process (start to exit). Both reports must have the same findings; the script checks it.
 *
 * A control tells the machine from the harness: the same campaign as N shard processes side by
 * side (`--shard i/N --workers 1`, no threads at all). If they are no faster than one process,
 * the machine gives this workload no parallel speed-up (shared or memory-bound vCPUs), whatever
 * the workers do.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { realNow } from './lib/realClock.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

interface Flags {
  runs: string;
  profiles: string;
  workers: string;
  rounds: string;
  seed: string;
}

interface Sample {
  /** The campaign's wall time, worker start-up included (report line "N runs in S s"). */
  campaignS: number;
  /** Process start to exit. */
  processS: number;
  /** Findings (invariant, runs, first case): must not depend on the workers. */
  findings: string;
}

/** One `check` campaign in a fresh process. */
export function campaign(options: { runs: number; profiles: string; workers: number; seed: number }): Sample {
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-sim-workers-bench-'));
  const json = join(scratch, 'report.json');
  try {
    const args = ['bin/mcp-sim.js', 'check', '--runs', String(options.runs), '--seed', String(options.seed), '--profiles', options.profiles];
    args.push('--workers', String(options.workers), '--no-shrink', '--json', json, '--out', join(scratch, 'repro'));
    const started = realNow();
    const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const processS = (realNow() - started) / 1000;
    if (run.status !== 0 && run.status !== 1) throw new Error(`workers bench: check exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { runWallMs: number; findings: { invariant: string; runs: number; firstCase: number }[] };
    return { campaignS: report.runWallMs / 1000, processS, findings: report.findings.map((f) => `${f.invariant}:${f.runs}:${f.firstCase}`).join(' ') };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The same campaign as `shards` processes side by side, in process each: the wall time of the slowest. */
export async function shardProcesses(options: { runs: number; profiles: string; shards: number; seed: number }): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-sim-workers-bench-'));
  const started = realNow();
  try {
    await Promise.all(
      Array.from({ length: options.shards }, (_, i) => {
        const args = ['bin/mcp-sim.js', 'check', '--runs', String(options.runs), '--seed', String(options.seed), '--profiles', options.profiles];
        args.push('--shard', `${i + 1}/${options.shards}`, '--workers', '1', '--no-shrink', '--out', join(scratch, `repro-${i}`));
        return new Promise<void>((done, fail) => {
          const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
          child.on('error', fail);
          child.on('exit', (code) => (code === 0 || code === 1 ? done() : fail(new Error(`workers bench: shard ${i + 1} exited ${code}`))));
        });
      }),
    );
    return (realNow() - started) / 1000;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Alternating rounds of one and `workers` workers; medians and ratios. */
export async function measureWorkers(options: { runs: number; profiles: string; workers: number; rounds: number; seed: number; log?: (line: string) => void }) {
  const one: Sample[] = [];
  const many: Sample[] = [];
  const control: number[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    one.push(campaign({ ...options, workers: 1 }));
    many.push(campaign({ ...options, workers: options.workers }));
    control.push(await shardProcesses({ ...options, shards: options.workers }));
    if (many.at(-1)!.findings !== one.at(-1)!.findings) throw new Error('workers bench: the findings differ between --workers 1 and --workers N');
    const [a, b] = [one.at(-1)!, many.at(-1)!];
    options.log?.(
      `round ${round}: --workers 1 ${a.campaignS.toFixed(2)} s (process ${a.processS.toFixed(2)} s), --workers ${options.workers} ${b.campaignS.toFixed(2)} s ` +
        `(process ${b.processS.toFixed(2)} s); control: ${options.workers} shard processes side by side ${control.at(-1)!.toFixed(2)} s`,
    );
  }
  const m = (xs: Sample[], k: 'campaignS' | 'processS') => median(xs.map((x) => x[k]));
  return {
    one: { campaignS: m(one, 'campaignS'), processS: m(one, 'processS') },
    many: { campaignS: m(many, 'campaignS'), processS: m(many, 'processS') },
    controlS: median(control),
    speedup: { campaign: m(one, 'campaignS') / m(many, 'campaignS'), process: m(one, 'processS') / m(many, 'processS'), control: m(one, 'processS') / median(control) },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flags = new Command()
    .name('bench/workers.bench.ts')
    .option('--runs <n>', 'runs per campaign', '3000')
    .option('--profiles <list>', 'transport profiles of the campaign', 'memory')
    .option('--workers <n>', 'worker threads to compare with one', '2')
    .option('--rounds <n>', 'campaigns per setting, alternating', '3')
    .option('--seed <n>', 'campaign seed', '20261130')
    .parse()
    .opts<Flags>();
  const options = { runs: Number(flags.runs), profiles: flags.profiles, workers: Number(flags.workers), rounds: Number(flags.rounds), seed: Number(flags.seed) };
  console.log(`workers bench: ${options.runs}-run ${options.profiles} campaign, --workers 1 vs --workers ${options.workers}, ${options.rounds} rounds; ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)}`);
  const r = await measureWorkers({ ...options, log: (l) => console.log(`  ${l}`) });
  console.log(`campaign wall (median): ${r.one.campaignS.toFixed(2)} s with 1 worker, ${r.many.campaignS.toFixed(2)} s with ${options.workers}: speed-up ${r.speedup.campaign.toFixed(2)}×`);
  console.log(`whole process (median): ${r.one.processS.toFixed(2)} s with 1 worker, ${r.many.processS.toFixed(2)} s with ${options.workers}: speed-up ${r.speedup.process.toFixed(2)}×`);
  console.log(
    `control, ${options.workers} shard processes side by side (median): ${r.controlS.toFixed(2)} s against ${r.one.processS.toFixed(2)} s for one process: ` +
      `${r.speedup.control.toFixed(2)}× (what this machine gives ${options.workers} busy processes of this workload)`,
  );
  console.log(`load average at the end: ${loadavg()[0]!.toFixed(2)} (a busy machine lowers every figure)`);
}
