/**
 * Growth exponents and ratios of cost curves.
 *
 * Why: "is the cost per request constant as N grows?" is answered by the least-squares slope
 * of log(cost per op) against log(N): ~0 is O(1) per op (total O(N)), ~1 is O(N) per op
 * (total O(N^2)). The slope over all points can hide a late turn, so the slope over the
 * three largest N is reported as well.
 */
import type { Curve, Point } from './suite.ts';

/** The per-op cost used for fits and ratios: the median sample, robust to a noisy host. */
export function costOf(point: Point): number {
  return point.p50NsPerOp;
}

/** Least-squares slope of log(cost) on log(n); undefined with fewer than two distinct n. */
export function logLogSlope(points: readonly Point[]): number | undefined {
  const usable = points.filter((p) => p.n > 0 && costOf(p) > 0);
  if (new Set(usable.map((p) => p.n)).size < 2) return undefined;
  const xs = usable.map((p) => Math.log(p.n));
  const ys = usable.map((p) => Math.log(costOf(p)));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  return sxy / sxx;
}

/** Slope over the `count` largest N only: where an O(N) term, if any, dominates. */
export function tailSlope(points: readonly Point[], count = 3): number | undefined {
  const sorted = [...points].sort((a, b) => a.n - b.n);
  return logLogSlope(sorted.slice(-count));
}

export type GrowthClass = 'O(1) per op' | 'mild growth' | 'grows with N (super-linear total)';

/**
 * Verdict from the slopes. Thresholds are wide on purpose: on a shared 2-core host, GC and
 * cache effects alone move a constant-cost path by a slope of ~0.1-0.2.
 */
export function classify(slope: number | undefined, tail: number | undefined): GrowthClass | undefined {
  if (slope === undefined) return undefined;
  const worst = Math.max(slope, tail ?? slope);
  if (worst < 0.2) return 'O(1) per op';
  if (worst < 0.5) return 'mild growth';
  return 'grows with N (super-linear total)';
}

/**
 * Slope of log(SDK cost / floor cost) against log N over the N both measured (all of them,
 * or the `tail` largest): the growth the SDK adds beyond the floor. Both run in the same
 * process, so growth they share (GC work rising with the live heap, cache misses in large
 * maps) cancels out; what remains is the SDK's own algorithmic growth, give or take noise.
 */
export function excessSlope(curve: Curve, floor: Curve | undefined, tail?: number): number | undefined {
  const r = [...ratios(curve, floor)].sort((a, b) => a[0] - b[0]);
  const used = tail === undefined ? r : r.slice(-tail);
  if (tail !== undefined && r.length <= tail) return undefined;
  const pseudo: Point[] = used.map(([n, ratio]) => ({ n, opsPerSample: 1, nsPerOp: ratio, p50NsPerOp: ratio, rmePct: 0, samples: 1 }));
  return logLogSlope(pseudo);
}

/** Ratio of `curve` to `floor` at every N both measured. */
export function ratios(curve: Curve, floor: Curve | undefined): Map<number, number> {
  const out = new Map<number, number>();
  if (floor === undefined) return out;
  for (const p of curve.points) {
    const f = floor.points.find((q) => q.n === p.n);
    if (f !== undefined && costOf(f) > 0) out.set(p.n, costOf(p) / costOf(f));
  }
  return out;
}
