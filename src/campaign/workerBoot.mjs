// The entry of a campaign worker thread (src/campaign/workerPool.ts starts it). A worker is a
// fresh V8 isolate: it does not inherit the tsx loader the CLI registered (`--import tsx` in a
// worker's execArgv is not honoured by Node 20 either), so it registers tsx itself, then loads
// the TypeScript entry named in workerData.
import { workerData } from 'node:worker_threads';

// Plain JavaScript modules (the SDK release, fast-check, xstate) are imported first, before
// tsx's hooks exist: after register() every import makes a round trip to the hooks thread, and
// the SDK alone is a few hundred modules. A module that fails here is simply loaded later.
for (const href of workerData.preload ?? []) {
  try {
    await import(href);
  } catch {
    // loaded (and its error reported) by the worker itself
  }
}
// Compiled JavaScript (the installed package) needs no loader.
if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
