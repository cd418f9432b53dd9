/**
 * Sizes (N values) and tinybench iteration plans, for full and `--quick` runs.
 *
 * Why: one sample of N=100,000 in-flight requests takes seconds, one sample of N=1 takes
 * microseconds. A fixed iteration count would either take hours or measure noise, so the
 * plan scales with the operations timed per sample: many short samples for small batches,
 * a few (at least 3 in full runs) for the largest. The largest N is capped so a full run of
 * every suite fits in about ten minutes on 2 cores.
 */
export interface Plan {
  /** Minimum samples (tinybench `iterations`). */
  iterations: number;
  /** Time budget per point in ms (tinybench `time`); sampling goes on until both are met. */
  time: number;
  warmup: boolean;
  warmupIterations: number;
  warmupTime: number;
}

export type SizeKind = 'inflight' | 'storm' | 'http';

const SIZES: Record<SizeKind, { full: number[]; quick: number[] }> = {
  /** Requests in flight through the SDK's Protocol over InMemoryTransport. */
  inflight: { full: [1, 100, 1_000, 10_000, 100_000], quick: [1, 100, 1_000, 10_000] },
  /** Progress notifications in one storm on one token. */
  storm: { full: [1, 100, 1_000, 10_000, 100_000], quick: [1, 100, 1_000, 10_000] },
  /**
   * Requests in flight in one Streamable HTTP session. Capped at 20,000: the transport's
   * per-response scan makes a batch O(N^2); 20,000 costs ~20 s per sample here.
   */
  http: { full: [1, 100, 1_000, 3_000, 10_000, 20_000], quick: [1, 100, 1_000, 3_000] },
};

export function sizesFor(kind: SizeKind, quick: boolean, maxN: number): number[] {
  return SIZES[kind][quick ? 'quick' : 'full'].filter((n) => n <= maxN);
}

/** The sampling plan for a sample that times `ops` operations. */
export function planFor(ops: number, quick: boolean): Plan {
  if (quick) {
    if (ops <= 10) return { iterations: 20, time: 100, warmup: true, warmupIterations: 10, warmupTime: 30 };
    if (ops <= 1_000) return { iterations: 4, time: 100, warmup: true, warmupIterations: 2, warmupTime: 0 };
    return { iterations: 2, time: 0, warmup: false, warmupIterations: 0, warmupTime: 0 };
  }
  if (ops <= 10) return { iterations: 200, time: 600, warmup: true, warmupIterations: 50, warmupTime: 150 };
  if (ops <= 1_000) return { iterations: 12, time: 600, warmup: true, warmupIterations: 3, warmupTime: 50 };
  if (ops <= 10_000) return { iterations: 5, time: 500, warmup: true, warmupIterations: 1, warmupTime: 0 };
  // Past 10,000 ops the code is warm from the smaller points; a warm-up sample would only
  // add seconds (every point starts from a fresh endpoint anyway).
  return { iterations: 3, time: 0, warmup: false, warmupIterations: 0, warmupTime: 0 };
}
