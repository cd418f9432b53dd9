import { isResponseFrame } from '../util/jsonrpc.ts';
import type { JsonValue } from '../util/json.ts';

/**
 * Whether a frame is kept for a later `waitFor`: an answer (one per request the client wrote, so
 * the client's own pace bounds them) or a line that is not JSON-RPC. Notifications and requests
 * only go to listeners as they come: a shared connection lives the whole campaign, and a server
 * that floods it would otherwise be kept frame by frame in memory (and scanned by every wait).
 */
function kept(frame: JsonValue): boolean {
  return typeof frame === 'string' || isResponseFrame(frame);
}

/**
 * The frames a connection reads, in arrival order, and waits on them: `waitFor` resolves with the
 * first answer or non-JSON-RPC line (already read or still to come) that matches, or `undefined`
 * when the time runs out or the connection ends first. Connections push; runners and the
 * handshake wait; every frame goes to listeners (`listen`).
 */
export class Inbox {
  /** The answers and non-JSON-RPC lines read so far, in arrival order (`kept`). */
  readonly frames: JsonValue[] = [];
  private why: string | undefined;
  private readonly waiters = new Set<{ match: (f: JsonValue) => boolean; done: (f: JsonValue | undefined) => void }>();
  private readonly listeners = new Set<(frame: JsonValue) => void>();
  private onEnd: () => void = () => {};
  /** Resolves when the connection ends (the process exited, the stream closed, the client closed it). */
  readonly ended: Promise<void> = new Promise((resolve) => (this.onEnd = resolve));

  /**
   * Calls `listener` for every frame pushed from now on, until the returned function is called:
   * a runner that shares a connection with the runs after it (`runPlan`'s `reuse`) must stop
   * listening when it ends, or it would answer their server requests too.
   */
  listen(listener: (frame: JsonValue) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private readonly floodListeners = new Set<(token: JsonValue) => void>();

  /**
   * Calls `listener` with the progress token of every call whose progress the connection stopped
   * recording (a flood past `--max-notifications` or `--max-notification-rate`, `FrameBudget`),
   * until the returned function is called: the run gives that call up rather than wait on it.
   */
  listenFloods(listener: (token: JsonValue) => void): () => void {
    this.floodListeners.add(listener);
    return () => this.floodListeners.delete(listener);
  }

  /** The connection stopped recording the progress of `token`'s call (a flood). */
  flooded(token: JsonValue): void {
    for (const l of [...this.floodListeners]) l(token);
  }

  push(frame: JsonValue): void {
    if (kept(frame)) this.frames.push(frame);
    for (const l of [...this.listeners]) l(frame);
    for (const w of [...this.waiters]) if (w.match(frame)) w.done(frame);
  }

  /** The connection ended (the process exited, the stream closed): every waiter gives up. */
  end(why: string): void {
    this.why ??= why;
    for (const w of [...this.waiters]) w.done(undefined);
    this.onEnd();
  }

  /** Why the connection ended, once it has. */
  get endedBecause(): string | undefined {
    return this.why;
  }

  /** The first answer or non-JSON-RPC line that matches, read already or within `ms`. */
  waitFor(match: (frame: JsonValue) => boolean, ms: number): Promise<JsonValue | undefined> {
    const seen = this.frames.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    if (this.why !== undefined) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter = {
        match,
        done: (f: JsonValue | undefined) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(f);
        },
      };
      const timer = setTimeout(() => waiter.done(undefined), ms);
      this.waiters.add(waiter);
    });
  }
}
