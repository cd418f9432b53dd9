import { describe, expect, it } from 'vitest';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';
import { judgeCase } from '../../src/campaign/real/judgeCase.ts';
import { CLIENT_JUDGING } from '../../src/targets/client/open.ts';

/** A client case judged by the one oracle, the client under test. */
const judgeClientCase = (trace: Parameters<typeof judgeCase>[0], options: Parameters<typeof judgeCase>[2]) => judgeCase(trace, CLIENT_JUDGING, options);
import { SETTLE_WORDS } from '../../src/targets/client/sideChannelFacts.ts';

/**
 * Black-box traces of an SDK's *client* written by hand, as `clientTrace` makes them: what
 * mcp-sim's scripted server read and wrote (its `deliver`s and `send`s, its input ending), and
 * the client's caller view from its side channel (calls, progress, aborts, its close, its
 * handlers of the server's requests), at real times in ms. The model adds the client's own wire
 * events and judges the client's conduct (`JUDGED_ON_A_REAL_CLOCK.client`).
 */
function trace(...timed: [number, TraceEventBody][]): TraceEvent[] {
  return timed.map(([t, body], i) => ({ ...body, i, step: 0, t }) as TraceEvent);
}
const clock = { kind: 'real' as const, inFlightMs: 150, hangAfterMs: 3_000, graceMs: 3_000 };
const judged = (events: TraceEvent[]) => judgeClientCase(events, { clock });
const ids = (events: TraceEvent[]) => judged(events).findings.map((f) => f.invariant);

let seq = 0;
/** A frame the client wrote, as the scripted server read it. */
const read = (frame: Record<string, unknown>): TraceEventBody => ({ kind: 'deliver', to: 'server', conn: 0, seq: seq++, frame: { jsonrpc: '2.0', ...frame } as never, burst: 1 });
/** A frame the scripted server wrote. */
const wrote = (frame: Record<string, unknown>): TraceEventBody => ({ kind: 'send', from: 'server', conn: 0, seq: seq++, frame: { jsonrpc: '2.0', ...frame } as never });
const callRequest = (id: number, label: string, token?: string) => read({ id, method: 'tools/call', params: { name: 'run', arguments: { call: label }, ...(token !== undefined && { _meta: { progressToken: token } }) } });
const start = (label: string, id: number, options: Record<string, unknown> = {}): TraceEventBody => ({ kind: 'call-start', call: label, from: 'client', conn: 0, method: 'tools/call', id, options: { signal: label, ...options } as never });
const settled = (label: string, outcome: 'result' | 'timeout' | 'max-total' | 'aborted' | 'closed'): TraceEventBody =>
  outcome === 'result'
    ? { kind: 'call-settle', call: label, from: 'client', outcome: 'resolved' }
    : { kind: 'call-settle', call: label, from: 'client', outcome: 'rejected', ...(outcome === 'timeout' || outcome === 'max-total' ? { code: SETTLE_WORDS.timeoutCode } : {}), message: outcome === 'timeout' ? SETTLE_WORDS.timeout : outcome === 'max-total' ? SETTLE_WORDS.maxTotal : outcome === 'aborted' ? SETTLE_WORDS.aborted : SETTLE_WORDS.closed };
const cancelOf = (id: number) => read({ method: 'notifications/cancelled', params: { requestId: id } });
const result = (id: number) => wrote({ id, result: { content: [] } });
const progress = (token: string, value: number) => wrote({ method: 'notifications/progress', params: { progressToken: token, progress: value } });
const onprogress = (label: string, value: number): TraceEventBody => ({ kind: 'onprogress', call: label, progress: value });
const abort = (label: string): TraceEventBody => ({ kind: 'abort-signal', signal: label });
const callerClose: TraceEventBody = { kind: 'action', action: 'caller #9 close client', choice: 0, enabled: 0 };
const closed: TraceEventBody = { kind: 'close', side: 'client', conn: 0 };
const inputEnded: TraceEventBody = { kind: 'eof', to: 'server', conn: 0 };
const end: TraceEventBody = { kind: 'end', outcome: 'quiescent' };
const http = (method: string): TraceEventBody => ({ kind: 'http-request', at: 'server', conn: 0, exchange: seq++, method, session: 's1', seqs: [] });
const handler = (kind: 'handler-start' | 'handler-abort' | 'handler-end', id: number): TraceEventBody =>
  kind === 'handler-start'
    ? { kind, side: 'client', conn: 0, id, method: 'sampling/createMessage' }
    : kind === 'handler-abort'
      ? { kind, side: 'client', conn: 0, id, reason: 'cancelled' }
      : { kind, side: 'client', conn: 0, id, outcome: 'aborted' };
/** A call c1 (id 1) the client made at 0 ms, and its close at the end with the server's input ending then. */
const head = (options: Record<string, unknown> = {}, token?: string): [number, TraceEventBody][] => [
  [0, start('c1', 1, options)],
  [0, callRequest(1, 'c1', token)],
];
const tail = (t: number): [number, TraceEventBody][] => [
  [t, callerClose],
  [t + 1, inputEnded],
  [t + 2, closed],
  [t + 400, end],
];

describe('the model on a client under test (black box, real time)', () => {
  it('lifecycle.stdio-close-ends-server: fires on a close that returned with the server\'s stdin still open until the client exited / silent on stdin EOF as the close returns', () => {
    const run = (eofAt: number) => trace(...head(), [10, result(1)], [12, settled('c1', 'result')], [20, callerClose], [22, closed], [eofAt, inputEnded], [700, end]);
    expect(ids(run(322))).toEqual(['lifecycle.stdio-close-ends-server']);
    expect(ids(run(21))).toEqual([]);
  });

  it('http.close-deletes-session: fires on a Streamable HTTP client\'s close with no DELETE of its session / silent on the DELETE its close sent', () => {
    const run = (deleted: boolean) => trace([0, http('POST')], ...head(), [10, result(1)], [12, settled('c1', 'result')], [20, callerClose], ...(deleted ? ([[21, http('DELETE')], [21, inputEnded]] as [number, TraceEventBody][]) : []), [22, closed], [700, end]);
    expect(ids(run(false))).toEqual(['http.close-deletes-session']);
    expect(ids(run(true))).toEqual([]);
  });

  it('cancel.abort-sends-cancel (a client under test): fires on a caller\'s abort with no cancel within the in-flight bound / silent on the cancel right after the abort', () => {
    expect(ids(trace(...head(), [200, abort('c1')], [201, settled('c1', 'aborted')], ...tail(600)))).toEqual(['cancel.abort-sends-cancel']);
    expect(ids(trace(...head(), [200, abort('c1')], [201, settled('c1', 'aborted')], [202, cancelOf(1)], ...tail(600)))).toEqual([]);
  });

  it('timeout.sends-cancel (a client under test): fires on a timeout with no cancel / silent on the cancel the SDK wrote just before it rejected the call', () => {
    expect(ids(trace(...head({ timeoutMs: 300 }), [301, settled('c1', 'timeout')], ...tail(600)))).toEqual(['timeout.sends-cancel']);
    expect(ids(trace(...head({ timeoutMs: 300 }), [300, cancelOf(1)], [301, settled('c1', 'timeout')], ...tail(600)))).toEqual([]);
  });

  it('timeout.max-total (no-cancel, a client under test): fires on a maximum total timeout with no cancel / silent with it', () => {
    const options = { timeoutMs: 400, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 600, onprogress: true };
    // Progress every 150 ms moves the 400 ms deadline past the maximum: the maximum ends the call.
    const steps: [number, TraceEventBody][] = [150, 300, 450].flatMap((t, k) => [[t, progress('t1', k + 1)], [t + 1, onprogress('c1', k + 1)]] as [number, TraceEventBody][]);
    const findings = judged(trace(...head(options, 't1'), ...steps, [601, settled('c1', 'max-total')], ...tail(900))).findings;
    expect(findings.map((f) => [f.invariant, f.clause])).toEqual([['timeout.max-total', 'no-cancel']]);
    expect(ids(trace(...head(options, 't1'), ...steps, [601, settled('c1', 'max-total')], [602, cancelOf(1)], ...tail(900)))).toEqual([]);
  });

  it('timeout.settles (a client under test, the real clock\'s allowance): fires on a timeout 200 ms after its bound / silent on one 20 ms after it', () => {
    const run = (at: number) => trace(...head({ timeoutMs: 300 }), [at - 1, cancelOf(1)], [at, settled('c1', 'timeout')], ...tail(900));
    expect(ids(run(500))).toEqual(['timeout.settles']);
    expect(ids(run(320))).toEqual([]);
  });

  it('timeout.settles (a call pending at the end of a real run): fires on a call the client never settled, no close asked / silent on a call settled before the run ended', () => {
    expect(ids(trace(...head(), [1_000, end]))).toEqual(['timeout.settles']);
    expect(ids(trace(...head(), [10, result(1)], [12, settled('c1', 'result')], [1_000, end]))).toEqual([]);
  });

  it('lifecycle.close-settles (a close that never completed): fires on calls pending when the caller\'s close never returned / silent when the close completed and rejected them', () => {
    expect(ids(trace(...head(), [300, callerClose], [1_300, end]))).toEqual(['lifecycle.close-settles']);
    expect(ids(trace(...head(), [300, callerClose], [301, inputEnded], [302, settled('c1', 'closed')], [303, closed], [700, end]))).toEqual([]);
  });

  it('lifecycle.close-settles (a client under test): fires on a call still pending 150 ms after the close returned / silent on the call rejected by the close', () => {
    expect(ids(trace(...head(), [300, callerClose], [301, inputEnded], [302, closed], [700, end]))).toEqual(['lifecycle.close-settles']);
  });

  it('timeout.reset-on-progress (a client under test): fires on a timeout 300 ms before the deadline its progress moved / silent on one at that deadline', () => {
    const run = (at: number) =>
      trace(...head({ timeoutMs: 400, resetTimeoutOnProgress: true, onprogress: true }, 't1'), [150, progress('t1', 1)], [151, onprogress('c1', 1)], [300, progress('t1', 2)], [301, onprogress('c1', 2)], [at - 1, cancelOf(1)], [at, settled('c1', 'timeout')], ...tail(1_000));
    expect(ids(run(402))).toEqual(['timeout.reset-on-progress']);
    expect(ids(run(702))).toEqual([]);
  });

  it('progress.delivered (misrouted): fires on onprogress given a value its request\'s token never carried / silent on its own progress', () => {
    const run = (token: string) => trace(...head({ onprogress: true }, 't1'), [10, progress(token, 0.5)], [11, onprogress('c1', 0.5)], [20, result(1)], [21, settled('c1', 'result')], ...tail(50));
    const findings = judged(run('invented')).findings;
    expect(findings.map((f) => [f.invariant, f.clause])).toEqual([['progress.delivered', 'misrouted']]);
    expect(ids(run('t1'))).toEqual([]);
  });

  it('timeout.quiet-after-settle (a client under test): fires on a call returned twice, and on onprogress after it settled / silent on one of each', () => {
    const base: [number, TraceEventBody][] = [...head({ onprogress: true }, 't1'), [10, progress('t1', 1)], [11, onprogress('c1', 1)], [20, result(1)], [21, settled('c1', 'result')]];
    expect(ids(trace(...base, [30, settled('c1', 'result')], ...tail(50)))).toEqual(['timeout.quiet-after-settle']);
    expect(ids(trace(...base, [30, progress('t1', 2)], [31, onprogress('c1', 2)], ...tail(50)))).toEqual(['timeout.quiet-after-settle']);
    expect(ids(trace(...base, ...tail(50)))).toEqual([]);
  });

  it('cancel.late-response-silent (a client under test): fires on a call resolved by the answer that came after its cancel / silent on the late answer dropped', () => {
    const base: [number, TraceEventBody][] = [...head(), [200, abort('c1')], [201, cancelOf(1)], [600, result(1)]];
    expect(ids(trace(...base, [601, settled('c1', 'result')], ...tail(900)))).toEqual(['cancel.late-response-silent']);
    expect(ids(trace(...head(), [200, abort('c1')], [201, cancelOf(1)], [202, settled('c1', 'aborted')], [600, result(1)], ...tail(900)))).toEqual([]);
  });

  it('cancel.no-response-after (the client as receiver): fires on the client answering a server request its handler was told was cancelled / silent on the scripted server answering after the client\'s cancel (mcp-sim\'s own conduct)', () => {
    const sampling: [number, TraceEventBody][] = [...head(), [1, wrote({ id: 100, method: 'sampling/createMessage', params: {} })], [2, handler('handler-start', 100)], [200, wrote({ method: 'notifications/cancelled', params: { requestId: 100 } })], [201, handler('handler-abort', 100)]];
    expect(ids(trace(...sampling, [202, read({ id: 100, error: { code: -32603, message: 'handler failed' } })], [203, handler('handler-end', 100)], [600, result(1)], [601, settled('c1', 'result')], ...tail(900)))).toEqual(['cancel.no-response-after']);
    expect(ids(trace(...sampling, [203, handler('handler-end', 100)], [600, result(1)], [601, settled('c1', 'result')], ...tail(900)))).toEqual([]);
    // The late-response scenario: the server answers c1 after the client's cancel, on purpose.
    expect(ids(trace(...head(), [200, abort('c1')], [201, cancelOf(1)], [202, settled('c1', 'aborted')], [600, result(1)], ...tail(900)))).toEqual([]);
  });

  it('cancel.handler-aborted (the client as receiver): fires on a handler never told of the server\'s cancel / silent on the handler told', () => {
    const sampling: [number, TraceEventBody][] = [...head(), [1, wrote({ id: 0, method: 'sampling/createMessage', params: {} })], [2, handler('handler-start', 0)], [200, wrote({ method: 'notifications/cancelled', params: { requestId: 0 } })]];
    expect(ids(trace(...sampling, [600, result(1)], [601, settled('c1', 'result')], [800, callerClose], [801, handler('handler-abort', 0)], [802, handler('handler-end', 0)], [803, inputEnded], [804, closed], [1_200, end]))).toEqual(['cancel.handler-aborted']);
    expect(ids(trace(...sampling, [201, handler('handler-abort', 0)], [202, handler('handler-end', 0)], [600, result(1)], [601, settled('c1', 'result')], ...tail(800)))).toEqual([]);
  });

  it('progress.token-unique (a client under test): fires on two calls in flight with one progress token / silent on two tokens', () => {
    const run = (second: string) => trace([0, start('c1', 1, { onprogress: true })], [0, callRequest(1, 'c1', 't1')], [1, start('c2', 2, { onprogress: true })], [1, callRequest(2, 'c2', second)], [300, callerClose], [301, settled('c1', 'closed')], [301, settled('c2', 'closed')], [302, inputEnded], [303, closed], [700, end]);
    expect(ids(run('t1'))).toEqual(['progress.token-unique']);
    expect(ids(run('t2'))).toEqual([]);
  });

  it('cancel.not-initialize (a client under test): fires on a cancel of the client\'s initialize / silent on its handshake alone', () => {
    const handshake: [number, TraceEventBody][] = [[0, read({ id: 0, method: 'initialize', params: {} })], [1, wrote({ id: 0, result: {} })], [2, read({ method: 'notifications/initialized' })]];
    expect(ids(trace(...handshake, [3, cancelOf(0)], [500, end]))).toContain('cancel.not-initialize');
    expect(ids(trace(...handshake, [500, end]))).toEqual([]);
  });

  it('rpc.params-preserved (a client under test): fires on a call the caller made with progress whose request carries no _meta.progressToken / silent on the token there', () => {
    const run = (token?: string) => trace(...head({ onprogress: true }, token), [10, result(1)], [12, settled('c1', 'result')], ...tail(20));
    expect(ids(run())).toEqual(['rpc.params-preserved']);
    expect(judged(run()).findings[0]!.message).toMatch(/lacks the progress token the caller asked for/);
    expect(ids(run('c1-token'))).toEqual([]);
  });

  it('rpc.request-id-unique (a client under test): fires on a call that reuses the id of initialize / silent on a fresh id', () => {
    const handshake: [number, TraceEventBody][] = [[0, read({ id: 0, method: 'initialize', params: {} })], [1, wrote({ id: 0, result: {} })], [2, read({ method: 'notifications/initialized' })]];
    const run = (id: number) => trace(...handshake, [3, start('c1', id)], [3, callRequest(id, 'c1')], [10, result(id)], [12, settled('c1', 'result')], ...tail(20));
    expect(ids(run(0))).toEqual(['rpc.request-id-unique']);
    expect(ids(run(1))).toEqual([]);
  });

  it('rpc.request-id-type and rpc.well-formed (a client under test): fire on a call with id null, and on a frame with "jsonrpc": "2" / silent on the same call well-formed', () => {
    const run = (frame: Record<string, unknown>) => trace([0, start('c1', 1)], [0, read(frame)], [10, result(1)], [12, settled('c1', 'result')], ...tail(20));
    const call = { method: 'tools/call', params: { name: 'run', arguments: { call: 'c1' } } };
    expect(ids(run({ ...call, id: null }))).toContain('rpc.request-id-type');
    expect(ids(run({ ...call, id: 1, jsonrpc: '2' }))).toEqual(['rpc.well-formed']);
    expect(ids(run({ ...call, id: 1 }))).toEqual([]);
  });
});
