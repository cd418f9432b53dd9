import type { JsonValue } from '../util/json.ts';
import type { Side } from './scenario.ts';

/** A queued item: a frame, or the writer's end of stream. */
export type LinkItem =
  | { readonly kind: 'frame'; readonly seq: number; readonly frame: JsonValue }
  | { readonly kind: 'eof'; readonly seq: number };

/**
 * One direction of a connection: a FIFO queue the scheduler drains. Order within a link is
 * never changed (a pipe keeps order); the scheduler only picks *when* the head is delivered.
 */
export class Link {
  private readonly queue: LinkItem[] = [];
  /** The writer closed: nothing more may be written. */
  writerClosed = false;
  /** The reader closed: whatever arrives is lost. */
  readerClosed = false;

  constructor(
    readonly from: Side,
    readonly to: Side,
    readonly conn: number,
  ) {}

  get size(): number {
    return this.queue.length;
  }

  peek(): LinkItem | undefined {
    return this.queue[0];
  }

  push(item: LinkItem): void {
    this.queue.push(item);
  }

  shift(): LinkItem | undefined {
    return this.queue.shift();
  }

  /** Number of frames at the head that one read may hand over together (a burst stops at EOF). */
  burstSize(): number {
    let n = 0;
    while (n < this.queue.length && this.queue[n]!.kind === 'frame') n++;
    return n;
  }

  /** Empties the queue (the reader went away) and returns what was lost. */
  drain(): LinkItem[] {
    return this.queue.splice(0, this.queue.length);
  }
}
