import { describe, expect, it } from 'vitest';
import { call, check, fault, handler, progress, scenario, sleep } from './fixtures.ts';

const hang = { h: handler([], 'hang') };

describe('timeout invariants', () => {
  it('timeout.settles: fires on an adapter that drops the caller\'s timeout / silent on the SDK honouring it', async () => {
    const s = (faults?: Parameters<typeof scenario>[2]) => scenario(hang, [call('c1', 'h', { timeoutMs: 100 })], faults);
    const bad = await check(s([fault('client', 'drop-timeout-option')]));
    expect(bad.ids).toContain('timeout.settles');
    expect((await check(s())).ids).not.toContain('timeout.settles');
  });

  it('timeout.sends-cancel: fires on a lost cancel after a timeout / silent on the SDK\'s timeout', async () => {
    const s = (faults?: Parameters<typeof scenario>[2]) => scenario(hang, [call('c1', 'h', { timeoutMs: 100 })], faults);
    expect((await check(s([fault('client', 'drop-outgoing-cancel')]))).ids).toContain('timeout.sends-cancel');
    expect((await check(s())).ids).not.toContain('timeout.sends-cancel');
  });

  it('timeout.reset-on-progress: fires on progress that does not move the deadline / silent on progress that does', async () => {
    const handlers = { h: handler([sleep(80), progress(1), sleep(80)]) };
    const opts = { timeoutMs: 100, resetTimeoutOnProgress: true, onprogress: true };
    const bad = await check(scenario(handlers, [call('c1', 'h', opts)], [fault('client', 'drop-reset-option')]));
    expect(bad.ids).toContain('timeout.reset-on-progress');
    const good = await check(scenario(handlers, [call('c1', 'h', opts)]));
    expect(good.ids).not.toContain('timeout.reset-on-progress');
    expect(good.run.result.trace.some((e) => e.kind === 'call-settle' && e.outcome === 'resolved')).toBe(true);
  });

  // Real SDK 1.32.2: maxTotalTimeout is only checked when progress arrives.
  it('timeout.max-total: fires on a maximum with no progress (SDK 1.32.2) / silent on a maximum above the timeout', async () => {
    const bad = await check(scenario(hang, [call('c1', 'h', { timeoutMs: 1000, maxTotalTimeoutMs: 100 })]));
    expect(bad.ids).toContain('timeout.max-total');
    const good = await check(scenario(hang, [call('c1', 'h', { timeoutMs: 1000, maxTotalTimeoutMs: 5000 })]));
    expect(good.ids).not.toContain('timeout.max-total');
  });

  // Real SDK 1.32.2: when progress trips the maximum, the call rejects but no cancel goes out.
  it('timeout.max-total: fires on progress tripping the maximum without a cancel (SDK 1.32.2) / silent on a maximum never reached', async () => {
    const s = scenario({ h: handler([sleep(60), progress(1), sleep(60), progress(2)], 'hang') }, [
      call('c1', 'h', { timeoutMs: 100, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 110, onprogress: true }),
    ]);
    const { ids, run } = await check(s);
    expect(run.result.trace.some((e) => e.kind === 'call-settle' && /Maximum total timeout/.test(e.message ?? ''))).toBe(true);
    expect(ids).toContain('timeout.max-total');
    const within = scenario({ h: handler([sleep(60), progress(1), sleep(30)]) }, [
      call('c1', 'h', { timeoutMs: 100, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 110, onprogress: true }),
    ]);
    expect((await check(within)).ids).not.toContain('timeout.max-total');
  });

  it('timeout.quiet-after-settle: fires on onprogress running after the call settled / silent on a plain progress call', async () => {
    const bad = await check(
      scenario({ h: handler() }, [call('c1', 'h', { onprogress: true })], [
        fault('server', 'task-shaped-result'),
        fault('server', 'progress-after-response'),
      ]),
    );
    expect(bad.ids).toContain('timeout.quiet-after-settle');
    const good = await check(scenario({ h: handler([progress(1)]) }, [call('c1', 'h', { onprogress: true })]));
    expect(good.ids).not.toContain('timeout.quiet-after-settle');
  });
});
