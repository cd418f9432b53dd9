import { describe, expect, it } from 'vitest';
import { judgeObserved } from '../../src/model/judgeObserved.ts';
import { owedError } from '../../src/model/rules/errorCodes.ts';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';
import type { JsonValue } from '../../src/util/json.ts';
import { judged } from './fixtures.ts';
import { connect, crossing, deliver, end, errorOf, request, resultOf, send, steps } from './handTrace.ts';

const ids = (trace: readonly TraceEvent[]) => judged(trace).map((f) => f.invariant);

/** Real-clock (black-box) traces by hand: what a client wrote and read, at real times in ms. */
function timed(...events: [number, TraceEventBody][]): TraceEvent[] {
  return events.map(([t, body], i) => ({ ...body, i, step: 0, t }) as TraceEvent);
}
const clock = { kind: 'real' as const, inFlightMs: 150, hangAfterMs: 1_000, graceMs: 500 };
const realIds = (trace: TraceEvent[]) => judgeObserved(trace, { clock }).findings.map((f) => f.invariant);
const out = (seq: number, frame: JsonValue): TraceEventBody => send('client', seq, frame, 0);
const back = (frame: JsonValue): TraceEventBody => deliver('client', 0, frame, 0);

/** The client sends `frame` to the server, which answers it with `answer` (or not at all), in one step. */
const answered = (frame: JsonValue, answer?: JsonValue) =>
  steps([connect()], [...crossing('client', 1, frame), ...(answer === undefined ? [] : [send('server', 2, answer)])], answer === undefined ? [] : [deliver('client', 2, answer)], [end]);

const ping = request('rogue-follow-up', 'ping');

describe('what a side does with frames it cannot take (a rogue peer\'s)', () => {
  it('rpc.error-code: fires on a request of an undefined method answered -32603, or never answered / silent on -32601', () => {
    const unknown = request(1, 'rogue/no-such-method');
    expect(ids(answered(unknown, errorOf(1, -32603)))).toContain('rpc.error-code');
    expect(ids(answered(unknown))).toContain('rpc.error-code');
    expect(ids(answered(unknown, errorOf(1, -32601)))).not.toContain('rpc.error-code');
  });

  it('rpc.error-code (invalid request): fires on a frame that is no object answered with a result / silent on -32600 with id null, which is no stray response', () => {
    expect(ids(answered(42, resultOf(null)))).toEqual(expect.arrayContaining(['rpc.error-code']));
    // JSON-RPC's reply to a frame whose id it cannot read names id null: not rpc.response-matches-request.
    expect(ids(answered(42, errorOf(null, -32600)))).toEqual(['rpc.well-formed']);
    expect(ids(answered({ jsonrpc: '2.0', id: 3, params: {} }, errorOf(3, -32600)))).toEqual(['rpc.well-formed']);
  });

  it('rpc.error-code (black box): fires on a line that is not JSON answered -32603 / silent on -32700 with id null', () => {
    const line = '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"';
    expect(realIds(timed([0, out(0, line)], [5, back(errorOf(null, -32603))], [300, end]))).toEqual(['rpc.well-formed', 'rpc.error-code']);
    expect(realIds(timed([0, out(0, line)], [5, back(errorOf(null, -32700))], [300, end]))).toEqual(['rpc.well-formed']);
  });

  it('owedError: the code each kind of unreadable frame is owed, and the frames owed none', () => {
    expect(owedError('x', 'client')?.codes).toEqual([-32700, -32600]);
    expect(owedError({ id: 1, method: 'tools/call' }, 'client')).toMatchObject({ codes: [-32600], id: 1 });
    expect(owedError(request(1, 'tools/call', 42), 'client')?.codes).toEqual([-32600, -32602]);
    expect(owedError(request(1, 'tools/call', {}), 'client')?.codes).toEqual([-32602]);
    expect(owedError(request(1, 'notifications/initialized'), 'client')?.codes).toEqual([-32601]);
    expect(owedError(request(1, 'sampling/createMessage'), 'client')?.codes).toEqual([-32601]);
    expect(owedError(request(1, 'sampling/createMessage'), 'server')).toBeUndefined();
    for (const none of [{ method: 'notifications/rogue' }, [request(1, 'ping')], resultOf(9), request(null, 'tools/call', { name: 'x' })]) {
      expect(owedError(none as never, 'client')).toBeUndefined();
    }
  });

  it('rpc.survives-bad-input: fires on a ping the server never answers / silent on a ping answered in its step', () => {
    expect(ids(steps([connect()], crossing('client', 1, ping), [end]))).toEqual(['rpc.survives-bad-input']);
    expect(ids(steps([connect()], [...crossing('client', 1, ping), send('server', 2, resultOf('rogue-follow-up'))], [deliver('client', 2, resultOf('rogue-follow-up'))], [end]))).toEqual([]);
  });

  it('rpc.survives-bad-input (closed by itself): fires on a ping dropped because the server had closed its end / silent on a ping the client could not send after closing itself', () => {
    const serverClosed = steps([connect()], [{ kind: 'close', side: 'server', conn: 1 }], [send('client', 1, ping), { kind: 'drop', to: 'server', conn: 1, seq: 1, frame: ping }], [end]);
    expect(ids(serverClosed)).toEqual(['rpc.survives-bad-input']);
    const clientClosed = steps([connect()], [{ kind: 'close', side: 'client', conn: 1 }], [{ kind: 'send-failed', from: 'client', conn: 1, frame: ping, error: 'Not connected' }], [end]);
    expect(ids(clientClosed)).not.toContain('rpc.survives-bad-input');
  });

  it('rpc.survives-bad-input (black box): fires on a ping unanswered for the hang bound / silent on one answered late but within it', () => {
    expect(realIds(timed([0, out(0, ping)], [1_200, end]))).toEqual(['rpc.survives-bad-input']);
    expect(realIds(timed([0, out(0, ping)], [900, back(resultOf('rogue-follow-up'))], [1_200, end]))).toEqual([]);
    // The run's teardown came before the bound: no evidence either way.
    expect(realIds(timed([0, out(0, ping)], [300, { kind: 'eof', to: 'server', conn: 0 }], [1_200, end]))).toEqual([]);
  });

  type HttpRequest = Extract<TraceEventBody, { kind: 'http-request' }>;
  const post = (body: { headers?: Record<string, string>; body?: string; seqs?: number[] }): HttpRequest => ({
    kind: 'http-request',
    at: 'client',
    conn: 1,
    exchange: 10,
    method: 'POST',
    session: 's1',
    seqs: body.seqs ?? [],
    raw: true,
    headers: body.headers ?? { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-session-id': 's1' },
    ...(body.body !== undefined && { body: body.body }),
  });
  const head = (exchange: number, status: number, session?: string): TraceEventBody => ({ kind: 'http-response', at: 'client', conn: 1, exchange, status, seqs: [], ...(session && { session }) });
  /** A session given at initialize, then `request` answered `status` (or not at all). */
  const http = (request: TraceEventBody, status?: number) =>
    steps([connect()], [{ kind: 'http-request', at: 'client', conn: 1, exchange: 1, method: 'POST', seqs: [] }, head(1, 200, 's1')], [request, ...(status === undefined ? [] : [head(10, status)])], [end]);

  it('http.rejects-bad-input: fires on a body that is not JSON answered 200, 500 or not at all / silent on 400', () => {
    const garbage = post({ body: 'this is {not json' });
    expect(ids(http(garbage, 200))).toEqual(['http.rejects-bad-input']);
    expect(ids(http(garbage, 500))).toEqual(['http.rejects-bad-input']);
    expect(ids(http(garbage))).toEqual(['http.rejects-bad-input']);
    expect(ids(http(garbage, 400))).toEqual([]);
  });

  it('http.rejects-bad-input (headers, method, session): fires on a wrong Content-Type, a PUT or an unknown session answered 200 / silent on the same request made sound', () => {
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'text/plain' };
    expect(ids(http(post({ headers }), 200))).toEqual(['http.rejects-bad-input']);
    expect(ids(http({ ...post({}), method: 'PUT' }, 200))).toEqual(['http.rejects-bad-input']);
    expect(ids(http({ ...post({}), session: 'never-given' }, 202))).toEqual(['http.rejects-bad-input']);
    expect(ids(http(post({}), 202))).toEqual([]);
  });
});
