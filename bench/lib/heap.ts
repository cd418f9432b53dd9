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

const realSetTimeout = globalThis.setTimeout;

/**
 * Waits after a forced GC before anything is timed again. A full GC leaves sweeping to V8's
 * background threads; on a 2-core host they compete with the next timed sample, and
 * measurements taken right after `gc()` came out up to several times slower. (For the same
 * reason no GC is forced before timed samples: V8 collects when it decides to.)
 */
export function afterForcedGc(): Promise<void> {
  return gc === undefined ? Promise.resolve() : new Promise((resolve) => realSetTimeout(resolve, 250));
}
