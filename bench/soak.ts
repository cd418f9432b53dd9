/**
 * The soak test: one long campaign in one process, in process (`--workers 1`), and how its
 * memory grows. A nightly campaign of 100,000 runs must not need more memory than one of
 * 1,000: every run's world, trace and timers must be garbage once it is tallied.
 *
 *   npm run soak                       # 100,000 runs, both profiles (about 5 to 10 minutes on 2 cores)
 *   npm run soak -- --runs 20000 --profiles memory
 *
 * `npm run soak` is `node --expose-gc --import tsx bench/soak.ts`: with `--expose-gc` every
 * sample follows a full collection, so it reads retained memory, not garbage not yet collected.
 * Samples are taken between runs (the campaign's progress callback), after the warm-up (the
 * first 5 % of the runs: module caches, JIT code, the SDK's schemas). RSS swings by tens of MB
 * from sample to sample (V8 gives pages back and takes them again), so growth compares windows,
 * not two samples: the median of the last tenth of the samples minus the median of the first
 * tenth (and the same for the peaks of each half). Target: RSS growth < 50 MB. Exits 1 above it.
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { campaignOn } from '../src/campaign/check.ts';
import { resolveCampaignOptions } from '../src/options/index.ts';
import { defaultSdk } from '../src/sdk/load.ts';
import type { Profile } from '../src/sim/index.ts';
import { realNow } from './lib/realClock.ts';

/** The RSS growth the soak test allows, in MB. */
export const SOAK_RSS_GROWTH_MAX_MB = 50;

interface MemorySample {
  readonly runs: number;
  readonly seconds: number;
  readonly rssMb: number;
  readonly heapUsedMb: number;
  readonly externalMb: number;
}

const mb = (bytes: number) => bytes / 2 ** 20;

function sample(runs: number, started: number): MemorySample {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { runs, seconds: (realNow() - started) / 1000, rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), externalMb: mb(m.external + m.arrayBuffers) };
}

/** Least-squares slope of `y` on `x`. */
function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? 0 : points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
}

export async function soak(options: { runs: number; profiles: Profile[]; seed: number; every: number; log: (line: string) => void }) {
  const sdk = await defaultSdk();
  const campaign = resolveCampaignOptions({ runs: options.runs, seed: options.seed, workers: 1, shrink: false, workload: { profiles: options.profiles } }, {});
  const started = realNow();
  const samples: MemorySample[] = [sample(0, started)];
  const warmUp = Math.max(options.every, Math.round(options.runs * 0.05));
  const report = await campaignOn(sdk, campaign, (done) => {
    if (done % options.every !== 0 && done !== options.runs) return;
    const s = sample(done, started);
    samples.push(s);
    options.log(`${String(done).padStart(7)} runs  ${s.seconds.toFixed(0).padStart(4)} s  rss ${s.rssMb.toFixed(1)} MB  heap ${s.heapUsedMb.toFixed(1)} MB  external ${s.externalMb.toFixed(1)} MB`);
  });
  const after = samples.filter((s) => s.runs >= warmUp);
  const last = samples.at(-1)!;
  const tenth = Math.max(1, Math.floor(after.length / 10));
  const [first, final] = [after.slice(0, tenth), after.slice(-tenth)];
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const window = (ws: MemorySample[], k: 'rssMb' | 'heapUsedMb') => median(ws.map((s) => s[k]));
  const half = Math.floor(after.length / 2);
  const peak = (ws: MemorySample[]) => Math.max(...ws.map((s) => s.rssMb));
  const per10k = (k: 'rssMb' | 'heapUsedMb') => slope(after.map((s) => ({ x: s.runs, y: s[k] }))) * 10_000;
  return {
    runs: report.runs,
    seconds: last.seconds,
    runsPerSecond: report.runsPerSecond,
    findings: report.findings.length,
    warmUpRuns: after[0]!.runs,
    rssStartMb: window(first, 'rssMb'),
    rssEndMb: window(final, 'rssMb'),
    heapStartMb: window(first, 'heapUsedMb'),
    heapEndMb: window(final, 'heapUsedMb'),
    peakRssMb: Math.max(...samples.map((s) => s.rssMb)),
    rssGrowthMb: window(final, 'rssMb') - window(first, 'rssMb'),
    rssPeakGrowthMb: peak(after.slice(half)) - peak(after.slice(0, half)),
    heapGrowthMb: window(final, 'heapUsedMb') - window(first, 'heapUsedMb'),
    rssSlopeMbPer10k: per10k('rssMb'),
    heapSlopeMbPer10k: per10k('heapUsedMb'),
    gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flags = new Command()
    .name('npm run soak --')
    .option('--runs <n>', 'runs of the campaign', '100000')
    .option('--profiles <list>', 'transport profiles', 'memory,http')
    .option('--seed <n>', 'campaign seed', '20261130')
    .option('--every <n>', 'runs between two memory samples', '2000')
    .parse()
    .opts<{ runs: string; profiles: string; seed: string; every: string }>();
  const options = { runs: Number(flags.runs), profiles: flags.profiles.split(',') as Profile[], seed: Number(flags.seed), every: Number(flags.every) };
  console.log(`soak: one ${options.runs}-run campaign (${options.profiles.join(', ')}, seed ${options.seed}) in one process; load ${loadavg()[0]!.toFixed(2)}`);
  const r = await soak({ ...options, log: (l) => console.log(`  ${l}`) });
  if (!r.gcExposed) console.log('  (no --expose-gc: samples include garbage not yet collected; run it as npm run soak)');
  console.log(`${r.runs} runs in ${r.seconds.toFixed(0)} s (${r.runsPerSecond.toFixed(0)} runs/s), ${r.findings} invariants found`);
  console.log(
    `RSS (median of the first and last tenth of the samples after ${r.warmUpRuns} warm-up runs): ${r.rssStartMb.toFixed(1)} MB → ${r.rssEndMb.toFixed(1)} MB: ` +
      `growth ${r.rssGrowthMb.toFixed(1)} MB (target < ${SOAK_RSS_GROWTH_MAX_MB} MB); peak ${r.peakRssMb.toFixed(1)} MB, ` +
      `peak of the second half minus the first ${r.rssPeakGrowthMb.toFixed(1)} MB; trend ${r.rssSlopeMbPer10k.toFixed(2)} MB per 10,000 runs`,
  );
  console.log(`heap used (after a full GC): ${r.heapStartMb.toFixed(1)} MB → ${r.heapEndMb.toFixed(1)} MB: growth ${r.heapGrowthMb.toFixed(1)} MB, trend ${r.heapSlopeMbPer10k.toFixed(2)} MB per 10,000 runs`);
  const ok = r.rssGrowthMb < SOAK_RSS_GROWTH_MAX_MB && r.rssPeakGrowthMb < SOAK_RSS_GROWTH_MAX_MB;
  console.log(ok ? 'PASS: memory stays flat' : `FAIL: RSS grew by ${r.rssGrowthMb.toFixed(1)} MB`);
  process.exitCode = ok ? 0 : 1;
}
