import type { Side } from '../sim/scenario.ts';
import type { TraceEventBody, TraceRecorder } from '../sim/trace.ts';

/** How much of a frame too large is kept in its event, to say what it was. */
const HEAD_BYTES = 200;

type TooLarge = Extract<TraceEventBody, { kind: 'frame-too-large' }>;

/** Records a frame past `bound` (its first bytes in `head`) and returns its event, kept current by the reader. */
function recordTooLarge(recorder: TraceRecorder, to: Side, conn: number, bound: number, head: Buffer, bytes: number, droppedExchange?: number): TooLarge {
  const event: TooLarge = { kind: 'frame-too-large', to, conn, bytes, bound, head: head.subarray(0, HEAD_BYTES).toString('utf8'), whole: false, ...(droppedExchange !== undefined && { droppedExchange }) };
  recorder.record(event);
  return event;
}

/**
 * Newline-delimited frames (stdio) read in bytes, never more than `maxBytes` of one line held: a
 * line past the bound is recorded as `frame-too-large` (its head kept), the rest of it read and
 * thrown away up to its newline, and the lines after it read as usual. Each whole line within
 * the bound goes to `onLine` as text (a trailing `\r` removed). What the stream ends on without a
 * newline is no frame (as before: a frame is a line).
 */
export class BoundedLines {
  private parts: Buffer[] = [];
  private size = 0;
  /** The line past the bound being thrown away, while its newline has not come. */
  private dropping: TooLarge | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly recorder: TraceRecorder,
    private readonly onLine: (line: string) => void,
    private readonly to: Side = 'client',
    private readonly conn = 0,
  ) {}

  push(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(10, pos);
      const end = nl < 0 ? chunk.length : nl;
      if (this.dropping) {
        this.dropping.bytes += end - pos;
      } else if (this.size + (end - pos) > this.maxBytes) {
        const head = Buffer.concat([...this.parts, chunk.subarray(pos, Math.min(end, pos + HEAD_BYTES))]);
        this.dropping = recordTooLarge(this.recorder, this.to, this.conn, this.maxBytes, head, this.size + (end - pos));
        this.parts = [];
        this.size = 0;
      } else {
        this.parts.push(chunk.subarray(pos, end));
        this.size += end - pos;
      }
      if (nl < 0) return;
      pos = nl + 1;
      if (this.dropping) {
        this.dropping.whole = true;
        this.dropping = undefined;
        continue;
      }
      const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
      this.parts = [];
      this.size = 0;
      this.onLine(line);
    }
  }
}

/**
 * A byte stream of Server-Sent Events, passed through while no event grows past `maxBytes`
 * (bytes since the last blank line, the end of an event); at the first byte past it,
 * `frame-too-large` is recorded (the event's head kept, `droppedExchange` the stream) and
 * `onTooLarge` is called, which drops the stream: nothing of that event is buffered whole.
 */
export function boundedSse(maxBytes: number, recorder: TraceRecorder, exchange: number, onTooLarge: () => void, to: Side = 'client', conn = 0): TransformStream<Uint8Array, BufferSource> {
  let eventBytes = 0;
  let head: Buffer[] = [];
  let headBytes = 0;
  /** The last byte read was a newline (a second one in a row ends an event; `\r` before either is skipped). */
  let afterNewline = true;
  let over = false;
  return new TransformStream<Uint8Array, BufferSource>({
    transform(chunk, controller) {
      if (over) return;
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      let pos = 0;
      while (pos < bytes.length) {
        const nl = bytes.indexOf(10, pos);
        const end = nl < 0 ? bytes.length : nl;
        const line = end - pos - (end > pos && bytes[end - 1] === 13 ? 1 : 0);
        if (line > 0) afterNewline = false;
        if (headBytes < 200) {
          head.push(bytes.subarray(pos, end + (nl < 0 ? 0 : 1)));
          headBytes += end - pos;
        }
        eventBytes += end - pos + (nl < 0 ? 0 : 1);
        if (eventBytes > maxBytes) {
          over = true;
          recordTooLarge(recorder, to, conn, maxBytes, Buffer.concat(head), eventBytes, exchange);
          onTooLarge();
          return;
        }
        if (nl < 0) break;
        if (afterNewline) {
          eventBytes = 0;
          head = [];
          headBytes = 0;
        }
        afterNewline = true;
        pos = nl + 1;
      }
      controller.enqueue(chunk as Uint8Array<ArrayBuffer>);
    },
  });
}

/**
 * A JSON response body read whole while within `maxBytes`; past it, `frame-too-large` is recorded
 * and `onTooLarge` drops the stream, and the answer is `undefined`.
 */
export async function boundedText(body: ReadableStream<Uint8Array> | null, maxBytes: number, recorder: TraceRecorder, exchange: number, onTooLarge: () => void, to: Side = 'client', conn = 0): Promise<string | undefined> {
  if (!body) return '';
  const parts: Buffer[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(parts).toString('utf8');
    size += value.byteLength;
    if (size > maxBytes) {
      recordTooLarge(recorder, to, conn, maxBytes, Buffer.concat([...parts, Buffer.from(value.buffer, value.byteOffset, Math.min(value.byteLength, HEAD_BYTES))]), size, exchange);
      onTooLarge();
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    parts.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
}
