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
  const data: string[] = [];
  let comment = true;
  for (const line of raw.split('\n')) {
    if (line.startsWith(':')) continue;
    comment = false;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  const text = data.join('\n');
  return { raw, comment, ...(id !== undefined && { id }), ...(text !== '' && { data: text }) };
}
