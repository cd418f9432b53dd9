import { describe, expect, it } from 'vitest';
import { abort, call, check, fault, handler, progress, scenario, sleep } from './fixtures.ts';

const withProgress = (...steps: Parameters<typeof handler>[0] & object) =>
  scenario({ h: handler(steps) }, [call('c1', 'h', { onprogress: true })]);

describe('progress invariants', () => {
  it('progress.token-requested: fires on a self-made token / silent on the request\'s own token', async () => {
    const bad = await check(scenario({ h: handler([progress(1)], 'result', 'honour', { progressToken: 'invent' }) }, [call('c1', 'h', { onprogress: true })]));
    expect(bad.ids).toContain('progress.token-requested');
    expect((await check(withProgress(progress(1)))).ids).not.toContain('progress.token-requested');
  });

  it('progress.after-response: fires on progress sent after the result / silent on progress before it', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h', { onprogress: true })], [fault('server', 'progress-after-response')]));
    expect(bad.ids).toContain('progress.after-response');
    expect((await check(withProgress(progress(1)))).ids).not.toContain('progress.after-response');
  });

  it('progress.increasing: fires on equal progress values / silent on strictly increasing ones', async () => {
    expect((await check(withProgress(progress(1), progress(1)))).ids).toContain('progress.increasing');
    expect((await check(withProgress(progress(1), progress(2)))).ids).not.toContain('progress.increasing');
  });

  it('progress.token-unique: fires on two active requests sharing a token / silent on the SDK\'s tokens', async () => {
    const actions = [call('c1', 'h', { onprogress: true }), call('c2', 'h', { onprogress: true })];
    const handlers = { h: handler([sleep(10)]) };
    const bad = await check(scenario(handlers, actions, [fault('client', 'constant-progress-token')]));
    expect(bad.ids).toContain('progress.token-unique');
    expect((await check(scenario(handlers, actions))).ids).not.toContain('progress.token-unique');
  });

  it('progress.total-stable: fires on a total that changes / silent on a stable total', async () => {
    const bad = await check(withProgress(progress(1, 10), progress(2, 5)));
    expect(bad.run.findings.find((f) => f.invariant === 'progress.total-stable')?.severity).toBe('note');
    expect((await check(withProgress(progress(1, 10), progress(2, 10)))).ids).not.toContain('progress.total-stable');
  });

  it('progress.delivered: fires on a received progress that never reaches onprogress / silent on progress that does', async () => {
    const bad = await check(scenario({ h: handler([progress(1)]) }, [call('c1', 'h', { onprogress: true })], [fault('client', 'drop-incoming-progress')]));
    expect(bad.ids).toContain('progress.delivered');
    expect((await check(withProgress(progress(1), progress(2)))).ids).not.toContain('progress.delivered');
  });

  // Real SDK 1.32.2: `_onprogress` calls onerror for a token it no longer knows.
  it('progress.race-silent: fires on progress crossing a timeout (SDK 1.32.2) / silent on a cancel that wins', async () => {
    const s = scenario({ h: handler([sleep(100), progress(1)]) }, [call('c1', 'h', { onprogress: true, timeoutMs: 100 })]);
    const bad = await check(s, { tape: [0, 0, 0, 0, 0, 0, 0, 1, 1, 1] });
    expect(bad.ids).toContain('progress.race-silent');
    expect(bad.run.result.trace.some((e) => e.kind === 'onerror' && /unknown token/.test(e.message))).toBe(true);
    expect((await check(s)).ids).not.toContain('progress.race-silent');
  });

  it('progress.reaches-requester: fires on a handler\'s progress dropped on its way out / silent on the SDK delivering it', async () => {
    const bad = await check(scenario({ h: handler([progress(1)]) }, [call('c1', 'h', { onprogress: true })], [fault('server', 'drop-outgoing-progress')]));
    expect(bad.ids).toContain('progress.reaches-requester');
    expect((await check(withProgress(progress(1), progress(2)))).ids).not.toContain('progress.reaches-requester');
  });

  it('progress.token-requested (another request\'s token): fires on a handler\'s progress rewritten to the token of another open request / silent on each handler naming its own', async () => {
    const s = (faults?: Parameters<typeof scenario>[2]) =>
      scenario({ h: handler([sleep(10), progress(1)]), slow: handler([sleep(50)]) }, [call('c1', 'slow', { onprogress: true }), call('c2', 'h', { onprogress: true })], faults);
    const bad = await check(s([fault('server', 'swap-progress-token')]));
    expect(bad.run.findings.find((f) => f.invariant === 'progress.token-requested')?.message).toMatch(/naming the token of .*another request/);
    expect((await check(s())).ids).not.toContain('progress.token-requested');
  });

  it('progress.increasing (decreasing): fires on progress that goes down / silent on strictly increasing values', async () => {
    expect((await check(withProgress(progress(2), progress(1)))).ids).toContain('progress.increasing');
    expect((await check(withProgress(progress(1), progress(2)))).ids).not.toContain('progress.increasing');
  });

  // Real SDK 1.32.2: the same onerror for a token it dropped when the response came.
  it('progress.race-silent (after response): fires on progress arriving after the result (SDK 1.32.2) / silent on progress before it', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h', { onprogress: true })], [fault('server', 'progress-after-response')]));
    expect(bad.ids).toContain('progress.race-silent');
    expect((await check(withProgress(progress(1)))).ids).not.toContain('progress.race-silent');
  });

  // Real SDK 1.32.2: the caller's abort drops the token; the progress already on the wire then raises onerror.
  it('progress.race-silent (after cancel): fires on progress crossing the caller\'s cancel (SDK 1.32.2) / silent on the cancel after the progress', async () => {
    const s = scenario({ h: handler([progress(1)], 'hang') }, [call('c1', 'h', { signal: 'a', onprogress: true }), abort('a')]);
    const bad = await check(s, { tape: [0, 0, 1, 1, 0, 1, 0, 0] });
    expect(bad.ids).toContain('progress.race-silent');
    expect(bad.ids).not.toContain('progress.after-response');
    expect((await check(s)).ids).not.toContain('progress.race-silent');
  });
});
