/**
 * The real clock and the real event-loop turn, captured when this module loads.
 *
 * Why: the timeout-storm measurement installs @sinonjs/fake-timers to fire thousands of
 * request timeouts with one `clock.tick`, yet must still be timed in real time. Every
 * measurement therefore reads `realNow`, never the (possibly faked) globals.
 */
const perf = globalThis.performance;
const perfNow = perf.now.bind(perf);
const realSetImmediate = globalThis.setImmediate;

/** Real monotonic milliseconds, immune to fake timers installed later. */
export const realNow: () => number = perfNow;

/**
 * Lets every queued microtask chain finish: `turns` real macrotask turns. The SDK removes
 * some correlation entries in `.finally()` callbacks a few microtasks after the response was
 * delivered, so leak checks must wait for this before reading the maps.
 */
export async function settle(turns = 2): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => realSetImmediate(resolve));
}
