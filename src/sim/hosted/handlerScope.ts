import { AsyncLocalStorage } from 'node:async_hooks';
import type { AbortReach, WireId } from '../trace.ts';

/** The request whose handler is running: what its `fetch` calls and I/O attempts are charged to. */
export interface HandlerFrame {
  readonly conn: number;
  readonly id: WireId;
  readonly tool: string | undefined;
  readonly signal: AbortSignal;
  /** Tells the harness an abort reached the handler's tool callback this way (the virtual `fetch` and sleep call it when they reject with the abort). */
  readonly reached: (via: AbortReach) => void;
}

/**
 * Which handler of a hosted server the current code runs for. Promise continuations keep it
 * (async context); callbacks of the virtual clock's timers keep it too, because a hosted run
 * binds every timer set inside a handler to its context (`bindTimers`).
 */
export class HandlerScope {
  /**
   * One storage for every run: Node keeps each `AsyncLocalStorage` ever created in a list it walks
   * on every async operation, so one per run would slow each run down a little more than the last.
   */
  private static readonly storage = new AsyncLocalStorage<{ readonly scope: HandlerScope; readonly frame: HandlerFrame }>();
  private readonly storage = HandlerScope.storage;

  run<T>(frame: HandlerFrame, body: () => T): T {
    return this.storage.run({ scope: this, frame }, body);
  }

  /**
   * The handler of this run running now, or `undefined` (setup, the SDK's own code, the harness).
   * Work a handler of an earlier run left behind (a promise a later run settles, a module-level
   * queue) keeps that run's frame: it is not this run's, so nothing is charged to this run's handlers.
   */
  current(): HandlerFrame | undefined {
    const store = this.storage.getStore();
    return store?.scope === this ? store.frame : undefined;
  }

  /** The code running now is a handler's of an earlier run (`current()` is `undefined` for it): work that run left behind. */
  leftover(): boolean {
    const store = this.storage.getStore();
    return store !== undefined && store.scope !== this;
  }
}
