import type { AbortReach } from '../trace.ts';

/**
 * Abort listeners the harness itself adds to a handler's signal (the virtual `fetch`'s, the
 * virtual sleep's): they report their own reach (`fetch`, `sleep`), not as a listener of the tool.
 */
const harnessListeners = new WeakSet<object>();

/** Marks `listener` as the harness's own (see `harnessListeners`); returns it. */
export function harnessListener<T extends object>(listener: T): T {
  harnessListeners.add(listener);
  return listener;
}

const signalProto = AbortSignal.prototype;
const abortedOf = Object.getOwnPropertyDescriptor(signalProto, 'aborted')!.get!;
const addListener = EventTarget.prototype.addEventListener;
const removeListener = EventTarget.prototype.removeEventListener;

/**
 * Watches the ways an abort can reach a tool callback through its request's `signal`, on that
 * signal object only (the one the callback gets as `extra.signal` / `ctx.mcpReq.signal`):
 * `throwIfAborted()` throwing, and an abort listener registered while the callback runs
 * (`running()`) being called. The virtual `fetch` and sleep report their own rejections. Reading
 * `signal.aborted` is not a reach: the SDK reads it too (1.x `sendNotification` drops progress
 * of an aborted request), so it would charge the SDK's check to the tool.
 */
export function watchAbortReach(signal: AbortSignal, running: () => boolean, reached: (via: AbortReach) => void): void {
  const wrapped = new WeakMap<object, EventListener>();
  Object.defineProperties(signal, {
    throwIfAborted: {
      configurable: true,
      writable: true,
      value: function throwIfAborted(this: AbortSignal) {
        if (abortedOf.call(this)) reached('throwIfAborted');
        return signalProto.throwIfAborted.call(this);
      },
    },
    addEventListener: {
      configurable: true,
      writable: true,
      value: function addEventListener(this: AbortSignal, type: string, listener: EventListenerOrEventListenerObject | null, options?: AddEventListenerOptions | boolean) {
        if (type !== 'abort' || !listener || harnessListeners.has(listener) || !running()) return addListener.call(this, type, listener, options);
        let own = wrapped.get(listener);
        if (!own) {
          own = function toolAbortListener(this: unknown, event: Event) {
            reached('listener');
            return typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event);
          };
          wrapped.set(listener, own);
        }
        return addListener.call(this, type, own, options);
      },
    },
    removeEventListener: {
      configurable: true,
      writable: true,
      value: function removeEventListener(this: AbortSignal, type: string, listener: EventListenerOrEventListenerObject | null, options?: EventListenerOptions | boolean) {
        removeListener.call(this, type, (listener && wrapped.get(listener)) ?? listener, options);
      },
    },
  });
}
