import { describe, expect, it } from 'vitest';
import { httpFindings } from '../../src/model/rules/http.ts';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';

/** A hand-built trace: what a faulty server would have produced (the real SDK never does). */
const trace = (...bodies: TraceEventBody[]): TraceEvent[] => [
  ...bodies.map((b, i) => ({ ...b, i, step: i, t: 0 }) as TraceEvent),
  { kind: 'end', outcome: 'quiescent', i: bodies.length, step: bodies.length, t: 0 } as TraceEvent,
];
const note = { jsonrpc: '2.0', method: 'notifications/initialized' };
const result = { jsonrpc: '2.0', id: 1, result: {} };
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: {} } };

describe('httpFindings: http.accepted-202 (synthetic traces)', () => {
  const post = (status: number, extra: Partial<Extract<TraceEventBody, { kind: 'http-response' }>> = {}): TraceEvent[] =>
    trace(
      { kind: 'http-request', at: 'client', conn: 1, exchange: 5, method: 'POST', seqs: [6] },
      { kind: 'send', from: 'client', conn: 1, seq: 6, frame: note },
      { kind: 'http-response', at: 'server', conn: 1, exchange: 5, status, seqs: [], ...extra },
    );

  it('should fire for a notification POST answered 200 with a body', () => {
    expect(httpFindings(post(200, { contentType: 'application/json' }), [])).toMatchObject([
      { invariant: 'http.accepted-202', severity: 'violation', at: 2 },
    ]);
  });
  it('should fire for 202 with a body', () => {
    expect(httpFindings(post(202, { contentType: 'text/event-stream' }), []).map((f) => f.invariant)).toEqual(['http.accepted-202']);
  });
  it('should accept 202 without a body, and an HTTP error', () => {
    expect(httpFindings(post(202), [])).toEqual([]);
    expect(httpFindings(post(404, { contentType: 'application/json', error: 'Session not found' }), [])).toEqual([]);
  });
});

describe('httpFindings: http.single-stream (synthetic traces)', () => {
  const twoPosts = (resumes: boolean): TraceEvent[] =>
    trace(
      { kind: 'http-request', at: 'client', conn: 1, exchange: 5, method: 'POST', seqs: [6] },
      { kind: 'send', from: 'client', conn: 1, seq: 6, frame: call },
      { kind: 'http-request', at: 'client', conn: 1, exchange: 7, method: 'GET', seqs: [], ...(resumes && { lastEventId: 'e1' }) },
      { kind: 'send', from: 'server', conn: 1, seq: 8, frame: result },
      { kind: 'sse-event', at: 'server', conn: 1, exchange: 5, seq: 8 },
      { kind: 'send', from: 'server', conn: 1, seq: 9, frame: result },
      { kind: 'sse-event', at: 'server', conn: 1, exchange: 7, seq: 9 },
    );

  it('should fire when one response goes out on two streams', () => {
    expect(httpFindings(twoPosts(false), [])).toMatchObject([{ invariant: 'http.single-stream', at: 6 }]);
  });
  it('should excuse a replay on a resumed stream', () => {
    expect(httpFindings(twoPosts(true), [])).toEqual([]);
  });
});

describe('httpFindings: http.exchange-completes needs the handler to have finished', () => {
  const open = [{ conn: 1, exchange: 5, method: 'POST', requestIds: [1], state: 'streaming' as const }];
  const base: TraceEventBody[] = [
    { kind: 'http-request', at: 'client', conn: 1, exchange: 5, method: 'POST', seqs: [6] },
    { kind: 'send', from: 'client', conn: 1, seq: 6, frame: call },
  ];
  it('should not fire while the handler still runs', () => {
    expect(httpFindings(trace(...base), open)).toEqual([]);
  });
  it('should fire once it ended', () => {
    const t = trace(...base, { kind: 'handler-end', side: 'server', conn: 1, id: 1, outcome: 'aborted' });
    expect(httpFindings(t, open)).toMatchObject([{ invariant: 'http.exchange-completes', request: 'client:1', at: 3 }]);
  });
  it('should not judge a run that hit its step budget', () => {
    const t = trace(...base, { kind: 'handler-end', side: 'server', conn: 1, id: 1, outcome: 'aborted' });
    (t.at(-1) as { outcome: string }).outcome = 'step-budget';
    expect(httpFindings(t, open)).toEqual([]);
  });
});
