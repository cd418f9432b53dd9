import { beforeAll, describe, expect, it } from 'vitest';
import { runChecked } from '../../src/check/index.ts';
import type { SdkAdapter } from '../../src/sdk/SdkAdapter.ts';
import type { CallerAction, HandlerProgram, Scenario } from '../../src/sim/scenario.ts';
import type { TraceEvent } from '../../src/sim/trace.ts';
import { modernSdk } from './helpers.ts';

/** One progress, then 1 s of virtual time, then the result; honours an abort. */
const sleeper: HandlerProgram = { steps: [{ kind: 'progress', progress: 1 }, { kind: 'sleep', ms: 1000 }], end: { kind: 'result' }, onAbort: 'honour' };
const call = (options: Record<string, unknown>): CallerAction => ({ kind: 'call', call: 'c1', method: 'tools/call', handler: 'sleeper', options });
const modern = (actions: CallerAction[]): Scenario => ({ profile: 'http-2026', handlers: { sleeper }, actions });
const sentMethods = (trace: readonly TraceEvent[]) =>
  trace.flatMap((e) => (e.kind === 'send' && e.from === 'client' && typeof (e.frame as { method?: unknown }).method === 'string' ? [(e.frame as { method: string }).method] : []));
const kindsOf = (trace: readonly TraceEvent[]) => trace.map((e) => (e.kind === 'handler-abort' || e.kind === 'handler-end' ? `${e.kind}:${e.side}` : e.kind));

describe('http-2026 profile on @modelcontextprotocol/client and /server 2.4.0', () => {
  let sdk: SdkAdapter;
  beforeAll(async () => {
    sdk = await modernSdk();
  });

  it('should negotiate with server/discover, never initialize, and serve a call with progress on its own POST stream', async () => {
    const run = await runChecked(modern([call({ onprogress: true })]), { sdk });
    expect(sentMethods(run.result.trace)).toEqual(['server/discover', 'tools/call']);
    expect(run.result.trace.filter((e) => e.kind === 'onprogress')).toHaveLength(1);
    expect(run.result.trace.find((e) => e.kind === 'call-settle')).toMatchObject({ outcome: 'resolved' });
    // No session: every POST carries the 2026-07-28 envelope, none a session id.
    expect(run.result.trace.some((e) => e.kind === 'http-request' && e.session !== undefined)).toBe(false);
    expect(run.findings).toEqual([]);
  });

  it('should cancel by closing the request stream: the disconnect, delivered at a scheduled step, aborts the handler (no notifications/cancelled)', async () => {
    const run = await runChecked(modern([call({ signal: 'a' }), { kind: 'abort', signal: 'a' }]), { sdk });
    const { trace } = run.result;
    expect(sentMethods(trace)).not.toContain('notifications/cancelled');
    const clientDrop = trace.find((e) => e.kind === 'http-disconnect' && e.at === 'client')!;
    const serverDrop = trace.find((e) => e.kind === 'http-disconnect' && e.at === 'server')!;
    const abort = trace.find((e) => e.kind === 'handler-abort')!;
    expect(serverDrop.step).toBeGreaterThan(clientDrop.step);
    expect(abort.step).toBe(serverDrop.step);
    expect(run.findings).toEqual([]);
  });

  it('should close the stream on a timeout too, and the handler is aborted when that reaches the server', async () => {
    const run = await runChecked(modern([call({ timeoutMs: 500 })]), { sdk });
    expect(kindsOf(run.result.trace)).toEqual(expect.arrayContaining(['http-disconnect', 'handler-abort:server']));
    expect(sentMethods(run.result.trace)).not.toContain('notifications/cancelled');
    expect(run.findings).toEqual([]);
  });

  it('should ignore a notifications/cancelled POSTed anyway: it reaches a fresh per-request server, the handler runs on and answers', async () => {
    const cancelAnyway: CallerAction = { kind: 'http-post', body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0 } } };
    const run = await runChecked(modern([call({}), cancelAnyway]), { sdk });
    const { trace } = run.result;
    expect(trace.find((e) => e.kind === 'http-response' && e.at === 'server' && e.status === 202)).toBeDefined();
    expect(trace.find((e) => e.kind === 'handler-end')).toMatchObject({ outcome: 'result' });
    expect(trace.find((e) => e.kind === 'call-settle')).toMatchObject({ outcome: 'resolved' });
    expect(run.findings).toEqual([]);
  });

  // 2.4.0: the exchange's close aborts every handler controller still in the map, and the
  // response's `send` resolves after that close (it runs in a microtask of the final write).
  it('should show 2.4.0 aborting a handler\'s signal after it returned its result (the exchange closing)', async () => {
    const run = await runChecked(modern([call({})]), { sdk });
    const k = kindsOf(run.result.trace);
    expect(k.indexOf('handler-abort:server')).toBeGreaterThan(k.indexOf('handler-end:server'));
  });

  it('should probe again with server/discover after a close and reconnect, with the same probe id, and find nothing', async () => {
    const run = await runChecked(modern([{ kind: 'close', side: 'client' }, { kind: 'reconnect' }, call({})]), { sdk });
    expect(sentMethods(run.result.trace)).toEqual(['server/discover', 'server/discover', 'tools/call']);
    expect(run.findings).toEqual([]);
  });

  // SDK bug (2.4.0, as in 1.x): a maximum total timeout met at a progress rejects the call
  // without cancelling it, which in this revision means without closing its stream: the handler
  // runs on, and what it still sends raises the client's error callback.
  it('should show 2.4.0 leaving the stream open when a maximum total timeout is met at a progress (SDK bug)', async () => {
    const program: HandlerProgram = { steps: [{ kind: 'sleep', ms: 10 }, { kind: 'progress', progress: 1 }, { kind: 'progress', progress: 2 }], end: { kind: 'result' }, onAbort: 'honour' };
    const s: Scenario = { profile: 'http-2026', handlers: { sleeper: program }, actions: [call({ onprogress: true, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 10 })] };
    const run = await runChecked(s, { sdk });
    const { trace } = run.result;
    expect(trace.find((e) => e.kind === 'call-settle')).toMatchObject({ outcome: 'rejected', message: expect.stringMatching(/Maximum total timeout exceeded/) });
    expect(trace.some((e) => e.kind === 'http-disconnect')).toBe(false);
    expect(trace.find((e) => e.kind === 'handler-end')).toMatchObject({ outcome: 'result' });
    expect(run.findings.map((f) => f.invariant)).toEqual(expect.arrayContaining(['timeout.max-total', 'progress.race-silent']));
    expect(run.findings.find((f) => f.invariant === 'timeout.max-total')?.message).toMatch(/no cancellation was sent/);
  });

  it('should give the same trace hash twice (deterministic)', async () => {
    const a = await runChecked(modern([call({ signal: 'a', onprogress: true }), { kind: 'abort', signal: 'a' }]), { sdk, tape: [1, 0, 2, 1] });
    const b = await runChecked(modern([call({ signal: 'a', onprogress: true }), { kind: 'abort', signal: 'a' }]), { sdk, tape: [1, 0, 2, 1] });
    expect(a.result.hash).toBe(b.result.hash);
  });
});
