import { describe, expect, it } from 'vitest';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';
import type { JsonValue } from '../../src/util/json.ts';
import { judged } from './fixtures.ts';
import { connect, crossing, deliver, end, request, resultOf, send, steps } from './handTrace.ts';

const ids = (trace: readonly TraceEvent[]) => judged(trace).map((f) => f.invariant);

/** The client's call c1 (request 1, progress token 1) and what reaches it back in one step, the call's own reaction included. */
function callGets(frame: JsonValue, reaction: TraceEventBody): TraceEvent[] {
  const call: TraceEventBody = { kind: 'call-start', call: 'c1', from: 'client', conn: 1, method: 'tools/call', id: 1, options: { onprogress: true } };
  const req = request(1, 'tools/call', { name: 'echo', arguments: {}, _meta: { progressToken: 1 } });
  return steps([connect()], [call, ...crossing('client', 1, req)], [send('server', 2, frame), deliver('client', 2, frame), reaction], [end]);
}
const progress = (token: JsonValue): JsonValue => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1 } });
const resolved: TraceEventBody = { kind: 'call-settle', call: 'c1', from: 'client', outcome: 'resolved' };

describe('the requester matches responses by type and value, and is owed onprogress only for a sound progress', () => {
  it('rpc.response-matches-request (resolved by another id): fires on a call resolved by a response with id "1" for its request 1 / silent on the response with id 1', () => {
    const taken = judged(callGets(resultOf('1'), resolved)).find((f) => f.invariant === 'rpc.response-matches-request' && f.clause === 'resolved-by-other-id');
    expect(taken?.message).toMatch(/call c1 resolved though no response with its request's id 1 reached the client \(what reached it: a response with id "1"\)/);
    expect(ids(callGets(resultOf(1), resolved))).not.toContain('rpc.response-matches-request');
  });

  it('progress.delivered is owed only for a progress with a numeric value: a requester refusing progress "NaN" with an error callback is no finding', () => {
    const refused: TraceEventBody = { kind: 'onerror', side: 'client', message: 'invalid progress' };
    expect(ids(callGets({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 'NaN' } }, refused))).not.toContain('progress.delivered');
    expect(ids(callGets(progress(1), refused))).toContain('progress.delivered');
  });
});
