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
