/**
 * Runs one benchmark point through tinybench and turns it into a cost per operation.
 *
 * Why: every point here is a *batch* (N requests, K cancellations, a storm) whose setup
 * must not be timed. Each body times its own measured phase with the real clock and
 * returns it; tinybench receives it as `overriddenDuration` (plus the whole iteration as
 * `overriddenIterationCost`, so its time budget stays honest) and does the sampling,
 * warm-up and statistics.
 */
import { Bench } from 'tinybench';
import type { Plan } from './plan.ts';
import { realNow } from './realClock.ts';
import type { Point } from './suite.ts';

export interface MeasureSpec {
  name: string;
  n: number;
  /** Operations timed per sample; cost per op = sample / opsPerSample. */
  opsPerSample: number;
  plan: Plan;
  /** One sample: sets up, runs the measured phase, cleans up; returns the measured ms. */
  sample: () => Promise<number>;
  /** Once per phase (warm-up, run) before the first sample. */
  beforeAll?: () => Promise<void> | void;
  /** Once per phase after the last sample. */
  afterAll?: () => Promise<void> | void;
}

export async function measure(spec: MeasureSpec): Promise<Point> {
  const bench = new Bench({ name: spec.name, ...spec.plan, throws: true });
  bench.add(
    spec.name,
    async () => {
      const start = realNow();
      const measured = await spec.sample();
      return { overriddenDuration: measured, overriddenIterationCost: realNow() - start };
    },
    {
      ...(spec.beforeAll ? { beforeAll: spec.beforeAll } : {}),
      ...(spec.afterAll ? { afterAll: spec.afterAll } : {}),
    },
  );
  await bench.run();
  const task = bench.tasks[0];
  const result = task?.result;
  if (result === undefined || (result.state !== 'completed' && result.state !== 'aborted-with-statistics')) {
    const error = result && 'error' in result ? result.error : undefined;
    throw new Error(`benchmark ${spec.name} did not complete: ${result?.state ?? 'no result'}${error ? `: ${error.message}` : ''}`, {
      cause: error,
    });
  }
  const toNsPerOp = (ms: number): number => (ms * 1e6) / spec.opsPerSample;
  return {
    n: spec.n,
    opsPerSample: spec.opsPerSample,
    nsPerOp: toNsPerOp(result.latency.mean),
    p50NsPerOp: toNsPerOp(result.latency.p50),
    rmePct: result.latency.rme,
    samples: result.latency.samplesCount,
  };
}

/**
 * A point from samples timed outside tinybench (a phase inside a tinybench sample, such as
 * the response phase of an HTTP batch). Same units and statistics names as `measure`.
 */
export function pointFromSamples(n: number, opsPerSample: number, samplesMs: readonly number[]): Point {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const count = sorted.length;
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(count, 1);
  const mid = Math.floor(count / 2);
  const median = count === 0 ? 0 : count % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const sd = count > 1 ? Math.sqrt(sorted.reduce((a, b) => a + (b - mean) ** 2, 0) / (count - 1)) : 0;
  // 95% margin with the normal approximation: indicative only for a handful of samples.
  const rmePct = mean > 0 && count > 1 ? (100 * 1.96 * sd) / Math.sqrt(count) / mean : 0;
  const toNsPerOp = (ms: number): number => (ms * 1e6) / opsPerSample;
  return { n, opsPerSample, nsPerOp: toNsPerOp(mean), p50NsPerOp: toNsPerOp(median), rmePct, samples: count };
}
