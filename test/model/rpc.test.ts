import { describe, expect, it } from 'vitest';
import { judge } from '../../src/model/judge.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import { summarizeFrame, type TraceEvent } from '../../src/sim/index.ts';
import { call, check, fault, handler, plain, scenario, sleep } from './fixtures.ts';

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

  it('rpc.routing: fires on a response or progress that leaves on another connection / silent on the real run', async () => {
    const withProgress = scenario({ h: handler([{ kind: 'progress', progress: 1 }]) }, [call('c1', 'h', { onprogress: true })]);
    const { run } = await check(withProgress);
    const ids = (trace: readonly TraceEvent[]) => judge(trace, run.endState, { facts: v1Facts }).map((f) => f.invariant);
    expect(ids(run.result.trace)).not.toContain('rpc.routing');
    expect(ids(misrouted(run.result.trace, 'result id=1'))).toContain('rpc.routing');
    expect(ids(misrouted(run.result.trace, 'notifications/progress'))).toContain('rpc.routing');
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
});
