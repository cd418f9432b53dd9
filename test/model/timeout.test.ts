import { describe, expect, it } from 'vitest';
import { call, check, editTrace, fault, handler, insertAfter, judged, plain, progress, scenario, sleep } from './fixtures.ts';

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

  // Each clause of timeout.max-total on its own: a release can break one and keep the others.
  const clauses = async (s: Parameters<typeof check>[0]) =>
    (await check(s)).run.findings.filter((f) => f.invariant === 'timeout.max-total').map((f) => f.clause);
  // Progress at 60 and 120 ms against a maximum of 110 ms (a timeout of 100 ms that progress resets, or 1 s).
  const progressPastMax = (reset: boolean) =>
    scenario({ h: handler([sleep(60), progress(1), sleep(60), progress(2), sleep(10)]) }, [
      call('c1', 'h', { timeoutMs: reset ? 100 : 1000, resetTimeoutOnProgress: reset, maxTotalTimeoutMs: 110, onprogress: true }),
    ]);

  it('timeout.max-total/settles-late: fires on a call settling after its maximum / silent on one rejected at it', async () => {
    expect(await clauses(scenario(hang, [call('c1', 'h', { timeoutMs: 1000, maxTotalTimeoutMs: 100 })]))).toContain('settles-late');
    expect(await clauses(scenario(hang, [call('c1', 'h', { timeoutMs: 100, maxTotalTimeoutMs: 100 })]))).not.toContain('settles-late');
    // Still pending at the end, past the maximum, is settling late too: the end-of-run check names the same clause.
    const never = scenario({ h: handler([sleep(500)], 'hang') }, [call('c1', 'h', { timeoutMs: 10_000, maxTotalTimeoutMs: 100 })], [fault('client', 'drop-max-total-option')]);
    const { run } = await check(never, { maxVirtualMs: 1000 });
    expect(run.result.trace.some((e) => e.kind === 'call-settle')).toBe(false);
    expect(run.findings.filter((f) => f.invariant === 'timeout.max-total').map((f) => f.clause)).toEqual(['settles-late']);
  });

  it('timeout.max-total/progress-after-max: fires on progress reaching a reset-on-progress call past its maximum (the maximum dropped) / silent when the SDK rejects at that progress', async () => {
    const withFault = { ...progressPastMax(true), adapterFaults: [fault('client', 'drop-max-total-option')] };
    expect(await clauses(withFault)).toContain('progress-after-max');
    const sdk = await clauses(progressPastMax(true));
    expect(sdk).not.toContain('progress-after-max');
    // What SDK 1.32.2 does instead: it rejects at that progress, 10 ms after the maximum.
    expect(sdk).toEqual(['settles-late']);
  });

  it('timeout.max-total/progress-after-max-no-reset: fires on progress past the maximum without reset-on-progress (SDK 1.32.2) / silent with it', async () => {
    expect(await clauses(progressPastMax(false))).toContain('progress-after-max-no-reset');
    expect(await clauses(progressPastMax(true))).not.toContain('progress-after-max-no-reset');
  });

  it('timeout.max-total/no-cancel: fires on progress exactly at the maximum, which rejects without a cancel (SDK 1.32.2) / silent on progress after it, which cancels', async () => {
    const atMax = scenario({ h: handler([sleep(1000), progress(1)]) }, [call('c1', 'h', { resetTimeoutOnProgress: true, maxTotalTimeoutMs: 1000, onprogress: true })]);
    expect(await clauses(atMax)).toEqual(['no-cancel']);
    expect(await clauses(progressPastMax(true))).not.toContain('no-cancel');
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

  it('timeout.reset-on-progress (off): fires on progress that moves the deadline though reset-on-progress is off / silent on the SDK ignoring it', async () => {
    const s = (faults?: Parameters<typeof scenario>[2]) =>
      scenario({ h: handler([sleep(80), progress(1)], 'hang') }, [call('c1', 'h', { timeoutMs: 100, onprogress: true })], faults);
    const bad = await check(s([fault('client', 'force-reset-option')]));
    expect(bad.run.findings.find((f) => f.invariant === 'timeout.reset-on-progress')?.message).toMatch(/reset-on-progress was off/);
    const good = await check(s());
    expect(good.ids).not.toContain('timeout.reset-on-progress');
    expect(good.run.result.trace.some((e) => e.kind === 'call-settle' && e.t === 100)).toBe(true);
  });

  // Hand-edited: a promise cannot settle twice, but a wrapper that calls back twice would show this.
  it('timeout.quiet-after-settle (resolve/reject): fires on a call settling a second time / silent on one settle', async () => {
    const { trace } = (await check(plain())).run.result;
    const twice = insertAfter(trace, (e) => e.kind === 'call-settle', { kind: 'call-settle', call: 'c1', from: 'client', outcome: 'rejected', message: 'again' });
    expect(judged(twice).map((f) => f.invariant)).toContain('timeout.quiet-after-settle');
    expect(judged(editTrace(trace, () => 'keep')).map((f) => f.invariant)).not.toContain('timeout.quiet-after-settle');
  });
});
