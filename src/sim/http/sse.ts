/** One server-sent event as written on the wire, and what the trace needs from it. */
export interface SseBlock {
  /** The event's text without its terminating blank line. */
  readonly raw: string;
  readonly id?: string;
  /** The `data:` payload, when the event has a non-empty one. */
  readonly data?: string;
  /** Only comment lines (`: keepalive`). */
  readonly comment: boolean;
}

/** Decoders of whole chunks (no character cut at the end), shared by every SSE stream read. */
const startDecoder = new TextDecoder();
const midDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Reads one SSE stream's bytes as they come into complete events: what a `TextDecoder` in
 * stream mode and `splitSse` over the growing text give, at less cost. A chunk that ends in `\n`
 * ends no character halfway, so until one does not, chunks are decoded by shared decoders (a
 * byte-order mark dropped at the stream's start only, as the stream's decoder would), and the
 * stream gets its own decoder only then.
 */
export class SseReader {
  private decoder: TextDecoder | undefined;
  private buffer = '';
  private first = true;
  /** No decoder holds bytes of an unfinished character: every chunk so far ended in `\n`. */
  private whole = true;

  /**
   * The events `bytes` completes; `alone` when the chunk is exactly one whole event and nothing
   * else, so that its bytes are `${raw}\n\n` encoded (given UTF-8 that a `TextEncoder` wrote,
   * as the SDK's transports do), to be handed on as they are.
   */
  read(bytes: Uint8Array): { blocks: SseBlock[]; alone: boolean } {
    const endsLine = bytes[bytes.length - 1] === 0x0a;
    let text: string;
    if (this.decoder === undefined && endsLine) {
      text = (this.first ? startDecoder : midDecoder).decode(bytes);
    } else {
      this.decoder ??= this.first ? new TextDecoder() : new TextDecoder('utf-8', { ignoreBOM: true });
      text = this.decoder.decode(bytes, { stream: true });
    }
    const fresh = this.whole && this.buffer === '' && !(this.first && bytes[0] === 0xef);
    const { blocks, rest } = splitSse(this.buffer + text);
    this.buffer = rest;
    this.whole = endsLine;
    this.first = false;
    return { blocks, alone: fresh && endsLine && rest === '' && blocks.length === 1 };
  }
}

/**
 * Splits a growing SSE text into complete events (blank-line terminated); returns them and
 * the unterminated rest. Line endings are `\n`, as the SDK's server writes them.
 */
export function splitSse(buffer: string): { blocks: SseBlock[]; rest: string } {
  const blocks: SseBlock[] = [];
  let start = 0;
  for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n', start)) {
    blocks.push(parseBlock(buffer.slice(start, end)));
    start = end + 2;
  }
  return { blocks, rest: buffer.slice(start) };
}

function parseBlock(raw: string): SseBlock {
  let id: string | undefined;
  let data: string | undefined;
  let comment = true;
  // Line by line with indexOf, no array of lines: this runs for every event of every stream.
  for (let start = 0; start <= raw.length; ) {
    let end = raw.indexOf('\n', start);
    if (end < 0) end = raw.length;
    if (raw.charCodeAt(start) !== 58 /* ':' */) {
      comment = false;
      const colon = raw.indexOf(':', start);
      const hasValue = colon >= 0 && colon < end;
      const field = raw.slice(start, hasValue ? colon : end);
      if (field === 'id' || field === 'data') {
        let from = hasValue ? colon + 1 : end;
        if (raw.charCodeAt(from) === 32 /* ' ' */ && from < end) from++;
        const value = raw.slice(from, end);
        if (field === 'id') id = value;
        else data = data === undefined ? value : `${data}\n${value}`;
      }
    }
    start = end + 1;
  }
  return { raw, comment, ...(id !== undefined && { id }), ...(data !== undefined && data !== '' && { data }) };
}
