import { describe, expect, it } from 'vitest';
import { judge } from '../../src/model/judge.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import type { HandlerProgram, HttpMode, Scenario } from '../../src/sim/scenario.ts';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';
import { check } from './fixtures.ts';

/** A tool that sleeps 1 s of virtual time, then answers; honours an abort. */
const sleeper: HandlerProgram = { steps: [{ kind: 'sleep', ms: 1000 }], end: { kind: 'result' }, onAbort: 'honour' };
const mode = (stateful: boolean, response: 'json' | 'sse' = 'sse'): HttpMode => ({ stateful, response, eventStore: false });
const http = (m: HttpMode, actions: Scenario['actions']): Scenario => ({ profile: 'http', http: m, handlers: { sleeper }, actions });
const c1 = { kind: 'call', call: 'c1', method: 'tools/call', handler: 'sleeper', options: { signal: 'a' } } as const;

/** A hand-built trace: what a faulty server would have produced (the real SDK never does). */
const trace = (...bodies: TraceEventBody[]): TraceEvent[] => [
  ...bodies.map((b, i) => ({ ...b, i, step: i, t: 0 }) as TraceEvent),
  { kind: 'end', outcome: 'quiescent', i: bodies.length, step: bodies.length, t: 0 } as TraceEvent,
];
const ids = (t: readonly TraceEvent[]) => judge(t, undefined, { facts: v1Facts }).map((f) => f.invariant);
const note = { jsonrpc: '2.0', method: 'notifications/initialized' };
const result = { jsonrpc: '2.0', id: 1, result: {} };

describe('http invariants (judged by judge(), every profile)', () => {
  // Real SDK 1.32.2: a cancelled request's POST never gets its JSON body (the seed issue).
  it('http.exchange-completes: fires on a cancelled call whose POST never ends (SDK 1.32.2) / silent on the same call answered', async () => {
    const bad = await check(http(mode(true, 'json'), [c1, { kind: 'abort', signal: 'a' }]));
    expect(bad.ids).toContain('http.exchange-completes');
    expect((await check(http(mode(true, 'json'), [c1]))).ids).not.toContain('http.exchange-completes');
  });

  it('http.accepted-202: fires on a notification POST answered 200 with a body / silent on 202 without one', () => {
    const post = (status: number, contentType?: string) =>
      trace(
        { kind: 'http-request', at: 'client', conn: 1, exchange: 5, method: 'POST', seqs: [6] },
        { kind: 'send', from: 'client', conn: 1, seq: 6, frame: note },
        { kind: 'http-response', at: 'server', conn: 1, exchange: 5, status, seqs: [], ...(contentType && { contentType }) },
      );
    expect(ids(post(200, 'application/json'))).toContain('http.accepted-202');
    expect(ids(post(202))).not.toContain('http.accepted-202');
  });

  it('http.single-stream: fires on one response written on two streams / silent on a replay on a resumed stream', () => {
    const twoStreams = (resumes: boolean) =>
      trace(
        { kind: 'http-request', at: 'client', conn: 1, exchange: 7, method: 'GET', seqs: [], ...(resumes && { lastEventId: 'e1' }) },
        { kind: 'send', from: 'server', conn: 1, seq: 8, frame: result },
        { kind: 'sse-event', at: 'server', conn: 1, exchange: 5, seq: 8 },
        { kind: 'send', from: 'server', conn: 1, seq: 9, frame: result },
        { kind: 'sse-event', at: 'server', conn: 1, exchange: 7, seq: 9 },
      );
    expect(ids(twoStreams(false))).toContain('http.single-stream');
    expect(ids(twoStreams(true))).not.toContain('http.single-stream');
  });

  // Real SDK 1.32.2: the server routes the second POST's answer by id and orphans the first POST.
  it('http.duplicate-inflight-id: fires on a raw POST reusing an in-flight id (SDK 1.32.2) / silent on a raw POST with its own id', async () => {
    const rawPost = (id: number) => ({ kind: 'http-post', body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'sleeper', arguments: {} } } }) as const;
    const plainCall = { ...c1, options: {} };
    expect((await check(http(mode(true), [plainCall, rawPost(1)]))).ids).toContain('http.duplicate-inflight-id');
    expect((await check(http(mode(true), [plainCall, rawPost(99)]))).ids).not.toContain('http.duplicate-inflight-id');
  });

  // Real SDK 1.32.2, stateless: closing the client closes the per-POST server, which aborts the handler.
  it('http.disconnect-not-cancel: fires on a stateless server aborting on disconnect (SDK 1.32.2) / silent on a stateful one', async () => {
    const closing = (stateful: boolean) => http(mode(stateful), [{ ...c1, options: {} }, { kind: 'close', side: 'client' }]);
    expect((await check(closing(false))).ids).toContain('http.disconnect-not-cancel');
    expect((await check(closing(true))).ids).not.toContain('http.disconnect-not-cancel');
  });

  // Hand-built traces: `at` gives each event its scheduler step (events of one step share it).
  const at = (...events: [number, TraceEventBody][]): TraceEvent[] => [
    ...events.map(([step, b], i) => ({ ...b, i, step, t: 0 }) as TraceEvent),
    { kind: 'end', outcome: 'quiescent', i: events.length, step: events.length + 100, t: 0 } as TraceEvent,
  ];
  const getStream = (exchange: number, status = 200): [number, TraceEventBody][] => [
    [exchange, { kind: 'http-request', at: 'server', conn: 1, exchange, method: 'GET', session: 's1', seqs: [] }],
    [exchange, { kind: 'http-response', at: 'server', conn: 1, exchange, status, ...(status === 200 && { contentType: 'text/event-stream' }), seqs: [] }],
  ];

  it('http.close-ends-streams: fires on a GET stream left open by the server\'s close / silent on one ended in the step of the close', () => {
    const closing = (ends: boolean) =>
      at(...getStream(5), [20, { kind: 'close', side: 'server', conn: 1 }], ...(ends ? [[20, { kind: 'sse-end', at: 'server', conn: 1, exchange: 5 }] as [number, TraceEventBody]] : []));
    expect(ids(closing(false))).toContain('http.close-ends-streams');
    expect(ids(closing(true))).not.toContain('http.close-ends-streams');
  });

  it('http.get-stream: fires on a first GET refused with 409 / silent on a second GET refused while the first is open', () => {
    expect(ids(at(...getStream(5, 409)))).toContain('http.get-stream');
    expect(ids(at(...getStream(5), ...getStream(7, 409)))).not.toContain('http.get-stream');
  });

  it('http.error-fails-call: fires on a call still pending after its POST got 404 / silent on a call rejected in that step', () => {
    const failing = (rejects: boolean) =>
      at(
        [1, { kind: 'call-start', call: 'c1', from: 'client', conn: 1, method: 'tools/call', id: 1, options: {} }],
        [1, { kind: 'http-request', at: 'client', conn: 1, exchange: 5, method: 'POST', session: 's1', seqs: [6] }],
        [1, { kind: 'send', from: 'client', conn: 1, seq: 6, frame: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sleeper' } } }],
        [2, { kind: 'http-response', at: 'client', conn: 1, exchange: 5, status: 404, contentType: 'application/json', seqs: [] }],
        ...(rejects ? [[2, { kind: 'call-settle', call: 'c1', from: 'client', outcome: 'rejected', message: 'Session not found' }] as [number, TraceEventBody]] : []),
      );
    expect(ids(failing(false))).toContain('http.error-fails-call');
    expect(ids(failing(true))).not.toContain('http.error-fails-call');
  });

  it('http.related-on-request-stream: fires on a request\'s progress written on the GET stream / silent on it written on the request\'s POST stream', () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sleeper', _meta: { progressToken: 1 } } };
    const progressOn = (exchange: number) =>
      at(
        ...getStream(9),
        [10, { kind: 'send', from: 'client', conn: 1, seq: 6, frame: request }],
        [11, { kind: 'http-request', at: 'server', conn: 1, exchange: 5, method: 'POST', session: 's1', seqs: [6] }],
        [11, { kind: 'http-response', at: 'server', conn: 1, exchange: 5, status: 200, contentType: 'text/event-stream', seqs: [] }],
        [12, { kind: 'send', from: 'server', conn: 1, seq: 8, frame: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } }],
        [12, { kind: 'sse-event', at: 'server', conn: 1, exchange, seq: 8 }],
      );
    expect(ids(progressOn(9))).toContain('http.related-on-request-stream');
    expect(ids(progressOn(5))).not.toContain('http.related-on-request-stream');
  });

  // Real SDK 1.32.2: with SSE responses the cancelled request's stream stays open too.
  it('http.exchange-completes (SSE stream closes): fires on a cancelled call whose SSE stream never closes (SDK 1.32.2) / silent on the same call answered', async () => {
    const bad = await check(http(mode(true, 'sse'), [c1, { kind: 'abort', signal: 'a' }]));
    expect(bad.run.findings.find((f) => f.invariant === 'http.exchange-completes')?.message).toMatch(/SSE stream never closed/);
    expect((await check(http(mode(true, 'sse'), [c1]))).ids).not.toContain('http.exchange-completes');
  });

  it('http.accepted-202 (responses): fires on a POST of a response answered 200 with a body / silent on 202 without one', () => {
    const post = (status: number, contentType?: string) =>
      trace(
        { kind: 'http-request', at: 'client', conn: 1, exchange: 5, method: 'POST', seqs: [6] },
        { kind: 'send', from: 'client', conn: 1, seq: 6, frame: { jsonrpc: '2.0', id: 0, result: { model: 'm', role: 'assistant', content: { type: 'text', text: '' } } } },
        { kind: 'http-response', at: 'server', conn: 1, exchange: 5, status, seqs: [], ...(contentType && { contentType }) },
      );
    expect(ids(post(200, 'application/json'))).toContain('http.accepted-202');
    expect(ids(post(202))).not.toContain('http.accepted-202');
  });

  it('http.close-ends-streams (POST streams): fires on a request\'s SSE stream left open by the server\'s close / silent on one ended in the step of the close', () => {
    const closing = (ends: boolean) =>
      at(
        [5, { kind: 'http-request', at: 'server', conn: 1, exchange: 5, method: 'POST', session: 's1', seqs: [] }],
        [5, { kind: 'http-response', at: 'server', conn: 1, exchange: 5, status: 200, contentType: 'text/event-stream', seqs: [] }],
        [20, { kind: 'close', side: 'server', conn: 1 }],
        ...(ends ? [[20, { kind: 'sse-end', at: 'server', conn: 1, exchange: 5 }] as [number, TraceEventBody]] : []),
      );
    expect(judge(closing(false), undefined, { facts: v1Facts }).find((f) => f.invariant === 'http.close-ends-streams')?.message).toMatch(/its POST SSE stream #5 stayed open/);
    expect(ids(closing(true))).not.toContain('http.close-ends-streams');
  });

  it('http.get-stream (gets a stream): fires on a GET answered 200 with a JSON body / silent on one answered with an SSE stream or 405', () => {
    const answered = (status: number, contentType?: string) =>
      at(
        [5, { kind: 'http-request', at: 'server', conn: 1, exchange: 5, method: 'GET', session: 's1', seqs: [] }],
        [5, { kind: 'http-response', at: 'server', conn: 1, exchange: 5, status, ...(contentType && { contentType }), seqs: [] }],
      );
    expect(ids(answered(200, 'application/json'))).toContain('http.get-stream');
    expect(ids(answered(200, 'text/event-stream'))).not.toContain('http.get-stream');
    expect(ids(answered(405))).not.toContain('http.get-stream');
  });

  it('http.related-on-request-stream (another request\'s stream): fires on a request\'s progress written on another request\'s POST stream / silent on its own', () => {
    const request = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'sleeper', _meta: { progressToken: id } } });
    const post = (step: number, exchange: number, seq: number): [number, TraceEventBody][] => [
      [step, { kind: 'http-request', at: 'server', conn: 1, exchange, method: 'POST', session: 's1', seqs: [seq] }],
      [step, { kind: 'http-response', at: 'server', conn: 1, exchange, status: 200, contentType: 'text/event-stream', seqs: [] }],
    ];
    const progressOn = (exchange: number) =>
      at(
        [10, { kind: 'send', from: 'client', conn: 1, seq: 6, frame: request(1) }],
        [10, { kind: 'send', from: 'client', conn: 1, seq: 7, frame: request(2) }],
        ...post(11, 5, 6),
        ...post(12, 7, 7),
        [13, { kind: 'send', from: 'server', conn: 1, seq: 8, frame: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } }],
        [13, { kind: 'sse-event', at: 'server', conn: 1, exchange, seq: 8 }],
      );
    expect(judge(progressOn(7), undefined, { facts: v1Facts }).find((f) => f.invariant === 'http.related-on-request-stream')?.message).toMatch(/went out on POST #7, while POST #5/);
    expect(ids(progressOn(5))).not.toContain('http.related-on-request-stream');
  });
});
