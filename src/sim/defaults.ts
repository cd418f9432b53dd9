/** Every default of a run, named and documented in one place. */

/** Seed for `Math.random` and `crypto.randomUUID` inside a run. */
export const DEFAULT_SEED = 0;

/**
 * Scheduler steps before a run is declared non-quiescent (a liveness failure). A 5-request
 * scenario takes about 60 steps; this leaves room for long handler scripts.
 */
export const DEFAULT_MAX_STEPS = 5_000;

/**
 * Virtual time a run may span. Timers due later never fire; if one is all that is left, the run
 * ends as `time-budget`. One hour covers the SDK's 60 s default timeout many times over.
 */
export const DEFAULT_MAX_VIRTUAL_MS = 60 * 60 * 1000;
