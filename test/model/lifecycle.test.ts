import { describe, expect, it } from 'vitest';
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
});
