import { AsyncResource } from 'node:async_hooks';
import type { TraceEventBody } from '../trace.ts';
import type { HandlerScope } from './handlerScope.ts';

type TimerSetter = (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => unknown;

/** Timers the harness itself sets inside a handler: the virtual network's answer is not the handler's work. */
const HARNESS_TIMERS = new Set(['virtualFetchResponse']);

/**
 * Makes a timer set inside a handler run its callback in that handler's context, so that work a
 * handler schedules (a polling interval, a delayed progress) is charged to it, and records it
 * (`handler-timer`: a timer set after the handler's abort is work after the cancel). The callback
 * keeps its name: the virtual clock labels timers by it (`timeoutHandler` is the SDK's). Returns
 * the function that puts the virtual clock's own setters back.
 */
export function bindTimers(scope: HandlerScope, record: (e: TraceEventBody) => void): () => void {
  const g = globalThis as unknown as Record<'setTimeout' | 'setInterval', TimerSetter>;
  const saved = { setTimeout: g.setTimeout, setInterval: g.setInterval };
  for (const name of ['setTimeout', 'setInterval'] as const) {
    const set = saved[name];
    g[name] = function boundTimer(callback, ms, ...args) {
      const frame = scope.current();
      if (!frame && scope.leftover()) record({ kind: 'leftover-work', side: 'server', what: name, label: typeof callback === 'function' ? callback.name || 'anonymous' : 'anonymous' });
      if (typeof callback !== 'function' || !frame) return set(callback, ms, ...args);
      if (!HARNESS_TIMERS.has(callback.name)) {
        record({ kind: 'handler-timer', side: 'server', conn: frame.conn, id: frame.id, ms: Number(ms ?? 0), label: callback.name || 'anonymous' });
      }
      const bound = AsyncResource.bind(callback);
      Object.defineProperty(bound, 'name', { value: callback.name });
      return set(bound, ms, ...args);
    };
  }
  return () => {
    g.setTimeout = saved.setTimeout;
    g.setInterval = saved.setInterval;
  };
}
