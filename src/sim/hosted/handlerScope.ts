import { AsyncLocalStorage } from 'node:async_hooks';
import type { WireId } from '../trace.ts';

/** The request whose handler is running: what its `fetch` calls and I/O attempts are charged to. */
export interface HandlerFrame {
  readonly conn: number;
  readonly id: WireId;
  readonly tool: string | undefined;
  readonly signal: AbortSignal;
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
  private static readonly storage = new AsyncLocalStorage<HandlerFrame>();
  private readonly storage = HandlerScope.storage;

  run<T>(frame: HandlerFrame, body: () => T): T {
    return this.storage.run(frame, body);
  }

  /** The handler running now, or `undefined` (setup, the SDK's own code, the harness). */
  current(): HandlerFrame | undefined {
    return this.storage.getStore();
  }
}
