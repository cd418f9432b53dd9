import { describe, expect, it } from 'vitest';
import { judgeObserved } from '../../src/model/judgeObserved.ts';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';
import { barrierPingId } from '../../src/util/barrierPing.ts';

/** Black-box traces written by hand: what a client wrote and read, at real times in ms. */
function trace(...timed: [number, TraceEventBody][]): TraceEvent[] {
  return timed.map(([t, body], i) => ({ ...body, i, step: 0, t }) as TraceEvent);
}
const bounds = { inFlightMs: 150, hangAfterMs: 1_000, graceMs: 500 };
type Extra = Partial<typeof bounds> & { durations?: Map<string, number> };
const judged = (events: TraceEvent[], { durations, ...extra }: Extra = {}) => judgeObserved(events, { clock: { kind: 'real', ...bounds, ...extra }, ...(durations && { durations }) });
const ids = (events: TraceEvent[], extra: Extra = {}) => judged(events, extra).findings.map((f) => f.invariant);

const callWork = (id: number, token?: number, seq = id): TraceEventBody => ({
  kind: 'send',
  from: 'client',
  conn: 0,
  seq,
  frame: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'work', arguments: { steps: 4 }, ...(token !== undefined && { _meta: { progressToken: token } }) } },
});
const start = (id: number, call = `c${id}`): TraceEventBody => ({ kind: 'call-start', call, from: 'client', conn: 0, method: 'tools/call', id, options: {} });
const cancel = (id: number): TraceEventBody => ({ kind: 'send', from: 'client', conn: 0, seq: 90 + id, frame: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } } });
const progress = (token: number, value: number, total = 4): TraceEventBody => ({ kind: 'deliver', to: 'client', conn: 0, seq: 0, burst: 1, frame: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: value, total } } });
const result = (id: number): TraceEventBody => ({ kind: 'deliver', to: 'client', conn: 0, seq: 0, burst: 1, frame: { jsonrpc: '2.0', id, result: { content: [] } } });
const errorOf = (id: number, message: string): TraceEventBody => ({ kind: 'deliver', to: 'client', conn: 0, seq: 0, burst: 1, frame: { jsonrpc: '2.0', id, error: { code: 0, message } } });
const end: TraceEventBody = { kind: 'end', outcome: 'quiescent' };
const eof: TraceEventBody = { kind: 'eof', to: 'server', conn: 0 };
const exit = (after: 'eof' | 'sigterm', code = 0): TraceEventBody => ({ kind: 'exit', code, signal: null, after });

describe('wire oracle (black box, real time)', () => {
  it('progress.after-cancel: fires on progress every step after the cancel\'s receipt (nothing proves it read: its in-flight bound) / silent on one progress that crossed it', () => {
    const head: [number, TraceEventBody][] = [[0, start(1)], [0, callWork(1, 7)], [20, progress(7, 1)], [25, cancel(1)]];
    // The cancel is taken as read at 25 + 150 ms: two progress after that (one pipe orders them).
    expect(ids(trace(...head, [200, progress(7, 2)], [220, progress(7, 3)], [240, progress(7, 4)], [600, end]))).toContain('progress.after-cancel');
    expect(ids(trace(...head, [30, progress(7, 2)], [300, end]))).not.toContain('progress.after-cancel');
    // Three read soon after the cancel was written, before its receipt: they were on their way.
    expect(ids(trace(...head, [40, progress(7, 2)], [60, progress(7, 3)], [80, progress(7, 4)], [300, end]))).not.toContain('progress.after-cancel');
  });

  it('progress.after-cancel (after the in-flight bound): fires on one progress more than the bound after the cancel\'s receipt / silent on the same progress before the cancel', () => {
    expect(ids(trace([0, start(1)], [0, callWork(1, 7)], [25, cancel(1)], [400, progress(7, 1)], [600, end]))).toContain('progress.after-cancel');
    expect(ids(trace([0, start(1)], [0, callWork(1, 7)], [20, progress(7, 1)], [225, cancel(1)], [400, end]))).not.toContain('progress.after-cancel');
  });

  it('liveness.call-settles: fires on a call unanswered for the bound / silent on the same call answered, or cancelled', () => {
    expect(ids(trace([0, start(1)], [0, callWork(1)], [1_200, end]))).toContain('liveness.call-settles');
    // The server's SDK answers it with an error only when stdin closes: not within the bound.
    expect(ids(trace([0, start(1)], [0, callWork(1)], [1_100, eof], [1_102, errorOf(1, 'Connection closed')], [1_200, end]))).toContain('liveness.call-settles');
    expect(ids(trace([0, start(1)], [0, callWork(1)], [90, result(1)], [1_200, end]))).not.toContain('liveness.call-settles');
    expect(ids(trace([0, start(1)], [0, callWork(1)], [30, cancel(1)], [1_200, end]))).not.toContain('liveness.call-settles');
  });

  it('lifecycle.stdio-exit: fires on a server ended by SIGTERM after EOF, or exiting 1 with a stack trace / silent on exit code 0 after EOF', () => {
    expect(ids(trace([0, eof], [1_000, exit('sigterm')], [1_001, end]))).toContain('lifecycle.stdio-exit');
    expect(ids(trace([0, { kind: 'stderr', text: 'Traceback (most recent call last):\n  File "s.py"\nBrokenPipeError\n' }], [1, eof], [20, exit('eof', 1)], [21, end]))).toContain('lifecycle.stdio-exit');
    expect(ids(trace([0, { kind: 'stderr', text: 'INFO processing request\n' }], [1, eof], [20, exit('eof')], [21, end]))).not.toContain('lifecycle.stdio-exit');
  });

  it('cancel.no-response-after (black box): fires on a result long after the cancel, and on an error that says cancelled, with the SDK\'s own reason beside it / silent on a result that crossed the cancel', () => {
    const head: [number, TraceEventBody][] = [[0, start(1)], [0, callWork(1)], [10, cancel(1)]];
    expect(ids(trace(...head, [90, result(1)], [300, end]), { inFlightMs: 50 })).toContain('cancel.no-response-after');
    // An answer that says cancelled proves the cancel was read; the spec says SHOULD NOT respond, whatever the answer.
    const answered = judged(trace(...head, [12, errorOf(1, 'Request cancelled')], [300, end])).findings;
    expect(answered.map((f) => [f.invariant, f.reason])).toEqual([['cancel.no-response-after', { answer: 'error', code: 0, message: 'Request cancelled' }]]);
    const isError: TraceEventBody = { kind: 'deliver', to: 'client', conn: 0, seq: 0, burst: 1, frame: { jsonrpc: '2.0', id: 1, result: { isError: true, content: [{ type: 'text', text: 'context canceled' }] } } };
    expect(judged(trace(...head, [300, isError], [400, end]), { inFlightMs: 50 }).findings.map((f) => f.reason)).toEqual([{ answer: 'isError', text: 'context canceled' }]);
    // A result read before anything proves the cancel read, within the bound: it crossed the cancel.
    expect(ids(trace(...head, [11, result(1)], [300, end]), { durations: new Map([['c1', 11]]) })).not.toContain('cancel.no-response-after');
  });

  it('cancel.no-response-after (counterfactual): a result right after the cancel fires when the call takes 80 ms without it / silent when it was due then', () => {
    const events = trace([0, start(1)], [0, callWork(1)], [10, cancel(1)], [12, result(1)], [300, end]);
    expect(judged(events).undecided).toEqual(['c1']);
    expect(ids(events, { inFlightMs: 20, durations: new Map([['c1', 80]]) })).toContain('cancel.no-response-after');
    expect(ids(events, { inFlightMs: 20, durations: new Map([['c1', 12]]) })).not.toContain('cancel.no-response-after');
  });

  it('progress rules from the wire: a self-made token, a repeated value, a changing total and progress after the result each fire once', () => {
    const events = trace([0, start(1)], [0, callWork(1, 7)], [10, progress(99, 1)], [20, progress(7, 1)], [30, progress(7, 1)], [40, progress(7, 2, 8)], [50, result(1)], [60, progress(7, 3, 8)], [300, end]);
    expect(ids(events).sort()).toEqual(['progress.after-response', 'progress.increasing', 'progress.token-requested', 'progress.total-stable']);
  });
});

/** A Streamable HTTP exchange by hand: the POST of client frame `seq`, its SSE head, and each frame read on it. */
const post = (exchange: number, seq: number): TraceEventBody => ({ kind: 'http-request', at: 'client', conn: 0, exchange, method: 'POST', seqs: [seq] });
const sseHead = (exchange: number): TraceEventBody => ({ kind: 'http-response', at: 'client', conn: 0, exchange, status: 200, contentType: 'text/event-stream', seqs: [] });
const onStream = (t: number, exchange: number, seq: number, body: TraceEventBody): [number, TraceEventBody][] => [
  [t, { kind: 'sse-event', at: 'client', conn: 0, exchange, seq }],
  [t, { ...(body as Extract<TraceEventBody, { kind: 'deliver' }>), seq }],
];
const sseEnd = (exchange: number): TraceEventBody => ({ kind: 'sse-end', at: 'client', conn: 0, exchange });
/** Two calls with one id in flight (5), tokens 7 and 8: c1 on exchange 0, c2 on exchange 1. */
const twins = (): [number, TraceEventBody][] => [
  [0, start(5, 'c1')],
  [0, callWork(5, 7, 0)],
  [0, post(0, 0)],
  [1, sseHead(0)],
  [2, start(5, 'c2')],
  [2, callWork(5, 8, 1)],
  [2, post(1, 1)],
  [3, sseHead(1)],
];

describe('wire oracle: duplicate in-flight ids over HTTP (an answer belongs to the POST stream it came on)', () => {
  it('progress.after-response (duplicate in-flight ids over HTTP): fires on c1\'s own progress after its answer / silent on c2\'s progress after c1\'s answer on c1\'s stream', () => {
    const c1answered = [...twins(), ...onStream(10, 0, 0, progress(7, 1)), ...onStream(11, 1, 1, progress(8, 1)), ...onStream(20, 0, 2, result(5)), [21, sseEnd(0)] as [number, TraceEventBody]];
    const tail = (p: TraceEventBody) => [...onStream(30, 1, 3, p), ...onStream(40, 1, 4, result(5)), [41, sseEnd(1)], [300, end]] as [number, TraceEventBody][];
    expect(ids(trace(...c1answered, ...tail(progress(8, 2))))).toEqual([]);
    const late = trace(...c1answered, ...tail(progress(7, 2)));
    expect(ids(late)).toEqual(['progress.after-response']);
  });

  it('progress.after-response (duplicate in-flight ids over stdio, no stream to tell them apart): fires on progress after both answers / silent on progress between the two answers of one id', () => {
    const head: [number, TraceEventBody][] = [[0, start(5, 'c1')], [0, callWork(5, 7)], [2, start(5, 'c2')], [2, callWork(5, 8)], [20, result(5)], [30, progress(8, 2)], [40, result(5)]];
    expect(ids(trace(...head, [300, end]))).toEqual([]);
    expect(ids(trace(...head, [50, progress(8, 3)], [300, end]))).toEqual(['progress.after-response']);
  });
});

describe('wire oracle: progress.after-cancel with a ping barrier (robust to a loaded machine)', () => {
  const ping: TraceEventBody = { kind: 'send', from: 'client', conn: 0, seq: 95, frame: { jsonrpc: '2.0', id: barrierPingId(1), method: 'ping' } };
  const pong: TraceEventBody = { kind: 'deliver', to: 'client', conn: 0, seq: 0, burst: 1, frame: { jsonrpc: '2.0', id: barrierPingId(1), result: {} } };
  const head: [number, TraceEventBody][] = [[0, start(1)], [0, callWork(1, 7)], [20, progress(7, 1)], [25, cancel(1)], [25, ping]];

  it('progress.after-cancel (ping barrier, loaded machine): silent on progress read before the ping\'s answer, however late (a stalled server had written it before it read the cancel)', () => {
    expect(ids(trace(...head, [240, progress(7, 2)], [260, progress(7, 3)], [280, progress(7, 4)], [300, pong], [600, end]))).toEqual([]);
  });

  it('progress.after-cancel (ping barrier): fires on two progress after the ping\'s answer, or one later than the in-flight bound / silent on one right after it', () => {
    expect(ids(trace(...head, [40, pong], [60, progress(7, 2)], [80, progress(7, 3)], [600, end]))).toEqual(['progress.after-cancel']);
    expect(ids(trace(...head, [40, pong], [300, progress(7, 2)], [600, end]))).toEqual(['progress.after-cancel']);
    // One right after the barrier may be the step that was between its check and its send.
    expect(ids(trace(...head, [40, pong], [45, progress(7, 2)], [600, end]))).toEqual([]);
  });

  it('progress.after-cancel (ping barrier over HTTP: the ping\'s answer and the progress on two streams) only the time after the answer counts: silent on two read right after it / fires on one 200 ms after it', () => {
    const http: [number, TraceEventBody][] = [[0, start(1)], [0, callWork(1, 7, 0)], [0, post(0, 0)], [1, sseHead(0)], ...onStream(20, 0, 1, progress(7, 1)), [25, cancel(1)], [25, ping], [40, { ...pong, seq: 2 } as TraceEventBody]];
    expect(ids(trace(...http, ...onStream(45, 0, 3, progress(7, 2)), ...onStream(46, 0, 4, progress(7, 3)), [600, end]))).toEqual([]);
    expect(ids(trace(...http, ...onStream(240, 0, 3, progress(7, 2)), [600, end]))).toEqual(['progress.after-cancel']);
  });

  it('progress.after-cancel (ping unanswered): the cancel is taken as read after the in-flight bound, and counted from there', () => {
    expect(ids(trace(...head, [40, progress(7, 2)], [60, progress(7, 3)], [80, progress(7, 4)], [600, end]))).toEqual([]);
    expect(ids(trace(...head, [200, progress(7, 2)], [220, progress(7, 3)], [600, end]))).toContain('progress.after-cancel');
  });
});

describe('wire oracle: session errors over Streamable HTTP (black box)', () => {
  const initialize: [number, TraceEventBody][] = [
    [0, { kind: 'send', from: 'client', conn: 0, seq: 0, frame: { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} } }],
    [0, post(0, 0)],
    [5, { kind: 'http-response', at: 'client', conn: 0, exchange: 0, status: 200, contentType: 'application/json', session: 's1', seqs: [0] }],
    [5, { kind: 'deliver', to: 'client', conn: 0, seq: 0, burst: 1, frame: { jsonrpc: '2.0', id: 0, result: {} } }],
  ];
  const probe = (t: number, exchange: number, status: number, session?: string, answeredIn?: string): [number, TraceEventBody][] => [
    [t, { kind: 'http-request', at: 'client', conn: 0, exchange, method: 'POST', ...(session !== undefined && { session }), seqs: [], raw: true }],
    [t + 1, { kind: 'http-response', at: 'client', conn: 0, exchange, status, ...(answeredIn !== undefined && { session: answeredIn }), seqs: [] }],
  ];
  const del = (t: number, status: number): [number, TraceEventBody][] => [
    [t, { kind: 'http-request', at: 'client', conn: 0, exchange: 5, method: 'DELETE', session: 's1', seqs: [] }],
    [t + 1, { kind: 'http-response', at: 'client', conn: 0, exchange: 5, status, seqs: [] }],
  ];

  it('http.session-deleted-404: fires on a POST with the deleted session id answered 200 / silent on 404, and when the DELETE was refused (405)', () => {
    expect(ids(trace(...initialize, ...del(50, 200), ...probe(60, 6, 200, 's1'), [70, end]))).toEqual(['http.session-deleted-404']);
    expect(ids(trace(...initialize, ...del(50, 204), ...probe(60, 6, 404, 's1'), [70, end]))).toEqual([]);
    expect(ids(trace(...initialize, ...del(50, 405), ...probe(60, 6, 200, 's1'), [70, end]))).toEqual([]);
  });

  it('http.session-required-400: fires on a POST without a session id served in the client\'s session (200) or answered 404 by a server that gave one / silent on 400, and on a stateless server', () => {
    expect(ids(trace(...initialize, ...probe(40, 4, 200, undefined, 's1'), [70, end]))).toEqual(['http.session-required-400']);
    // Served outside any session (go-sdk v1.8.0 makes an ephemeral one): the server does not require a session for it, which the SHOULD is not about.
    expect(ids(trace(...initialize, ...probe(40, 4, 200), [70, end]))).toEqual([]);
    expect(ids(trace(...initialize, ...probe(40, 4, 404), [70, end]))).toEqual(['http.session-required-400']);
    expect(ids(trace(...initialize, ...probe(40, 4, 400), [70, end]))).toEqual([]);
    // No session given (stateless): nothing requires one; the initialize POST itself has none.
    const stateless = initialize.map(([t, e]) => [t, e.kind === 'http-response' ? { ...e, session: undefined } : e] as [number, TraceEventBody]);
    expect(ids(trace(...stateless, ...probe(40, 4, 200, undefined, 's1'), [70, end]))).toEqual([]);
  });
});

describe('wire oracle: progress on two streams (Streamable HTTP)', () => {
  const get: TraceEventBody = { kind: 'http-request', at: 'client', conn: 0, exchange: 9, method: 'GET', seqs: [] };
  /** c1 (token 7) on exchange 0, a GET stream on exchange 9. */
  const head = (): [number, TraceEventBody][] => [[0, get], [0, start(1)], [0, callWork(1, 7, 0)], [0, post(0, 0)], [1, sseHead(0)]];

  it('progress.increasing is judged within a stream: silent on 2 (GET) read before 1 (POST) after a cancel, as rmcp 3.11.0 does / fires on 2 then 1 on one stream', () => {
    const crossed = trace(...head(), ...onStream(10, 0, 1, progress(7, 1)), [20, cancel(1)], ...onStream(25, 9, 2, progress(7, 3)), ...onStream(30, 0, 3, progress(7, 2)), [31, sseEnd(0)], [300, end]);
    expect(ids(crossed)).not.toContain('progress.increasing');
    const oneStream = trace(...head(), ...onStream(10, 0, 1, progress(7, 2)), ...onStream(30, 0, 2, progress(7, 1)), ...onStream(40, 0, 3, result(1)), [41, sseEnd(0)], [300, end]);
    expect(ids(oneStream)).toContain('progress.increasing');
  });

  it('http.related-on-request-stream: fires on progress on the GET stream while the call runs on its open POST stream / silent once the call was cancelled, or on its own stream', () => {
    const onGet = trace(...head(), ...onStream(10, 9, 1, progress(7, 1)), ...onStream(40, 0, 2, result(1)), [41, sseEnd(0)], [300, end]);
    expect(ids(onGet)).toEqual(['http.related-on-request-stream']);
    // The cancel's own POST, answered 202: its head proves the server had it.
    const cancelPost: [number, TraceEventBody][] = [[5, cancel(1)], [5, post(3, 91)], [6, { kind: 'http-response', at: 'client', conn: 0, exchange: 3, status: 202, seqs: [] }]];
    const afterCancel = trace(...head(), ...cancelPost, ...onStream(10, 9, 1, progress(7, 1)), [41, sseEnd(0)], [300, end]);
    expect(ids(afterCancel)).not.toContain('http.related-on-request-stream');
    const own = trace(...head(), ...onStream(10, 0, 1, progress(7, 1)), ...onStream(40, 0, 2, result(1)), [41, sseEnd(0)], [300, end]);
    expect(ids(own)).toEqual([]);
  });
});

describe('the model on a real clock: what only a one-sided run shows, and the obligations a real clock gives time', () => {
  it('liveness.call-settles (slow is not stuck): fires on a call silent for the bound between two progress, and on one still running at the client\'s close / silent on a 5 s tool with progress every second', () => {
    const slow = (...more: [number, TraceEventBody][]) => trace([0, start(1)], [0, callWork(1, 7)], [1_000, progress(7, 1)], [2_000, progress(7, 2)], [3_000, progress(7, 3)], [4_000, progress(7, 4)], ...more);
    const hang = { hangAfterMs: 3_000 };
    expect(ids(slow([5_017, result(1)], [5_300, end]), hang)).toEqual([]);
    const stuck = judged(trace([0, start(1)], [0, callWork(1, 7)], [1_000, progress(7, 1)], [4_500, progress(7, 2)], [5_017, result(1)], [5_300, end]), hang).findings;
    expect(stuck.map((f) => f.invariant)).toEqual(['liveness.call-settles']);
    expect(stuck[0]!.message).toMatch(/silent for 3500 ms since its last progress/);
    // Never silent for the bound, but the client closed before it answered: it outlived the close.
    const outlived = judged(slow([4_100, eof], [4_500, end]), hang).findings;
    expect(outlived.map((f) => [f.invariant, /outlived the client's close/.test(f.message)])).toEqual([['liveness.call-settles', true]]);
  });

  it('rpc.well-formed (black box): fires on a stdout line that is not JSON / silent on JSON-RPC lines', () => {
    const line: TraceEventBody = { kind: 'deliver', to: 'client', conn: 0, seq: 0, burst: 1, frame: 'INFO starting worker' };
    expect(ids(trace([0, start(1)], [0, callWork(1)], [5, line], [10, result(1)], [300, end]))).toEqual(['rpc.well-formed']);
    expect(ids(trace([0, start(1)], [0, callWork(1)], [10, result(1)], [300, end]))).toEqual([]);
  });

  it('rpc.response-matches-request (black box): fires on an answer to an id the client never sent / silent on the answer to its call', () => {
    expect(ids(trace([0, start(1)], [0, callWork(1)], [10, result(1)], [20, result(9)], [300, end]))).toEqual(['rpc.response-matches-request']);
    expect(ids(trace([0, start(1)], [0, callWork(1)], [10, result(1)], [300, end]))).toEqual([]);
  });

  it('rpc.single-response (black box): fires on two answers to one id / silent on one', () => {
    expect(ids(trace([0, start(1)], [0, callWork(1)], [10, result(1)], [20, result(1)], [300, end]))).toEqual(['rpc.single-response']);
    expect(ids(trace([0, start(1)], [0, callWork(1)], [10, result(1)], [300, end]))).toEqual([]);
  });

  it('http.accepted-202 (black box): fires on a POST of a notification answered 200 with a body / silent on 202 without one, a content type on an empty body included', () => {
    const notify = (status: number, contentType?: string, seqs: number[] = []): [number, TraceEventBody][] => [
      [0, { kind: 'send', from: 'client', conn: 0, seq: 4, frame: { jsonrpc: '2.0', method: 'notifications/initialized' } }],
      [0, post(2, 4)],
      [2, { kind: 'http-response', at: 'client', conn: 0, exchange: 2, status, ...(contentType && { contentType }), seqs }],
      ...(seqs.length ? [[2, { kind: 'deliver', to: 'client', conn: 0, seq: seqs[0]!, burst: 1, frame: { jsonrpc: '2.0', id: null, result: {} } }] as [number, TraceEventBody]] : []),
      [300, end],
    ];
    expect(ids(trace(...notify(200, 'application/json', [7])))).toContain('http.accepted-202');
    expect(ids(trace(...notify(202)))).toEqual([]);
    expect(ids(trace(...notify(202, 'application/json')))).toEqual([]);
  });

  it('http.exchange-completes (black box): fires on a cancelled POST whose stream stays open past the bound, also when it ends only at the run\'s teardown / silent on one that ended, and on one the case dropped', () => {
    const head: [number, TraceEventBody][] = [[0, start(1)], [0, callWork(1, 7, 0)], [0, post(0, 0)], [1, sseHead(0)], [20, cancel(1)]];
    const del: [number, TraceEventBody][] = [[1_500, { kind: 'http-request', at: 'client', conn: 0, exchange: 5, method: 'DELETE', session: 's1', seqs: [] }], [1_502, { kind: 'http-response', at: 'client', conn: 0, exchange: 5, status: 200, seqs: [] }]];
    expect(ids(trace(...head, [1_400, end]))).toEqual(['http.exchange-completes']);
    // The server ends its streams at shutdown: that is no end of this POST.
    expect(ids(trace(...head, ...del, [1_503, sseEnd(0)], [1_600, end]))).toEqual(['http.exchange-completes']);
    expect(ids(trace(...head, [40, sseEnd(0)], ...del, [1_600, end]))).toEqual([]);
    const dropped: [number, TraceEventBody][] = [
      [20, { kind: 'action', action: 'cancel c1 (drop its POST stream)', choice: 0, enabled: 0 }],
      [20, { kind: 'call-settle', call: 'c1', from: 'client', outcome: 'rejected', message: 'cancelled (client)' }],
      [20, { kind: 'http-disconnect', at: 'client', conn: 0, exchange: 0 }],
    ];
    expect(ids(trace(...head.slice(0, 4), ...dropped, [1_400, end]))).toEqual([]);
  });
});

/** A test bed's side channel, as the model's own events (what `withHandlerEvents` makes of its stderr lines). */
const handler = (kind: 'handler-start' | 'handler-abort' | 'handler-end', id = 1): TraceEventBody =>
  kind === 'handler-start'
    ? { kind, side: 'server', conn: 0, id, method: 'tools/call' }
    : kind === 'handler-abort'
      ? { kind, side: 'server', conn: 0, id, reason: 'cancelled' }
      : { kind, side: 'server', conn: 0, id, outcome: 'result' };
const step = (index: number, op: Extract<TraceEventBody, { kind: 'handler-step' }>['op'], id = 1): TraceEventBody => ({ kind: 'handler-step', side: 'server', conn: 0, id, index, op });
const sleepStep = { kind: 'sleep', ms: 400 } as const;

describe('the model on a real clock, with a test bed\'s side channel (the handler seen)', () => {
  it('cancel.handler-aborted (real clock): fires on a running handler not aborted within the in-flight bound of the cancel\'s receipt / silent on one aborted in time, or one that ended within the bound', () => {
    const head: [number, TraceEventBody][] = [[0, start(1)], [0, callWork(1)], [2, handler('handler-start')], [3, step(0, sleepStep)], [10, cancel(1)]];
    expect(ids(trace(...head, [410, step(1, sleepStep)], [430, handler('handler-end')], [431, result(1)], [600, end]))).toContain('cancel.handler-aborted');
    expect(ids(trace(...head, [12, handler('handler-abort')], [13, { ...handler('handler-end'), outcome: 'aborted' } as TraceEventBody], [600, end]))).toEqual([]);
    expect(ids(trace(...head, [60, handler('handler-end')], [600, end]))).toEqual([]);
  });

  it('cancel.zombie-work (real clock): fires on a step the handler began after its abort / silent on a handler that stopped', () => {
    const head: [number, TraceEventBody][] = [[0, start(1)], [0, callWork(1)], [2, handler('handler-start')], [3, step(0, sleepStep)], [10, cancel(1)], [12, handler('handler-abort')]];
    expect(ids(trace(...head, [410, step(1, sleepStep)], [430, handler('handler-end')], [600, end]))).toEqual(['cancel.zombie-work']);
    expect(ids(trace(...head, [13, { ...handler('handler-end'), outcome: 'aborted' } as TraceEventBody], [600, end]))).toEqual([]);
  });

  it('progress.after-cancel (real clock, the handler seen): fires on progress that left after the cancel\'s receipt, the wire\'s fact beside the handler\'s steps (cancel.zombie-work) / silent on one progress right after it', () => {
    const head: [number, TraceEventBody][] = [[0, start(1)], [0, callWork(1, 7)], [2, handler('handler-start')], [10, cancel(1)], [12, handler('handler-abort')]];
    expect(ids(trace(...head, [20, progress(7, 1)], [30, progress(7, 2)], [600, end]))).toEqual(['progress.after-cancel']);
    // Its step after the abort is the handler's conduct; the progress that left is the SDK's.
    expect(ids(trace(...head, [20, progress(7, 1)], [29, step(0, { kind: 'progress', progress: 2 })], [30, progress(7, 2)], [600, end])).sort()).toEqual(['cancel.zombie-work', 'progress.after-cancel']);
    expect(ids(trace(...head, [20, progress(7, 1)], [600, end]))).toEqual([]);
  });

  it('progress.reaches-requester (real clock): fires on a progress step whose notification never came to an answered call / silent when it came, also read before its step\'s line', () => {
    const p = (n: number) => step(n - 1, { kind: 'progress', progress: n });
    const head: [number, TraceEventBody][] = [[0, start(1)], [0, callWork(1, 7)], [2, handler('handler-start')], [3, p(1)], [4, p(2)]];
    expect(ids(trace(...head, [5, progress(7, 1)], [8, handler('handler-end')], [9, result(1)], [300, end]))).toEqual(['progress.reaches-requester']);
    expect(ids(trace(...head, [5, progress(7, 1)], [6, progress(7, 2)], [8, handler('handler-end')], [9, result(1)], [300, end]))).toEqual([]);
    // stdout and stderr are two pipes: the frame may come before its step's line.
    expect(ids(trace([0, start(1)], [0, callWork(1, 7)], [2, handler('handler-start')], [3, progress(7, 1)], [4, p(1)], [8, handler('handler-end')], [9, result(1)], [300, end]))).toEqual([]);
  });

  it('lifecycle.close-settles (real clock): fires on a handler still running past the in-flight bound of the client\'s close / silent on one aborted at the close, and when the process exited first', () => {
    const head: [number, TraceEventBody][] = [[0, start(1)], [0, callWork(1)], [2, handler('handler-start')], [3, step(0, sleepStep)], [30, eof]];
    expect(ids(trace(...head, [410, step(1, sleepStep)], [430, handler('handler-end')], [440, exit('eof')], [441, end]))).toContain('lifecycle.close-settles');
    expect(ids(trace(...head, [35, handler('handler-abort')], [36, { ...handler('handler-end'), outcome: 'aborted' } as TraceEventBody], [40, exit('eof')], [41, end]))).not.toContain('lifecycle.close-settles');
    expect(ids(trace(...head, [60, exit('eof')], [61, end]))).not.toContain('lifecycle.close-settles');
  });
});

describe('the model on a real clock over Streamable HTTP: two streams give no order', () => {
  it('cancel.no-response-after (black box, HTTP): fires on a result read on the call\'s stream well after the cancel\'s POST was answered / silent on one read just after it (it may have been written first), unless the counterfactual shows the call was not due', () => {
    const head: [number, TraceEventBody][] = [[0, start(1)], [0, callWork(1, undefined, 0)], [0, post(0, 0)], [1, sseHead(0)], [40, cancel(1)], [40, post(3, 91)], [42, { kind: 'http-response', at: 'client', conn: 0, exchange: 3, status: 202, seqs: [] }]];
    const crossed = trace(...head, ...onStream(47, 0, 1, result(1)), [48, sseEnd(0)], [600, end]);
    expect(ids(crossed)).toEqual([]);
    expect(judged(crossed).undecided).toEqual(['c1']);
    expect(ids(crossed, { durations: new Map([['c1', 45]]) })).toEqual([]);
    expect(ids(crossed, { durations: new Map([['c1', 400]]) })).toEqual(['cancel.no-response-after']);
    expect(ids(trace(...head, ...onStream(400, 0, 1, result(1)), [401, sseEnd(0)], [600, end]))).toEqual(['cancel.no-response-after']);
  });
});
