/**
 * Retained-heap probe for "bytes per in-flight request".
 *
 * Why: the number that matters is what N outstanding requests keep alive, so the probe
 * reads the heap with all N in flight and subtracts a baseline. With `node --expose-gc`
 * (what `npm run bench` passes) both reads follow a full GC and measure live objects;
 * without it, they are raw `process.memoryUsage().heapUsed` deltas, which include garbage
 * and are only indicative. The method used is reported in every summary.
 */
const gc = (globalThis as { gc?: () => void }).gc;

export const heapMethod: 'global.gc' | 'memoryUsage' = typeof gc === 'function' ? 'global.gc' : 'memoryUsage';

export function heapMethodDescription(): string {
  return heapMethod === 'global.gc'
    ? 'global.gc() (node --expose-gc): full GC before the baseline and at peak, then process.memoryUsage().heapUsed'
    : 'process.memoryUsage().heapUsed deltas WITHOUT a forced GC (run with node --expose-gc for retained-heap numbers)';
}

/** heapUsed after a full GC when available (twice: weak callbacks and finalizers settle). */
export function heapUsed(): number {
  if (gc !== undefined) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/** Batches at least this large get a clean heap before their timed phase. */
export const QUIET_MIN_OPS = 1_000;

/**
 * Collects garbage before the timed phase of a large sample (when `global.gc` exists), so the
 * sample does not pay for garbage its untimed setup, or the previous sample, left behind.
 * Collections caused by the timed work itself still count. A no-op for small samples: a full
 * GC costs milliseconds and those samples are thousands.
 */
export function quietHeap(ops: number): void {
  if (gc !== undefined && ops >= QUIET_MIN_OPS) gc();
}
