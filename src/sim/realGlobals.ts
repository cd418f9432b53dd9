/**
 * The real time and chance sources, captured when this module loads, before any run fakes them.
 * The harness itself (quiescence, restoration checks, benchmarks) must keep using these even
 * while a run has replaced the globals.
 * @internal
 */
export const realGlobals = Object.freeze({
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  setImmediate: globalThis.setImmediate,
  Date: globalThis.Date,
  mathRandom: Math.random,
  randomUUID: globalThis.crypto.randomUUID,
});

/** Lets every queued microtask chain run to its end: one turn of the real `setImmediate`. */
export function quiesce(): Promise<void> {
  return new Promise((resolve) => realGlobals.setImmediate(resolve));
}

/** Names of the globals a run replaces and must give back; checked by `globalsRestored()`. */
export function globalsRestored(): string[] {
  const wrong: string[] = [];
  if (globalThis.setTimeout !== realGlobals.setTimeout) wrong.push('setTimeout');
  if (globalThis.clearTimeout !== realGlobals.clearTimeout) wrong.push('clearTimeout');
  if (globalThis.setInterval !== realGlobals.setInterval) wrong.push('setInterval');
  if (globalThis.clearInterval !== realGlobals.clearInterval) wrong.push('clearInterval');
  if (globalThis.Date !== realGlobals.Date) wrong.push('Date');
  if (Math.random !== realGlobals.mathRandom) wrong.push('Math.random');
  if (globalThis.crypto.randomUUID !== realGlobals.randomUUID) wrong.push('crypto.randomUUID');
  return wrong;
}
