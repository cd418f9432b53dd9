import { describe, expect, it } from 'vitest';
import { judge } from '../../src/model/judge.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';
import { abort, call, check, close, fault, handler, reconnect, scenario } from './fixtures.ts';

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
});
