import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimEventStore } from '../../src/sim/http/simEventStore.ts';
import { SseReader, splitSse, type SseBlock } from '../../src/sim/http/sse.ts';

describe('splitSse: SSE text into events', () => {
  it('should split complete events and keep the unterminated rest', () => {
    const { blocks, rest } = splitSse('event: message\nid: e2\ndata: {"a":1}\n\n: keepalive\n\nid: e3\ndata: \n\nevent: mess');
    expect(blocks).toEqual([
      { raw: 'event: message\nid: e2\ndata: {"a":1}', comment: false, id: 'e2', data: '{"a":1}' },
      { raw: ': keepalive', comment: true },
      { raw: 'id: e3\ndata: ', comment: false, id: 'e3' },
    ]);
    expect(rest).toBe('event: mess');
  });
});

describe('SseReader: a stream of chunks into events', () => {
  /** What the network did before: one stream-mode decoder, `splitSse` over the growing text. */
  function reference(chunks: Uint8Array[]): SseBlock[][] {
    const decoder = new TextDecoder();
    let buffer = '';
    return chunks.map((bytes) => {
      const { blocks, rest } = splitSse(buffer + decoder.decode(bytes, { stream: true }));
      buffer = rest;
      return blocks;
    });
  }
  const encoder = new TextEncoder();
  const piece = fc.constantFrom('event: message\n', 'id: e1\n', 'data: {"a":"é€😀"}\n', 'data: x', ': keepalive', '\n', '\n\n', '\uFEFF', 'é', '😀', ':');
  /** Cuts `bytes` at the given offsets (some inside characters). */
  const cut = (bytes: Uint8Array, at: number[]) => {
    const points = [...new Set(at.map((k) => k % (bytes.length + 1)))].sort((a, b) => a - b);
    const out: Uint8Array[] = [];
    let from = 0;
    for (const p of [...points, bytes.length]) {
      out.push(bytes.subarray(from, p));
      from = p;
    }
    return out;
  };

  it('should give the events a stream-mode decoder gives, and call a chunk alone only when it is its one event encoded', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (pieces, at, eventChunks) => {
        const text = pieces.join('');
        // Either the SDK's way (one chunk per event) or arbitrary cuts, through characters too.
        const chunks = eventChunks ? text.split(/(?<=\n\n)/).map((t) => encoder.encode(t)) : cut(encoder.encode(text), at);
        const reader = new SseReader();
        const got = chunks.map((c) => reader.read(c));
        expect(got.map((g) => g.blocks)).toEqual(reference(chunks));
        got.forEach((g, k) => {
          if (g.alone) expect(encoder.encode(`${g.blocks[0]!.raw}\n\n`)).toEqual(chunks[k]);
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('should give the same events on bytes that are not UTF-8', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 12 }), { maxLength: 8 }), (raw) => {
        const chunks = raw.map((c) => (c.length % 2 ? Uint8Array.from([...c, 0x0a]) : c));
        const reader = new SseReader();
        expect(chunks.map((c) => reader.read(c).blocks)).toEqual(reference(chunks));
      }),
      { numRuns: 3000 },
    );
  });

  it('should call the SDK\'s one-event chunks alone', () => {
    const reader = new SseReader();
    const one = encoder.encode('event: message\nid: e1\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
    expect(reader.read(one).alone).toBe(true);
    expect(reader.read(encoder.encode(': keepalive\n\n')).alone).toBe(true);
    expect(reader.read(encoder.encode('data: a\n\ndata: b\n\n')).alone).toBe(false);
  });
});

describe('SimEventStore: deterministic ids, replay of one stream', () => {
  it('should replay the later events of the same stream only, priming events skipped', async () => {
    const store = new SimEventStore();
    const m = (id: number) => ({ jsonrpc: '2.0' as const, id, result: {} });
    expect(await store.storeEvent('A', {} as never)).toBe('e1');
    await store.storeEvent('A', m(1));
    await store.storeEvent('B', m(2));
    await store.storeEvent('A', m(3));
    const sent: [string, unknown][] = [];
    expect(await store.replayEventsAfter('e1', { send: async (id, msg) => void sent.push([id, msg]) })).toBe('A');
    expect(sent).toEqual([['e2', m(1)], ['e4', m(3)]]);
    expect(await store.getStreamIdForEventId('e3')).toBe('B');
  });
});
