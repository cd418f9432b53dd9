import { describe, expect, it } from 'vitest';
import { call, check, fault, handler, plain, scenario } from './fixtures.ts';

describe('harness and liveness invariants', () => {
  it('harness.unhandled: fires on an unhandled rejection in a handler / silent on a plain run', async () => {
    const bad = await check(scenario({ h: handler([], 'result', 'honour', { unhandledRejection: true }) }, [call('c1', 'h')]));
    expect(bad.ids).toContain('harness.unhandled');
    expect((await check(plain())).ids).not.toContain('harness.unhandled');
  });

  it('harness.unhandled (exception): fires on an exception thrown from a handler\'s timer / silent on a plain run', async () => {
    const bad = await check(scenario({ h: handler([], 'result', 'honour', { throwInTimer: true }) }, [call('c1', 'h')]));
    expect(bad.ids).toContain('harness.unhandled');
    expect((await check(plain())).ids).not.toContain('harness.unhandled');
  });

  it('liveness.quiescent (step budget): fires on a run that ends on its step budget / silent on the same run with steps to spare', async () => {
    const bad = await check(plain(), { maxSteps: 3 });
    expect(bad.run.findings.find((f) => f.invariant === 'liveness.quiescent')?.message).toMatch(/step/);
    expect((await check(plain(), { maxSteps: 1000 })).ids).not.toContain('liveness.quiescent');
  });

  it('liveness.quiescent: fires on a run that ends on its time budget / silent on a quiescent run', async () => {
    const bad = await check(scenario({ h: handler([], 'hang') }, [call('c1', 'h', { timeoutMs: 10_000 })]), { maxVirtualMs: 1000 });
    expect(bad.ids).toContain('liveness.quiescent');
    expect(bad.ids).not.toContain('timeout.settles'); // still within its bound when the run stopped
    expect((await check(plain())).ids).not.toContain('liveness.quiescent');
  });

  it('liveness.handler-ends: fires on a handler that hangs forever / silent on a hang the cancel aborts', async () => {
    const s = (faults?: Parameters<typeof scenario>[2]) => scenario({ h: handler([], 'hang') }, [call('c1', 'h', { timeoutMs: 100 })], faults);
    expect((await check(s([fault('client', 'drop-outgoing-cancel')]))).ids).toContain('liveness.handler-ends');
    expect((await check(s())).ids).not.toContain('liveness.handler-ends');
  });

  it('a plain call and a plain progress call raise no finding at all', async () => {
    expect((await check(plain())).run.findings).toEqual([]);
  });
});
