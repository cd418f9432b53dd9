import { describe, expect, it } from 'vitest';
import { call, check, fault, handler, plain, progress, scenario } from './fixtures.ts';

describe('leak invariants (end state)', () => {
  it('leak.correlation-maps: fires on a task-shaped result that keeps the progress handler / silent on a plain result', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h', { onprogress: true })], [fault('server', 'task-shaped-result')]));
    expect(bad.ids).toContain('leak.correlation-maps');
    expect(bad.run.endState.maps.client._progressHandlers?.size).toBe(1);
    const good = await check(scenario({ h: handler([progress(1)]) }, [call('c1', 'h', { onprogress: true })]));
    expect(good.ids).not.toContain('leak.correlation-maps');
  });

  it('leak.timers: fires on an interval nobody clears / silent on a run whose timers all fired', async () => {
    const bad = await check(scenario({ h: handler([], 'result', 'honour', { leakInterval: true }) }, [call('c1', 'h')]), { maxVirtualMs: 3000 });
    expect(bad.ids).toContain('leak.timers');
    expect((await check(plain())).ids).not.toContain('leak.timers');
  });

  // Real SDK 1.32.2: `request()` adds an abort listener to options.signal and never removes it.
  it('leak.abort-listeners: fires on a settled call that leaves its listener (SDK 1.32.2) / silent on a call still in flight', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h', { signal: 'a' })]));
    expect(bad.ids).toContain('leak.abort-listeners');
    expect(bad.run.endState.signals).toEqual([{ name: 'a', aborted: false, abortListeners: 1 }]);
    const good = await check(scenario({ h: handler([], 'hang') }, [call('c1', 'h', { signal: 'a', timeoutMs: 10_000 })]), { maxVirtualMs: 1000 });
    expect(good.ids).not.toContain('leak.abort-listeners');
  });
});
