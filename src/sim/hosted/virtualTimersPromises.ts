import { createRequire, syncBuiltinESMExports } from 'node:module';
import { harnessListener } from './abortReach.ts';
import type { HandlerScope } from './handlerScope.ts';

const require = createRequire(import.meta.url);

type Sleep = (ms?: number, value?: unknown, options?: { signal?: AbortSignal; ref?: boolean }) => Promise<unknown>;

/**
 * `setTimeout` of `node:timers/promises` on the run's virtual clock. The fake timers replace the
 * global `setTimeout` only; a server that sleeps with the promise form (a common way to wait
 * between steps or retries) would otherwise wait in real time, outside the run. Honours the
 * `signal` option as Node's does (rejects with an AbortError), and tells `scope`'s handler that
 * its abort reached it when it does. Returns the function that puts Node's own back.
 */
export function virtualTimersPromises(scope: HandlerScope): () => void {
  const timers = require('node:timers/promises') as { setTimeout: Sleep };
  const real = timers.setTimeout;
  timers.setTimeout = function timersPromisesSetTimeout(ms = 1, value, options = {}) {
    const { signal } = options;
    const frame = scope.current();
    const aborted = () => {
      if (frame?.signal.aborted) frame.reached('sleep');
      return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR', cause: signal?.reason });
    };
    if (signal?.aborted) return Promise.reject(aborted());
    return new Promise((resolve, reject) => {
      const onAbort = harnessListener(() => {
        clearTimeout(timer);
        reject(aborted());
      });
      const timer = setTimeout(function timersPromisesSleep() {
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };
  syncBuiltinESMExports();
  return () => {
    timers.setTimeout = real;
    syncBuiltinESMExports();
  };
}
