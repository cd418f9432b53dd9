import { describe, expect, it } from 'vitest';
import { judge } from '../../src/model/judge.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import { summarizeFrame, type TraceEvent, type TraceEventBody } from '../../src/sim/index.ts';
import { abort, call, check, editTrace, fault, frameIs, handler, insertAfter, judged, plain, progress, scenario, sleep } from './fixtures.ts';

/**
 * The trace of a real run with the server's frames for request 1 moved onto another connection,
 * as a transport that mixes up sessions would send them. One SDK connection per Protocol makes
 * this impossible to provoke with the real SDK, so the fixture is the trace itself.
 */
function misrouted(trace: readonly TraceEvent[], startsWith: string): TraceEvent[] {
  return trace.map((e) =>
    e.kind === 'send' && e.from === 'server' && summarizeFrame(e.frame).startsWith(startsWith) ? { ...e, conn: e.conn + 1 } : e,
  );
}

describe('rpc invariants', () => {
  it('rpc.well-formed: fires on a notification without jsonrpc / silent on the SDK\'s own frames', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h')], [fault('client', 'malformed-notification')]));
    expect(bad.ids).toContain('rpc.well-formed');
    expect((await check(plain())).ids).not.toContain('rpc.well-formed');
  });

  it('rpc.request-id-type: fires on a fractional request id / silent on integer ids', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h')], [fault('client', 'fractional-request-id')]));
    expect(bad.ids).toContain('rpc.request-id-type');
    expect((await check(plain())).ids).not.toContain('rpc.request-id-type');
  });

  it('rpc.request-id-unique: fires on a request sent twice with one id / silent on two calls', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h')], [fault('client', 'duplicate-request')]));
    expect(bad.ids).toContain('rpc.request-id-unique');
    expect(bad.ids).not.toContain('rpc.single-response');
    const good = await check(scenario({ h: handler() }, [call('c1', 'h'), call('c2', 'h')]));
    expect(good.ids).not.toContain('rpc.request-id-unique');
  });

  it('rpc.response-matches-request: fires on a response with a shifted id / silent on plain answers', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h', { timeoutMs: 100 })], [fault('server', 'shift-response-id')]));
    expect(bad.ids).toContain('rpc.response-matches-request');
    expect((await check(plain())).ids).not.toContain('rpc.response-matches-request');
  });

  it('rpc.single-response: fires on a response sent twice / silent on one answer each', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h')], [fault('server', 'duplicate-response')]));
    expect(bad.ids).toContain('rpc.single-response');
    const good = await check(scenario({ h: handler() }, [call('c1', 'h'), call('c2', 'h')]));
    expect(good.ids).not.toContain('rpc.single-response');
  });

  const routed = async () => {
    const withProgress = scenario({ h: handler([{ kind: 'progress', progress: 1 }]) }, [call('c1', 'h', { onprogress: true })]);
    const { run } = await check(withProgress);
    const ids = (trace: readonly TraceEvent[]) => judge(trace, run.endState, { facts: v1Facts }).map((f) => f.invariant);
    return { trace: run.result.trace, ids };
  };

  it('rpc.routing: fires on a response that leaves on another connection / silent on the real run', async () => {
    const { trace, ids } = await routed();
    expect(ids(trace)).not.toContain('rpc.routing');
    expect(ids(misrouted(trace, 'result id=1'))).toContain('rpc.routing');
  });

  it('rpc.routing (notifications): fires on a progress that leaves on another connection / silent on the real run', async () => {
    const { trace, ids } = await routed();
    expect(ids(trace)).not.toContain('rpc.routing');
    expect(ids(misrouted(trace, 'notifications/progress'))).toContain('rpc.routing');
  });

  it('rpc.no-reply-to-notification: fires on an error reply to notifications/initialized / silent on the SDK', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h')], [fault('server', 'reply-to-notification')]));
    expect(bad.ids).toContain('rpc.no-reply-to-notification');
    expect(bad.ids).not.toContain('rpc.response-matches-request');
    // Cancels and progress are notifications too: the SDK answers none of them.
    const good = await check(
      scenario({ h: handler([sleep(10)], 'hang') }, [call('c1', 'h', { signal: 'a', onprogress: true }), { kind: 'abort', signal: 'a' }]),
    );
    expect(good.ids).not.toContain('rpc.no-reply-to-notification');
  });

  it('rpc.method-defined: fires on a cancellation sent as notifications/cancel / silent on the SDK\'s notifications/cancelled', async () => {
    const s = (faults?: Parameters<typeof scenario>[2]) => scenario({ h: handler([sleep(100)]) }, [call('c1', 'h', { timeoutMs: 10 })], faults);
    const bad = await check(s([fault('client', 'misnamed-cancel')]));
    expect(bad.run.findings.filter((f) => f.invariant === 'rpc.method-defined').map((f) => f.message)).toEqual([
      'the client sent a notification "notifications/cancel", which protocol 2025-11-25 does not define for the client to send.',
    ]);
    expect((await check(s())).ids).not.toContain('rpc.method-defined');
  });

  it('rpc.method-defined (shape): fires on a cancellation without its requestId / silent on one that names it', async () => {
    const s = (faults?: Parameters<typeof scenario>[2]) => scenario({ h: handler([sleep(100)]) }, [call('c1', 'h', { timeoutMs: 10 })], faults);
    const bad = await check(s([fault('client', 'cancel-without-id')]));
    expect(bad.run.findings.filter((f) => f.invariant === 'rpc.method-defined').map((f) => f.clause)).toEqual(['shape']);
    expect((await check(s())).ids).not.toContain('rpc.method-defined');
  });

  it('rpc.params-preserved: fires on _meta stripped on the wire / silent on _meta arriving intact', async () => {
    const opts = { meta: { trace: 'x-1' }, onprogress: true };
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h', opts)], [fault('client', 'strip-meta')]));
    expect(bad.ids).toContain('rpc.params-preserved');
    const good = await check(scenario({ h: handler() }, [call('c1', 'h', opts)]));
    expect(good.ids).not.toContain('rpc.params-preserved');
  });

  // Hand-edited traces of real runs: what a peer with that bug would put on the wire.
  const ids = (trace: readonly TraceEvent[]) => judged(trace).map((f) => f.invariant);
  const reply = (from: 'client' | 'server'): TraceEventBody => ({
    kind: 'send',
    from,
    conn: 1,
    seq: 999,
    frame: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'replied to a notification' } },
  });

  it('rpc.well-formed (results and errors): fires on a response carrying both result and error / silent on the SDK\'s response', async () => {
    const { trace } = (await check(plain())).run.result;
    const both = editTrace(trace, (e) =>
      frameIs(e, 'send', 'result id=1') && e.kind === 'send' ? { ...e, frame: { ...(e.frame as object), error: { code: -1, message: 'x' } } } : 'keep',
    );
    expect(ids(both)).toContain('rpc.well-formed');
    expect(ids(trace)).not.toContain('rpc.well-formed');
  });

  it('rpc.request-id-type (never null): fires on a request sent with id null / silent on integer ids', async () => {
    const { trace } = (await check(plain())).run.result;
    const nullId = editTrace(trace, (e) => (frameIs(e, 'send', 'tools/call') && e.kind === 'send' ? { ...e, frame: { ...(e.frame as object), id: null } } : 'keep'));
    expect(ids(nullId)).toContain('rpc.request-id-type');
    expect(ids(trace)).not.toContain('rpc.request-id-type');
  });

  it('rpc.no-reply-to-notification (cancel): fires on a reply to notifications/cancelled / silent on the SDK\'s silence', async () => {
    const { trace } = (await check(scenario({ h: handler([sleep(10)], 'hang') }, [call('c1', 'h', { signal: 'a' }), abort('a')]))).run.result;
    const replied = insertAfter(trace, (e) => frameIs(e, 'deliver', 'notifications/cancelled'), reply('server'));
    expect(ids(replied)).toContain('rpc.no-reply-to-notification');
    expect(ids(trace)).not.toContain('rpc.no-reply-to-notification');
  });

  it('rpc.no-reply-to-notification (progress): fires on a requester replying to notifications/progress / silent on the SDK\'s silence', async () => {
    const { trace } = (await check(scenario({ h: handler([progress(1)]) }, [call('c1', 'h', { onprogress: true })]))).run.result;
    const replied = insertAfter(trace, (e) => frameIs(e, 'deliver', 'notifications/progress'), reply('client'));
    expect(ids(replied)).toContain('rpc.no-reply-to-notification');
    expect(ids(trace)).not.toContain('rpc.no-reply-to-notification');
  });

  it('rpc.no-reply-to-notification (malformed): fires on a reply to a notification without jsonrpc / silent on the SDK ignoring it', async () => {
    const malformed = fault('client', 'malformed-notification');
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h')], [malformed, fault('server', 'reply-to-notification')]));
    expect(bad.run.findings.some((f) => f.invariant === 'rpc.no-reply-to-notification')).toBe(true);
    const good = await check(scenario({ h: handler() }, [call('c1', 'h')], [malformed]));
    expect(good.ids).toContain('rpc.well-formed'); // the notification was malformed
    expect(good.ids).not.toContain('rpc.no-reply-to-notification');
  });

  it('rpc.params-preserved (progress token): fires on a request that lost its progress token or gained one nobody asked for / silent on the SDK\'s requests', async () => {
    const withToken = (await check(scenario({ h: handler() }, [call('c1', 'h', { onprogress: true })]))).run.result.trace;
    const lost = editTrace(withToken, (e) => {
      if (!(frameIs(e, 'send', 'tools/call') && e.kind === 'send')) return 'keep';
      const f = e.frame as { params: Record<string, unknown> };
      return { ...e, frame: { ...f, params: { ...f.params, _meta: {} } } };
    });
    expect(judged(lost).find((f) => f.invariant === 'rpc.params-preserved')?.message).toMatch(/lacks the progress token/);
    const without = (await check(plain())).run.result.trace;
    const gained = editTrace(without, (e) => {
      if (!(frameIs(e, 'send', 'tools/call') && e.kind === 'send')) return 'keep';
      const f = e.frame as { params: Record<string, unknown> };
      return { ...e, frame: { ...f, params: { ...f.params, _meta: { progressToken: 77 } } } };
    });
    expect(judged(gained).find((f) => f.invariant === 'rpc.params-preserved')?.message).toMatch(/nobody asked for/);
    expect(ids(withToken)).not.toContain('rpc.params-preserved');
    expect(ids(without)).not.toContain('rpc.params-preserved');
  });
});
