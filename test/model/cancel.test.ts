import { describe, expect, it } from 'vitest';
import { abort, call, check, fault, handler, plain, scenario, sleep } from './fixtures.ts';

const hangWithSignal = (faults?: Parameters<typeof scenario>[2]) =>
  scenario({ h: handler([], 'hang') }, [call('c1', 'h', { signal: 'a' }), abort('a')], faults);

describe('cancel invariants', () => {
  // Real SDK 1.32.2: the listener on options.signal outlives the call; aborting later cancels a finished request.
  it('cancel.in-flight-only: fires on a shared signal aborted after the call settled (SDK 1.32.2) / silent on an in-flight abort', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h', { signal: 'a' }), abort('a')]));
    expect(bad.ids).toContain('cancel.in-flight-only');
    expect((await check(hangWithSignal())).ids).not.toContain('cancel.in-flight-only');
  });

  it('cancel.in-flight-only: fires on a timeout followed by an abort of the same call (SDK 1.32.2) / silent on the timeout alone', async () => {
    const s = scenario({ h: handler([], 'hang', 'ignore') }, [call('c1', 'h', { signal: 'a', timeoutMs: 100 }), abort('a')]);
    // Let the timeout fire first (timer is the last enabled action), then abort.
    const { ids, run } = await check(s, { tape: [0, 0, 0, 0, 0, 1] });
    expect(run.result.trace.filter((e) => e.kind === 'send' && /cancelled/.test(JSON.stringify(e.frame))).length).toBe(2);
    expect(ids).toContain('cancel.in-flight-only');
    const alone = await check(scenario({ h: handler([], 'hang', 'ignore') }, [call('c1', 'h', { signal: 'a', timeoutMs: 100 })]));
    expect(alone.ids).not.toContain('cancel.in-flight-only');
  });

  it('cancel.not-initialize: fires on a cancel of initialize sent by the adapter / silent on a plain connect', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h')], [fault('client', 'cancel-initialize')]));
    expect(bad.ids).toContain('cancel.not-initialize');
    expect((await check(plain())).ids).not.toContain('cancel.not-initialize');
  });

  // Real SDK 1.32.2: initialize goes through request(), whose timeout sends notifications/cancelled.
  it('cancel.not-initialize: fires on an initialize that times out before the server answers (SDK 1.32.2) / silent on a prompt handshake', async () => {
    const { ids, run } = await check(plain(), { tape: [1] });
    expect(run.result.trace.some((e) => e.kind === 'ready' && /timed out/.test(e.error ?? ''))).toBe(true);
    expect(ids).toContain('cancel.not-initialize');
    expect(ids).not.toContain('cancel.no-response-after'); // the server may ignore the illegal cancel
    expect((await check(plain(), { tape: [0] })).ids).not.toContain('cancel.not-initialize');
  });

  it('cancel.handler-aborted: fires on a cancel of id 0 delivered in the same burst as its request (SDK 1.32.2) / silent on the same race for id 1', async () => {
    // The timeout fires before anything is delivered; then the request and its cancel arrive in one burst.
    const mk = (first: boolean) =>
      scenario({ ok: handler(), s: handler([], 'hang') }, [
        ...(first ? [] : [call('s0', 'ok', {}, 'sampling/createMessage')]),
        call('sX', 's', { timeoutMs: 100 }, 'sampling/createMessage'),
      ]);
    const bad = await check(mk(true), { tape: [0, 0, 0, 0, 1, 1] });
    expect(bad.run.result.trace.some((e) => e.kind === 'deliver' && e.burst === 2)).toBe(true);
    expect(bad.ids).toContain('cancel.handler-aborted');
    const good = await check(mk(false), { tape: [0, 0, 0, 0, 0, 0, 0, 1, 1] });
    expect(good.run.result.trace.some((e) => e.kind === 'deliver' && e.burst === 2)).toBe(true);
    expect(good.ids).not.toContain('cancel.handler-aborted');
    expect(good.ids).not.toContain('lifecycle.close-settles');
  });

  it('cancel.well-formed: fires on a cancel without requestId / silent on the SDK\'s cancel', async () => {
    expect((await check(hangWithSignal([fault('client', 'cancel-without-id')]))).ids).toContain('cancel.well-formed');
    expect((await check(hangWithSignal())).ids).not.toContain('cancel.well-formed');
  });

  it('cancel.no-response-after: fires on a receiver answering a cancelled request / silent on the SDK dropping the answer', async () => {
    expect((await check(hangWithSignal([fault('server', 'answer-cancelled')]))).ids).toContain('cancel.no-response-after');
    expect((await check(hangWithSignal())).ids).not.toContain('cancel.no-response-after');
  });

  // Real SDK 1.32.2: `_oncancel` returns early on a falsy requestId, so a cancel of request 0 never aborts.
  it('cancel.handler-aborted: fires on a cancel of server-sent request id 0 (SDK 1.32.2) / silent on a cancel of id 1', async () => {
    const bad = await check(
      scenario({ s: handler([], 'hang') }, [call('s0', 's', { signal: 'a' }, 'sampling/createMessage'), abort('a')]),
    );
    expect(bad.ids).toContain('cancel.handler-aborted');
    expect(bad.run.findings.find((f) => f.invariant === 'cancel.handler-aborted')?.request).toBe('s0');
    const good = await check(
      scenario({ ok: handler(), s: handler([], 'hang') }, [
        call('s0', 'ok', {}, 'sampling/createMessage'),
        call('s1', 's', { signal: 'b' }, 'sampling/createMessage'),
        abort('b'),
      ]),
    );
    expect(good.ids).not.toContain('cancel.handler-aborted');
  });

  it('cancel.zombie-work: fires on a handler that ignores its abort and keeps stepping / silent on a handler that honours it', async () => {
    const mk = (onAbort: 'ignore' | 'honour') => scenario({ h: handler([sleep(10), sleep(10)], 'result', onAbort) }, [call('c1', 'h', { signal: 'a' }), abort('a')]);
    expect((await check(mk('ignore'))).ids).toContain('cancel.zombie-work');
    expect((await check(mk('honour'))).ids).not.toContain('cancel.zombie-work');
  });

  it('cancel.abort-swallowed: fires on a handler returning a result after its abort / silent on a handler that rethrows', async () => {
    const mk = (onAbort: 'swallow' | 'honour') => scenario({ h: handler([], 'hang', onAbort) }, [call('c1', 'h', { signal: 'a' }), abort('a')]);
    const bad = await check(mk('swallow'));
    expect(bad.run.findings.find((f) => f.invariant === 'cancel.abort-swallowed')?.severity).toBe('note');
    expect((await check(mk('honour'))).ids).not.toContain('cancel.abort-swallowed');
  });

  // Real SDK 1.32.2: `_onresponse` calls onerror for an id it no longer tracks.
  it('cancel.late-response-silent: fires on a response crossing the cancel (SDK 1.32.2) / silent on a cancel that wins', async () => {
    const s = scenario({ h: handler() }, [call('c1', 'h', { signal: 'a' }), abort('a')]);
    const bad = await check(s, { tape: [0, 0, 0, 0, 1, 0, 1, 0] });
    expect(bad.ids).toContain('cancel.late-response-silent');
    expect((await check(hangWithSignal())).ids).not.toContain('cancel.late-response-silent');
  });

  it('cancel.race-graceful: fires on a crossing that breaks the connection / silent on a crossing after which the next call succeeds', async () => {
    const actions = [call('c1', 'h', { signal: 'a' }), abort('a'), call('c2', 'h')];
    const tape = [0, 0, 0, 0, 1, 0, 1, 0];
    const bad = await check(scenario({ h: handler() }, actions, [fault('client', 'close-on-late-response')]), { tape });
    expect(bad.ids).toContain('cancel.race-graceful');
    const good = await check(scenario({ h: handler() }, actions), { tape });
    expect(good.ids).toContain('cancel.late-response-silent'); // the crossing happened
    expect(good.ids).not.toContain('cancel.race-graceful');
    expect(good.run.result.trace.some((e) => e.kind === 'call-settle' && e.call === 'c2' && e.outcome === 'resolved')).toBe(true);
  });

  it('cancel.abort-sends-cancel: fires on an abort mid-call whose cancel never goes out / silent on the SDK\'s abort mid-call', async () => {
    const s = (faults?: Parameters<typeof scenario>[2]) => scenario({ h: handler([sleep(50)]) }, [call('c1', 'h', { signal: 'a' }), abort('a')], faults);
    const bad = await check(s([fault('client', 'drop-outgoing-cancel')]));
    expect(bad.ids).toContain('cancel.abort-sends-cancel');
    expect((await check(s())).ids).not.toContain('cancel.abort-sends-cancel');
  });
});
