import { beforeAll, describe, expect, it } from 'vitest';
import { runChecked } from '../../src/check/index.ts';
import { judge } from '../../src/model/judge.ts';
import { notJudgedIn2026 } from '../../src/model/specRevision.ts';
import type { SdkAdapter } from '../../src/sdk/SdkAdapter.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import type { CallerAction, HandlerProgram, Scenario } from '../../src/sim/scenario.ts';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';
import { modernSdk } from '../modern/helpers.ts';
import { editTrace } from './fixtures.ts';

/** Hand-built traces: `at` gives each event its scheduler step (events of one step share it). */
const at = (...events: [number, TraceEventBody][]): TraceEvent[] => [
  ...events.map(([step, b], i) => ({ ...b, i, step, t: 0 }) as TraceEvent),
  { kind: 'end', outcome: 'quiescent', i: events.length, step: 1000, t: 0 } as TraceEvent,
];
const ids2026 = (t: readonly TraceEvent[]) => judge(t, undefined, { facts: v1Facts, spec: '2026-07-28' }).map((f) => f.invariant);
const ids2025 = (t: readonly TraceEvent[]) => judge(t, undefined, { facts: v1Facts }).map((f) => f.invariant);

const toolCall = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'h', arguments: {} } });
const answer = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [] } });

/** A tool that sleeps 1 s of virtual time, then answers; honours an abort. */
const sleeper: HandlerProgram = { steps: [{ kind: 'sleep', ms: 1000 }], end: { kind: 'result' }, onAbort: 'honour' };
const c1: CallerAction = { kind: 'call', call: 'c1', method: 'tools/call', handler: 'sleeper', options: { signal: 'a' } };
const modern = (actions: CallerAction[]): Scenario => ({ profile: 'http-2026', handlers: { sleeper }, actions });

describe('revision 2026-07-28 rule set (--spec 2026-07-28)', () => {
  let sdk: SdkAdapter;
  beforeAll(async () => {
    sdk = await modernSdk();
  });

  it('rpc.request-id-outstanding: fires on a client reusing the id of a request still outstanding / silent on reuse after the response arrived', () => {
    const reuse = (answeredFirst: boolean) =>
      at(
        [1, { kind: 'send', from: 'client', conn: 1, seq: 1, frame: toolCall(7) }],
        ...(answeredFirst
          ? ([
              [2, { kind: 'send', from: 'server', conn: 1, seq: 2, frame: answer(7) }],
              [3, { kind: 'deliver', to: 'client', conn: 1, seq: 2, frame: answer(7), burst: 1 }],
            ] as [number, TraceEventBody][])
          : []),
        [4, { kind: 'send', from: 'client', conn: 1, seq: 3, frame: toolCall(7) }],
      );
    expect(ids2026(reuse(false))).toContain('rpc.request-id-outstanding');
    expect(ids2026(reuse(true))).not.toContain('rpc.request-id-outstanding');
    // The session era forbids the reuse after the response too; 2026-07-28 does not judge that clause.
    expect(ids2025(reuse(true))).toContain('rpc.request-id-unique');
    expect(ids2026(reuse(true))).not.toContain('rpc.request-id-unique');
  });

  it('rpc.request-id-outstanding (cancelled by closing the stream): fires on a reuse while the POST is open / silent on a reuse after the client closed it', () => {
    const reuse = (closed: boolean) =>
      at(
        [1, { kind: 'http-request', at: 'client', conn: 1, exchange: 5, method: 'POST', seqs: [6] }],
        [1, { kind: 'send', from: 'client', conn: 1, seq: 6, frame: toolCall(0) }],
        ...(closed ? ([[2, { kind: 'http-disconnect', at: 'client', conn: 1, exchange: 5 }]] as [number, TraceEventBody][]) : []),
        [3, { kind: 'send', from: 'client', conn: 1, seq: 8, frame: toolCall(0) }],
      );
    expect(ids2026(reuse(false))).toContain('rpc.request-id-outstanding');
    expect(ids2026(reuse(true))).not.toContain('rpc.request-id-outstanding');
  });

  it('http.disconnect-cancels: fires on a handler still running after its POST\'s disconnect reached the server / silent on one aborted in that step', () => {
    const dropped = (aborted: boolean) =>
      at(
        [1, { kind: 'http-request', at: 'client', conn: 1, exchange: 5, method: 'POST', seqs: [6] }],
        [1, { kind: 'send', from: 'client', conn: 1, seq: 6, frame: toolCall(0) }],
        [2, { kind: 'handler-start', side: 'server', conn: 1, id: 0, method: 'tools/call' }],
        [3, { kind: 'http-disconnect', at: 'client', conn: 1, exchange: 5 }],
        [4, { kind: 'http-disconnect', at: 'server', conn: 1, exchange: 5 }],
        ...(aborted ? ([[4, { kind: 'handler-abort', side: 'server', conn: 1, id: 0, reason: 'closed' }]] as [number, TraceEventBody][]) : []),
      );
    expect(ids2026(dropped(false))).toContain('http.disconnect-cancels');
    expect(ids2026(dropped(true))).not.toContain('http.disconnect-cancels');
    // The same abort is what the session era calls a disconnect taken for a cancel.
    expect(ids2025(dropped(true))).toContain('http.disconnect-not-cancel');
  });

  // Real 2.4.0: the per-request server aborts the handler when the client's disconnect reaches it.
  it('should abort the handler of a call its caller aborted, with no notifications/cancelled and no finding (2.4.0)', async () => {
    const run = await runChecked(modern([c1, { kind: 'abort', signal: 'a' }]), { sdk });
    const kinds = run.result.trace.map((e) => e.kind);
    expect(kinds).toContain('handler-abort');
    expect(run.result.trace.some((e) => e.kind === 'send' && JSON.stringify(e.frame).includes('notifications/cancelled'))).toBe(false);
    expect(run.findings.map((f) => f.invariant)).toEqual([]);
  });

  // Real 2.4.0: the transport reports the broken stream (`onRequestStreamEnd`), but `Protocol`
  // passes it no such callback, so the call waits for its timeout (SDK bug).
  it('http.stream-loss-fails-call: fires on a call left pending after the network broke its stream (SDK 2.4.0) / silent on the stream ending after the response', async () => {
    const progressThenSleep: HandlerProgram = { steps: [{ kind: 'progress', progress: 1 }, { kind: 'sleep', ms: 1000 }], end: { kind: 'result' }, onAbort: 'honour' };
    const s = (actions: CallerAction[]): Scenario => ({ profile: 'http-2026', handlers: { sleeper: progressThenSleep }, actions });
    const call: CallerAction = { kind: 'call', call: 'c1', method: 'tools/call', handler: 'sleeper', options: { onprogress: true } };
    const broken = await runChecked(s([call, { kind: 'http-drop' }]), { sdk });
    expect(broken.findings.map((f) => f.invariant)).toContain('http.stream-loss-fails-call');
    expect(broken.result.trace.find((e) => e.kind === 'call-settle')).toMatchObject({ outcome: 'rejected', message: 'Request timed out' });
    expect((await runChecked(s([call]), { sdk })).findings.map((f) => f.invariant)).not.toContain('http.stream-loss-fails-call');
  });

  it('http.single-stream (per-request serving): fires on one send written on two exchanges / silent on two equal frames of two sends (a re-sent probe\'s answer)', () => {
    const probeAnswer = { jsonrpc: '2.0', id: 'server-discover-probe-1', result: { supportedVersions: ['2026-07-28'] } };
    const written = (twoSends: boolean) =>
      at(
        [1, { kind: 'send', from: 'server', conn: 1, seq: 3, frame: probeAnswer }],
        [1, { kind: 'http-response', at: 'server', conn: 1, exchange: 1, status: 200, contentType: 'application/json', seqs: [3] }],
        ...(twoSends ? ([[2, { kind: 'send', from: 'server', conn: 2, seq: 7, frame: probeAnswer }]] as [number, TraceEventBody][]) : []),
        [2, { kind: 'http-response', at: 'server', conn: 2, exchange: 5, status: 200, contentType: 'application/json', seqs: [twoSends ? 7 : 3] }],
      );
    expect(ids2026(written(false))).toContain('http.single-stream');
    expect(ids2026(written(true))).not.toContain('http.single-stream');
    // The session era names a message by its content: there the same answer twice is one message twice.
    expect(ids2025(written(true))).toContain('http.single-stream');
  });

  it('rpc.method-defined (2026-07-28 table): fires on an initialize sent under 2026-07-28 / silent on server/discover', () => {
    const first = (method: string) => at([1, { kind: 'send', from: 'client', conn: 1, seq: 1, frame: { jsonrpc: '2.0', id: 'p', method, params: {} } }]);
    expect(ids2026(first('initialize'))).toContain('rpc.method-defined');
    expect(ids2026(first('server/discover'))).not.toContain('rpc.method-defined');
    expect(ids2025(first('server/discover'))).toContain('rpc.method-defined');
  });

  it('should judge the real 2.4.0 trace of a cancelled call by the revision: four session-era findings, none under 2026-07-28', async () => {
    const run = await runChecked(modern([c1, { kind: 'abort', signal: 'a' }]), { sdk });
    const session = judge(run.result.trace, run.endState, { facts: sdk.facts }).map((f) => f.invariant);
    expect(session).toEqual(['rpc.method-defined', 'lifecycle.init-first', 'cancel.abort-sends-cancel', 'http.disconnect-not-cancel']);
    // Two are not judged there, two are judged by its meaning (its method table; the stream close as the cancel).
    expect(session.filter((id) => notJudgedIn2026.has(id))).toEqual(['lifecycle.init-first', 'http.disconnect-not-cancel']);
    expect(judge(run.result.trace, run.endState, { facts: sdk.facts, spec: '2026-07-28' })).toEqual([]);
  });

  /** The real 2.4.0 trace of `actions`, and the same trace without the client's closing of its POSTs. */
  const withAndWithoutClose = async (actions: CallerAction[]) => {
    const run = await runChecked(modern(actions), { sdk });
    const kept = editTrace(run.result.trace, (e) => (e.kind === 'http-disconnect' && e.at === 'client' ? undefined : 'keep'));
    const judged = (t: readonly TraceEvent[]) => judge(t, run.endState, { facts: sdk.facts, spec: '2026-07-28' }).map((f) => f.invariant);
    return { closed: judged(run.result.trace), open: judged(kept) };
  };

  it('cancel.abort-sends-cancel (2026-07-28: closing the stream is the cancel): fires on an abort that leaves the request\'s POST open / silent on the real 2.4.0 abort, which closes it', async () => {
    const { closed, open } = await withAndWithoutClose([c1, { kind: 'abort', signal: 'a' }]);
    expect(open).toContain('cancel.abort-sends-cancel');
    expect(closed).not.toContain('cancel.abort-sends-cancel');
  });

  it('timeout.sends-cancel (2026-07-28: closing the stream is the cancel): fires on a timeout that leaves the request\'s POST open / silent on the real 2.4.0 timeout, which closes it', async () => {
    const { closed, open } = await withAndWithoutClose([{ ...c1, options: { timeoutMs: 500 } }]);
    expect(open).toContain('timeout.sends-cancel');
    expect(closed).not.toContain('timeout.sends-cancel');
  });
});
