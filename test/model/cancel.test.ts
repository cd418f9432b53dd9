import type { Scenario } from '../../src/sim/index.ts';
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/sim/index.ts';
import { abort, call, check, editTrace, fault, frameIs, handler, insertAfter, judged, plain, progress, scenario, sleep } from './fixtures.ts';

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

  // A hosted McpServer's tool callback starts after the SDK's handler (it checks the input first): the trace says when (`tool-start`).
  it('cancel.abort-swallowed with a tool-start: silent when the signal aborted before the tool callback started / fires when it aborted while the tool ran', async () => {
    const { trace } = (await check(scenario({ h: handler([], 'hang', 'swallow') }, [call('c1', 'h', { signal: 'a' }), abort('a')]))).run.result;
    const toolStart = (aborted: boolean) => ({ kind: 'tool-start', side: 'server', conn: 1, id: 1, aborted }) as const;
    const swallowed = (t: readonly TraceEvent[]) => judged(t).map((f) => f.invariant).filter((id) => id === 'cancel.abort-swallowed');
    const beforeTool = insertAfter(trace, (e) => e.kind === 'handler-abort', toolStart(true));
    const whileToolRan = insertAfter(trace, (e) => e.kind === 'handler-start' && e.side === 'server' && e.id === 1, toolStart(false));
    expect(swallowed(beforeTool)).toEqual([]);
    expect(swallowed(whileToolRan)).toEqual(['cancel.abort-swallowed']);
  });

  // A hosted callback's own conduct (`tool-end`, `abort-reached`): the outcome says it returned after the abort reached it.
  it('cancel.abort-swallowed (hosted callback): the message says how the abort reached the tool and what it returned / silent when the abort never reached it', async () => {
    const { trace } = (await check(scenario({ h: handler([], 'hang', 'swallow') }, [call('c1', 'h', { signal: 'a' }), abort('a')]))).run.result;
    const reached = insertAfter(
      trace,
      (e) => e.kind === 'handler-abort',
      { kind: 'abort-reached', side: 'server', conn: 1, id: 1, via: 'fetch' },
      { kind: 'tool-end', side: 'server', conn: 1, id: 1, outcome: 'returned', isError: true },
    );
    const f = judged(reached).find((x) => x.invariant === 'cancel.abort-swallowed');
    expect(f?.message).toBe("the server's handler for request 1 was reached by its abort (its fetch rejected with the abort) and returned an isError result instead of throwing.");
    // A tool that started after the abort is still judged by what reached it.
    const lateTool = insertAfter(reached, (e) => e.kind === 'handler-abort', { kind: 'tool-start', side: 'server', conn: 1, id: 1, aborted: true });
    expect(judged(lateTool).map((x) => x.invariant)).toContain('cancel.abort-swallowed');
    const ignored = editTrace(trace, (e) => (e.kind === 'handler-end' ? { ...e, outcome: 'result' } : 'keep'));
    expect(judged(ignored).map((x) => x.invariant)).not.toContain('cancel.abort-swallowed');
  });

  it('cancel.never-ends: fires on an aborted handler of a user\'s server still running at quiescence / silent on one that ends on its abort, and on a scripted one', async () => {
    const { trace: scripted } = (await check(hangWithSignal())).run.result;
    const trace = editTrace(scripted, (e) => (e.kind === 'handler-start' && e.side === 'server' ? { ...e, hosted: true } : 'keep'));
    expect(trace.some((e) => e.kind === 'handler-end' && e.outcome === 'aborted')).toBe(true);
    const ids = (t: readonly TraceEvent[]) => judged(t).map((f) => f.invariant);
    const neverEnds = editTrace(trace, (e) => (e.kind === 'handler-end' ? undefined : 'keep'));
    expect(ids(neverEnds)).toContain('cancel.never-ends');
    expect(ids(neverEnds)).not.toContain('liveness.handler-ends');
    expect(ids(trace)).not.toContain('cancel.never-ends');
    // A scripted handler that ignores its abort is the SDK campaign's stand-in peer, not code under test.
    expect(ids(editTrace(scripted, (e) => (e.kind === 'handler-end' ? undefined : 'keep')))).not.toContain('cancel.never-ends');
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

  /** The clauses of `id`'s findings on a trace judged again. */
  const clausesOf = (trace: readonly TraceEvent[], id: string) => judged(trace).filter((f) => f.invariant === id).map((f) => f.clause);

  it('cancel.in-flight-only/never-issued: fires on a cancel naming an id its sender never used / silent on the SDK\'s cancel of its own request', async () => {
    const { trace } = (await check(hangWithSignal())).run.result;
    const stranger = editTrace(trace, (e) =>
      frameIs(e, 'send', 'notifications/cancelled') && e.kind === 'send' ? { ...e, frame: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } } } : 'keep',
    );
    expect(clausesOf(stranger, 'cancel.in-flight-only')).toEqual(['never-issued']);
    expect(clausesOf(trace, 'cancel.in-flight-only')).toEqual([]);
  });

  it('cancel.zombie-work (downstream calls): fires on an aborted handler that still calls its peer / silent on one that honours the abort', async () => {
    const mk = (onAbort: 'ignore' | 'honour') =>
      scenario({ h: handler([sleep(10), { kind: 'call', method: 'sampling/createMessage' }], 'result', onAbort) }, [call('c1', 'h', { signal: 'a' }), abort('a')]);
    expect((await check(mk('ignore'))).run.findings.find((f) => f.invariant === 'cancel.zombie-work')?.message).toMatch(/\(call\) after its signal aborted/);
    expect((await check(mk('honour'))).ids).not.toContain('cancel.zombie-work');
  });

  it('cancel.zombie-work (progress attempts): fires on an aborted handler that still emits progress / silent on one that honours the abort', async () => {
    const mk = (onAbort: 'ignore' | 'honour') => scenario({ h: handler([sleep(10), progress(1)], 'result', onAbort) }, [call('c1', 'h', { signal: 'a', onprogress: true }), abort('a')]);
    expect((await check(mk('ignore'))).run.findings.find((f) => f.invariant === 'cancel.zombie-work')?.message).toMatch(/\(progress\) after its signal aborted/);
    expect((await check(mk('honour'))).ids).not.toContain('cancel.zombie-work');
  });

  // The crossing of cancel.late-response-silent's SDK 1.32.2 pair, edited: the call resolves with the late response instead of rejecting at the abort.
  it('cancel.late-response-silent/resolves: fires on a cancelled call resolved by the late response / silent on the SDK rejecting it at the abort', async () => {
    const s = scenario({ h: handler() }, [call('c1', 'h', { signal: 'a' }), abort('a')]);
    const { trace } = (await check(s, { tape: [0, 0, 0, 0, 1, 0, 1, 0] })).run.result;
    const dropped = editTrace(trace, (e) => (e.kind === 'call-settle' && e.call === 'c1' ? undefined : 'keep'));
    const resolves = insertAfter(dropped, (e) => frameIs(e, 'deliver', 'result id=1') && e.kind === 'deliver' && e.to === 'client', {
      kind: 'call-settle',
      call: 'c1',
      from: 'client',
      outcome: 'resolved',
    });
    expect(clausesOf(resolves, 'cancel.late-response-silent')).toContain('resolves');
    expect(clausesOf(trace, 'cancel.late-response-silent')).not.toContain('resolves');
  });

  it('cancel.race-graceful (no crash): fires on a side closing the connection when a response crosses its cancel / silent on the crossing the SDK survives', async () => {
    const actions = [call('c1', 'h', { signal: 'a' }), abort('a')];
    const tape = [0, 0, 0, 0, 1, 0, 1, 0];
    const bad = await check(scenario({ h: handler() }, actions, [fault('client', 'close-on-late-response')]), { tape });
    expect(bad.run.findings.find((f) => f.invariant === 'cancel.race-graceful')?.message).toMatch(/closed connection 1 right after/);
    const good = await check(scenario({ h: handler() }, actions), { tape });
    expect(good.ids).toContain('cancel.late-response-silent'); // the crossing happened
    expect(good.ids).not.toContain('cancel.race-graceful');
  });

  // The crossing with a next call, edited: the close is gone from the trace, the next call still fails.
  it('cancel.race-graceful (next request succeeds): fires on the call after a crossing failing with the connection gone / silent on it resolving', async () => {
    const actions = [call('c1', 'h', { signal: 'a' }), abort('a'), call('c2', 'h')];
    const tape = [0, 0, 0, 0, 1, 0, 1, 0];
    const broken = (await check(scenario({ h: handler() }, actions, [fault('client', 'close-on-late-response')]), { tape })).run.result.trace;
    const noClose = editTrace(broken, (e) => (e.kind === 'close' || e.kind === 'eof' ? undefined : 'keep'));
    const race = judged(noClose).filter((f) => f.invariant === 'cancel.race-graceful');
    expect(race.map((f) => f.request)).toEqual(['c2']);
    const good = (await check(scenario({ h: handler() }, actions), { tape })).run.result.trace;
    expect(judged(good).map((f) => f.invariant)).not.toContain('cancel.race-graceful');
  });

  // A duplicate answer is rpc.single-response in any order: no blame of the race needed.
  it('cancel.race-graceful (no duplicate response): fires as rpc.single-response on a receiver answering twice in the crossing / silent on the crossing', async () => {
    const actions = [call('c1', 'h', { signal: 'a' }), abort('a')];
    const tape = [0, 0, 0, 0, 1, 0, 1, 0];
    const bad = await check(scenario({ h: handler() }, actions, [fault('server', 'duplicate-response')]), { tape });
    expect(bad.ids).toContain('rpc.single-response');
    expect((await check(scenario({ h: handler() }, actions), { tape })).ids).not.toContain('rpc.single-response');
  });
  // Found by `check --seed 18` (case 755): the caller closed the client, then a response crossed a
  // cancel in the close's wake, and the calls after it failed with "Not connected". The caller's
  // close explains the failures, whatever crossed after it.
  it('cancel.race-graceful (caller closed): silent on calls failing on a connection the caller closed, a crossing after the close notwithstanding', async () => {
    const s = {"handlers": {"h1": {"steps": [{"kind": "progress", "progress": 2, "total": 100}], "end": {"kind": "result"}, "onAbort": "ignore"}, "h2": {"steps": [{"kind": "progress", "progress": 1, "total": 100}], "end": {"kind": "result"}, "onAbort": "swallow"}, "h3": {"steps": [{"kind": "sleep", "ms": 1000}, {"kind": "progress", "progress": 2, "total": 100}, {"kind": "sleep", "ms": 2000}, {"kind": "call", "method": "roots/list"}], "end": {"kind": "error", "code": -32000}, "onAbort": "ignore"}}, "actions": [{"kind": "call", "call": "s1", "method": "sampling/createMessage", "options": {"timeoutMs": 3000, "resetTimeoutOnProgress": false, "maxTotalTimeoutMs": 2000, "onprogress": false, "meta": {"traceparent": "sim"}, "signal": "a"}, "handler": "h1"}, {"kind": "close", "side": "client"}, {"kind": "abort", "signal": "a"}, {"kind": "call", "call": "c2", "method": "tools/call", "options": {"timeoutMs": 1000, "resetTimeoutOnProgress": false, "maxTotalTimeoutMs": 2000, "meta": {"traceparent": "sim"}, "signal": "a"}, "handler": "h2"}, {"kind": "call", "call": "c3", "method": "tools/call", "options": {"timeoutMs": 3000, "resetTimeoutOnProgress": false, "meta": {"traceparent": "sim"}, "signal": "b"}, "handler": "h3"}], "profile": "memory"} as Scenario;
    const { run } = await check(s, { tape: [0, 0, 0, 0, 0, 2, 0, 0, 3], seed: 49248 });
    expect(run.result.trace.some((e) => e.kind === 'call-settle' && e.message === 'Not connected')).toBe(true);
    expect(run.findings.map((f) => f.invariant)).not.toContain('cancel.race-graceful');
  });
});
