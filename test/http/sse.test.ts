import { describe, expect, it } from 'vitest';
import { SimEventStore } from '../../src/sim/http/simEventStore.ts';
import { splitSse } from '../../src/sim/http/sse.ts';

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
