/**
 * Counting latches and the gate that holds request handlers open.
 *
 * Why: "N requests in flight" only means something if all N are outstanding at the same
 * time on both sides. Every benchmark handler waits at a `Gate` that opens once N handlers
 * have arrived (or when the bench opens it), so the correlation maps really hold N entries.
 */

/** Resolves `done` once `hit()` was called `target` times (at once when target is 0). */
export class Latch {
  count = 0;
  readonly done: Promise<void>;
  private resolve!: () => void;

  constructor(readonly target: number) {
    this.done = new Promise<void>((resolve) => {
      this.resolve = resolve;
    });
    if (target <= 0) this.resolve();
  }

  hit(): void {
    this.count++;
    if (this.count === this.target) this.resolve();
  }
}

/**
 * Holds handlers until `open()`. `arrived` fills when `expected` handlers are waiting;
 * `aborted` counts handlers released early by their AbortSignal (server-side cancellation).
 * Only a gate that expects aborts touches the handler's signal: in Node 20 reading an
 * AbortSignal and adding a listener to it costs microseconds, which would swamp the
 * correlation cost that the other workloads measure.
 */
export class Gate {
  readonly arrived: Latch;
  readonly aborted: Latch;
  readonly watchesAborts: boolean;
  private readonly opened: Promise<void>;
  private openFn!: () => void;

  constructor(expected: number, expectedAborts = 0) {
    this.arrived = new Latch(expected);
    this.aborted = new Latch(expectedAborts);
    this.watchesAborts = expectedAborts > 0;
    this.opened = new Promise<void>((resolve) => {
      this.openFn = resolve;
    });
  }

  /**
   * Called by a handler with its `extra`: resolves when the gate opens or, if this gate
   * watches aborts, as soon as `extra.signal` aborts.
   */
  wait(extra?: { readonly signal: AbortSignal }): Promise<void> {
    this.arrived.hit();
    if (!this.watchesAborts || extra === undefined) return this.opened;
    const signal = extra.signal;
    return new Promise<void>((resolve) => {
      const onAbort = (): void => {
        this.aborted.hit();
        resolve();
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      void this.opened.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  open(): void {
    this.openFn();
  }
}
