import { describe, expect, it } from 'vitest';
import { judge } from '../../src/model/judge.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';
import { abort, call, check, close, fault, handler, insertAfter, judged, reconnect, scenario, sleep } from './fixtures.ts';

const hang = { h: handler([], 'hang'), ok: handler() };

describe('lifecycle invariants', () => {
  it('lifecycle.close-settles: fires on an SDK never told of the close / silent on a close that rejects and aborts', async () => {
    const actions = [call('c1', 'h', { timeoutMs: 10_000 }), close('server')];
    const bad = await check(scenario(hang, actions, [fault('client', 'hide-close')]));
    expect(bad.ids).toContain('lifecycle.close-settles');
    const good = await check(scenario(hang, actions));
    expect(good.ids).not.toContain('lifecycle.close-settles');
    expect(good.run.result.trace.some((e) => e.kind === 'call-settle' && e.call === 'c1' && e.outcome === 'rejected')).toBe(true);
  });

  // Real SDK 1.32.2: the signal's listener survives close; the cancel goes out on the new transport.
  it('lifecycle.reconnect-isolation: fires on an old call\'s signal aborted after reconnect (SDK 1.32.2) / silent on a reconnect without the abort', async () => {
    const bad = await check(scenario(hang, [call('c1', 'h', { signal: 'a', timeoutMs: 10_000 }), close('client'), reconnect, abort('a')]));
    expect(bad.ids).toContain('lifecycle.reconnect-isolation');
    const good = await check(scenario(hang, [call('c1', 'h', { signal: 'a', timeoutMs: 10_000 }), close('client'), reconnect, call('c2', 'ok')]));
    expect(good.ids).not.toContain('lifecycle.reconnect-isolation');
    expect(good.run.result.trace.some((e) => e.kind === 'call-settle' && e.call === 'c2' && e.outcome === 'resolved')).toBe(true);
  });

  it('lifecycle.close-once: fires on a side observing its close twice / silent on one close', async () => {
    const actions = [call('c1', 'ok'), close('client')];
    expect((await check(scenario(hang, actions, [fault('client', 'double-close')]))).ids).toContain('lifecycle.close-once');
    expect((await check(scenario(hang, actions))).ids).not.toContain('lifecycle.close-once');
  });

  it('lifecycle.close-once: fires on a transport that closed without its side observing it / silent on a close the side observed', async () => {
    const actions = [call('c1', 'ok'), close('client')];
    const bad = await check(scenario(hang, actions, [fault('server', 'hide-close')]));
    expect(bad.run.findings.some((f) => f.invariant === 'lifecycle.close-once' && f.message.includes('never observed'))).toBe(true);
    expect((await check(scenario(hang, actions))).ids).not.toContain('lifecycle.close-once');
  });

  // Hand-built: what a client that skips the handshake on a reconnect would put on the wire.
  it('lifecycle.init-first: fires on a tools/call as the first request of a connection / silent on one after initialize and initialized', () => {
    const frames = (handshake: boolean): TraceEvent[] => {
      const bodies: TraceEventBody[] = [
        { kind: 'connect', conn: 1 },
        ...(handshake
          ? ([
              { kind: 'send', from: 'client', conn: 1, seq: 1, frame: { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} } },
              { kind: 'send', from: 'client', conn: 1, seq: 2, frame: { jsonrpc: '2.0', method: 'notifications/initialized' } },
            ] as TraceEventBody[])
          : []),
        { kind: 'send', from: 'client', conn: 1, seq: 3, frame: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'h' } } },
      ];
      return [...bodies.map((b, i) => ({ ...b, i, step: i, t: 0 }) as TraceEvent), { kind: 'end', outcome: 'quiescent', i: bodies.length, step: bodies.length, t: 0 } as TraceEvent];
    };
    const ids = (t: TraceEvent[]) => judge(t, undefined, { facts: v1Facts }).map((f) => f.invariant);
    expect(ids(frames(false))).toContain('lifecycle.init-first');
    expect(ids(frames(true))).not.toContain('lifecycle.init-first');
  });

  it('lifecycle.close-settles (handlers aborted): fires on a server never told of the close, its handler running on / silent on the SDK aborting it', async () => {
    const actions = [call('c1', 'h', { timeoutMs: 10_000 }), close('client')];
    const bad = await check(scenario(hang, actions, [fault('server', 'hide-close')]));
    expect(bad.run.findings.find((f) => f.invariant === 'lifecycle.close-settles')?.message).toMatch(/handler of request 1 was not aborted/);
    const good = await check(scenario(hang, actions));
    expect(good.ids).not.toContain('lifecycle.close-settles');
    expect(good.run.result.trace.some((e) => e.kind === 'handler-abort' && e.side === 'server')).toBe(true);
  });

  // Hand-edited: SDK 1.32.2 drops what an aborted handler sends; a transport that let it through would show this.
  it('lifecycle.close-settles (nothing sent): fires on a frame the server sends after it observed the close / silent on the real close', async () => {
    const { trace } = (await check(scenario(hang, [call('c1', 'h', { timeoutMs: 10_000 }), close('server')]))).run.result;
    const late = insertAfter(trace, (e) => e.kind === 'close' && e.side === 'server', {
      kind: 'send',
      from: 'server',
      conn: 1,
      seq: 999,
      frame: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'late' } },
    });
    expect(judged(late).find((f) => f.invariant === 'lifecycle.close-settles')?.message).toMatch(/sent on connection 1 after it observed that connection close/);
    expect(judged(trace).map((f) => f.invariant)).not.toContain('lifecycle.close-settles');
  });

  /** An old handler that keeps working after close and reconnect: it calls its peer, then reports progress. */
  const reconnecting = () =>
    scenario({ h: handler([sleep(10), { kind: 'call', method: 'sampling/createMessage' }], 'result', 'ignore'), ok: handler() }, [
      call('c1', 'h', { timeoutMs: 10_000 }),
      close('client'),
      reconnect,
      call('c2', 'ok'),
    ]);

  // Hand-edited: SDK 1.32.2 rejects the aborted handler's call before it leaves; one that sent it on the new transport would show this.
  it('lifecycle.reconnect-isolation/handler-request: fires on an old connection\'s handler sending its downstream request on the new connection / silent on the SDK refusing it', async () => {
    const { trace } = (await check(reconnecting())).run.result;
    const crossed = insertAfter(trace, (e) => e.kind === 'handler-step' && e.op.kind === 'call', {
      kind: 'send',
      from: 'server',
      conn: 2,
      seq: 999,
      frame: { jsonrpc: '2.0', id: 0, method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
    });
    expect(judged(crossed).filter((f) => f.invariant === 'lifecycle.reconnect-isolation').map((f) => f.clause)).toEqual(['handler-request']);
    expect(judged(trace).map((f) => f.invariant)).not.toContain('lifecycle.reconnect-isolation');
  });

  // Responses and progress of the old connection on the new one are misrouted frames: rpc.routing judges them.
  it('lifecycle.reconnect-isolation (responses): fires as rpc.routing on an old request\'s response sent on the new connection / silent on the real reconnect', async () => {
    const { trace } = (await check(reconnecting())).run.result;
    const crossed = insertAfter(trace, (e) => e.kind === 'handler-step' && e.op.kind === 'call', {
      kind: 'send',
      from: 'server',
      conn: 2,
      seq: 999,
      frame: { jsonrpc: '2.0', id: 1, result: { content: [] } },
    });
    expect(judged(crossed).map((f) => f.invariant)).toContain('rpc.routing');
    expect(judged(trace).map((f) => f.invariant)).not.toContain('rpc.routing');
  });

  /** A hand-built connection: `connect`, the client's frames in order, then `extra` events. */
  const handshake = (frames: readonly object[], extra: TraceEventBody[] = []): TraceEvent[] => {
    const bodies: TraceEventBody[] = [
      { kind: 'connect', conn: 1 },
      ...frames.map((frame, k) => ({ kind: 'send', from: 'client', conn: 1, seq: k + 1, frame }) as TraceEventBody),
      ...extra,
    ];
    return [...bodies.map((b, i) => ({ ...b, i, step: i, t: 0 }) as TraceEvent), { kind: 'end', outcome: 'quiescent', i: bodies.length, step: bodies.length, t: 0 } as TraceEvent];
  };
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} };
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  const toolCall = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'h' } };
  const initIds = (t: TraceEvent[]) => judged(t).filter((f) => f.invariant === 'lifecycle.init-first').map((f) => f.message);

  it('lifecycle.init-first (only pings before initialized): fires on a tools/call between initialize and initialized / silent on a ping there', () => {
    expect(initIds(handshake([initialize, toolCall, initialized]))).toEqual([expect.stringMatching(/before it sent notifications\/initialized/)]);
    expect(initIds(handshake([initialize, ping, initialized, toolCall]))).toEqual([]);
  });

  it('lifecycle.init-first (done when connect resolves): fires on connect() resolving before initialized went out / silent on it resolving after', () => {
    const ready: TraceEventBody = { kind: 'ready', conn: 1 };
    expect(initIds(handshake([initialize], [ready]))).toEqual([expect.stringMatching(/never sent notifications\/initialized/)]);
    expect(initIds(handshake([initialize, initialized], [ready]))).toEqual([]);
  });
});
