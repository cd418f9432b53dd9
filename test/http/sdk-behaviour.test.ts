import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/sim/scenario.ts';
import { formatTrace, type TraceEvent } from '../../src/sim/trace.ts';
import { runHttp, sleeper } from './helpers.ts';

/** Seqs of the server's sends that no SSE event or JSON body ever carried. */
function neverWritten(t: readonly TraceEvent[]): string[] {
  const written = new Set<number>();
  for (const e of t) {
    if (e.kind === 'sse-event' && e.at === 'server' && e.seq !== undefined) written.add(e.seq);
    if (e.kind === 'http-response' && e.at === 'server') e.seqs.forEach((s) => written.add(s));
  }
  return t.flatMap((e) => (e.kind === 'send' && e.from === 'server' && !written.has(e.seq) ? [JSON.stringify(e.frame)] : []));
}

describe('SDK 1.32.2 over http: JSON response mode drops related messages silently', () => {
  const scenario = (response: 'json' | 'sse'): Scenario => ({
    profile: 'http',
    http: { stateful: true, response, eventStore: false },
    handlers: {
      t: { steps: [{ kind: 'progress', progress: 1 }, { kind: 'call', method: 'sampling/createMessage', timeoutMs: 5000 }], end: { kind: 'result' }, onAbort: 'honour' },
    },
    actions: [{ kind: 'call', call: 'c1', method: 'tools/call', handler: 't', options: { onprogress: true } }],
  });

  it('should lose progress and the tool\'s sampling request in json mode (the sampling call times out)', async () => {
    const { result } = await runHttp(scenario('json'));
    const t = result.trace;
    const lost = neverWritten(t);
    expect(lost.some((f) => f.includes('notifications/progress')), formatTrace(t)).toBe(true);
    expect(lost.some((f) => f.includes('sampling/createMessage'))).toBe(true);
    expect(t.some((e) => e.kind === 'onprogress')).toBe(false);
    expect(t.find((e) => e.kind === 'call-settle' && e.call.includes('sampling'))).toMatchObject({ outcome: 'rejected', t: 5000 });
    expect(t.some((e) => e.kind === 'onerror' && e.side === 'server')).toBe(false); // silently
  });

  it('should carry both on the POST stream in sse mode', async () => {
    const { result } = await runHttp(scenario('sse'));
    expect(neverWritten(result.trace)).toEqual([]);
    expect(result.trace.find((e) => e.kind === 'call-settle' && e.call.includes('sampling'))).toMatchObject({ outcome: 'resolved' });
  });
});

describe('SDK 1.32.2 over http: a reconnection timer survives the client transport\'s close()', () => {
  it('should fire a GET for the old session after the client closed and reconnected', async () => {
    const { result } = await runHttp({
      profile: 'http',
      http: { stateful: true, response: 'sse', eventStore: true },
      handlers: { sleeper },
      actions: [
        { kind: 'call', call: 'c1', method: 'tools/call', handler: 'sleeper', options: {} },
        { kind: 'close', side: 'server' },
        { kind: 'reconnect' },
      ],
    });
    const t = result.trace;
    const closed = t.findIndex((e) => e.kind === 'close' && e.side === 'client' && e.conn === 1);
    const connected = t.findIndex((e) => e.kind === 'connect' && e.conn === 2);
    expect(closed).toBeGreaterThan(0);
    // Both the GET stream and the resumable POST stream scheduled a reconnection; close() cleared one.
    const zombie = t.find((e) => e.i > connected && e.kind === 'http-request' && e.at === 'client' && e.session === 'session-1');
    expect(zombie, formatTrace(t)).toMatchObject({ method: 'GET' });
    expect(t.some((e) => e.i > connected && e.kind === 'onerror' && e.message.includes('Maximum reconnection attempts'))).toBe(true);
  });
});
