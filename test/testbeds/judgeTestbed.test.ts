import { describe, expect, it } from 'vitest';
import { programOf, programShrinks, testbedCases, testbedScript, testbedTrace, TESTBED_TOOL } from '../../src/targets/testbed/index.ts';
import { judgeCase } from '../../src/campaign/real/judgeCase.ts';
import { TESTBED_JUDGING } from '../../src/targets/testbed/open.ts';
import type { Plan } from '../../src/real/plan.ts';
import type { HandlerProgram } from '../../src/sim/scenario.ts';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';
import type { JsonValue } from '../../src/util/json.ts';

const bounds = { inFlightMs: 150, hangAfterMs: 3_000, graceMs: 3_000 };

/** A trace of bodies at the given real times (ms). */
const trace = (...events: [number, TraceEventBody][]): TraceEvent[] => events.map(([t, b], i) => ({ ...b, i, step: 0, t }) as TraceEvent);
const planOf = (program: HandlerProgram, token?: number): Plan => ({
  calls: [{ label: 'c1', tool: TESTBED_TOOL, arguments: { program: program as unknown as JsonValue, call: 'c1' }, at: { kind: 'start', ms: 0 }, ...(token !== undefined && { progressToken: token }) }],
  serverRequests: 'answer',
});
const call = (token?: number): [number, TraceEventBody][] => [
  [0, { kind: 'call-start', call: 'c1', from: 'client', conn: 0, method: 'tools/call', id: 2, options: {} }],
  [0, { kind: 'send', from: 'client', conn: 0, seq: 1, frame: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run', arguments: {}, ...(token !== undefined && { _meta: { progressToken: token } }) } } }],
];
const side = (event: string, extra: Record<string, unknown> = {}): TraceEventBody => ({ kind: 'stderr', text: `mcp-sim-event ${JSON.stringify({ event, id: 2, ...extra })}\n` });
const cancel: TraceEventBody = { kind: 'send', from: 'client', conn: 0, seq: 2, frame: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'x' } } };
const result = (seq: number): TraceEventBody => ({ kind: 'deliver', to: 'client', conn: 0, seq, burst: 0, frame: { jsonrpc: '2.0', id: 2, result: { content: [] } } });
const progress = (seq: number, p: number): TraceEventBody => ({ kind: 'deliver', to: 'client', conn: 0, seq, burst: 0, frame: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: p } } });
const end: TraceEventBody = { kind: 'end', outcome: 'quiescent' };
/** A test-bed case judged by the one oracle: its side channel merged, its script's own told apart. */
const judged = (raw: TraceEvent[], plan: Plan) => judgeCase(testbedTrace(raw, plan), TESTBED_JUDGING, { clock: { kind: 'real', ...bounds } }, (observed) => testbedScript(plan, observed, bounds.hangAfterMs));
/** The SDK's findings (the script's own are listed apart). */
const ids = (raw: TraceEvent[], plan: Plan) => judged(raw, plan).findings.filter((f) => f.owner === 'target').map((f) => f.invariant);

const sleepy = (onAbort: HandlerProgram['onAbort']): HandlerProgram => ({ steps: [{ kind: 'sleep', ms: 400 }, { kind: 'sleep', ms: 20 }], end: { kind: 'result' }, onAbort });

describe('a test-bed case judged by the one oracle: the server side of a test-bed run, from the side channel, judged by the model', () => {
  it('cancel.handler-aborted: a cancelled handler that listens was never told (and not when it was, or when its program ignores)', () => {
    const untold = (p: HandlerProgram) => trace(...call(), [5, side('handler-start')], [6, side('step', { index: 0 })], [10, cancel], [410, side('step', { index: 1 })], [430, side('handler-end', { outcome: 'result' })], [431, result(9)], [600, end]);
    expect(ids(untold(sleepy('honour')), planOf(sleepy('honour')))).toContain('cancel.handler-aborted');
    expect(ids(untold(sleepy('swallow')), planOf(sleepy('swallow')))).toContain('cancel.handler-aborted');
    expect(ids(untold(sleepy('ignore')), planOf(sleepy('ignore')))).not.toContain('cancel.handler-aborted');
    const told = trace(...call(), [5, side('handler-start')], [6, side('step', { index: 0 })], [10, cancel], [12, side('abort-observed')], [13, side('handler-end', { outcome: 'aborted' })], [600, end]);
    expect(ids(told, planOf(sleepy('honour')))).toEqual([]);
  });

  it('cancel.handler-aborted: a handler that ends within the in-flight bound of the cancel crossed it', () => {
    const crossed = trace(...call(), [5, side('handler-start')], [6, side('step', { index: 0 })], [10, cancel], [60, side('handler-end', { outcome: 'result' })], [600, end]);
    expect(ids(crossed, planOf(sleepy('honour')))).not.toContain('cancel.handler-aborted');
  });

  it('cancel.zombie-work: steps after the abort of a program that honours it', () => {
    const zombie = trace(...call(), [5, side('handler-start')], [6, side('step', { index: 0 })], [10, cancel], [12, side('abort-observed')], [410, side('step', { index: 1 })], [430, side('handler-end', { outcome: 'result' })], [600, end]);
    expect(ids(zombie, planOf(sleepy('honour')))).toContain('cancel.zombie-work');
    // An `ignore` program goes on by its own script: not the SDK's.
    expect(ids(zombie, planOf(sleepy('ignore')))).not.toContain('cancel.zombie-work');
  });

  it('progress.reaches-requester: a progress step whose notification never came (and not when every one came)', () => {
    const twice: HandlerProgram = { steps: [{ kind: 'progress', progress: 1 }, { kind: 'progress', progress: 2 }], end: { kind: 'result' }, onAbort: 'honour' };
    const run = (reads: TraceEventBody[]) => trace(...call(7), [5, side('handler-start')], [6, side('step', { index: 0 })], [7, side('step', { index: 1 })], ...reads.map((r, k): [number, TraceEventBody] => [8 + k, r]), [20, side('handler-end', { outcome: 'result' })], [21, result(9)], [300, end]);
    expect(ids(run([progress(3, 1)]), planOf(twice, 7))).toEqual(['progress.reaches-requester']);
    expect(ids(run([progress(3, 1), progress(4, 2)]), planOf(twice, 7))).toEqual([]);
    // A JSON response mode has no stream for progress: not judged there.
    const json: TraceEventBody = { kind: 'http-response', at: 'client', conn: 0, exchange: 1, status: 200, contentType: 'application/json', seqs: [9] };
    expect(ids(run([json, progress(3, 1)]), planOf(twice, 7))).toEqual([]);
  });

  it('lifecycle.close-settles: a handler that honours aborts still began steps long after the client closed', () => {
    const closed = trace(...call(), [5, side('handler-start')], [6, side('step', { index: 0 })], [30, { kind: 'action', action: 'close the connection', choice: 0, enabled: 0 }], [30, { kind: 'call-settle', call: 'c1', from: 'client', outcome: 'rejected', message: 'connection closed (client)' }], [31, { kind: 'eof', to: 'server', conn: 0 }], [410, side('step', { index: 1 })], [430, side('handler-end', { outcome: 'result' })], [440, { kind: 'exit', code: 0, signal: null, after: 'eof' }], [441, end]);
    expect(ids(closed, planOf(sleepy('honour')))).toEqual(['lifecycle.close-settles']);
    expect(ids(closed, planOf(sleepy('ignore')))).toEqual([]);
  });

  it("a program's own hang is reported apart, never as the SDK's liveness.call-settles", () => {
    const hang: HandlerProgram = { steps: [], end: { kind: 'hang' }, onAbort: 'honour' };
    const slowResult: HandlerProgram = { steps: [], end: { kind: 'result' }, onAbort: 'honour' };
    const waited = trace(...call(), [5, side('handler-start')], [3_200, end]);
    const own = judged(waited, planOf(hang)).findings;
    expect(own.map((f) => [f.invariant, f.owner, f.explained])).toEqual([['liveness.call-settles', 'script', 'its program never ends (`hang`)']]);
    expect(ids(waited, planOf(slowResult))).toEqual(['liveness.call-settles']);
  });
});

describe('testbedCases: generated test-bed plans', () => {
  const cases = testbedCases(7, 300);

  it('the same seed gives the same plans; every call runs a generated program under its own label', () => {
    expect(testbedCases(7, 300)).toEqual(cases);
    for (const plan of cases) {
      for (const c of plan.calls) {
        expect(c.tool).toBe(TESTBED_TOOL);
        expect(c.arguments.call).toBe(c.label);
        const p = programOf(c)!;
        expect(['honour', 'ignore', 'swallow']).toContain(p.onAbort);
        expect(p.steps.length).toBeLessThanOrEqual(4);
      }
    }
  });

  it('draws what the campaign needs: each end and abort policy, tokens, cancels after progress, timeouts reset on progress, closes, several calls', () => {
    const programs = cases.flatMap((p) => p.calls.map((c) => programOf(c)!));
    expect(new Set(programs.map((p) => p.end.kind))).toEqual(new Set(['result', 'error', 'hang']));
    expect(new Set(programs.map((p) => p.onAbort))).toEqual(new Set(['honour', 'ignore', 'swallow']));
    expect(new Set(programs.flatMap((p) => p.steps.map((s) => (s.kind === 'call' ? s.method : s.kind))))).toEqual(new Set(['progress', 'sleep', 'sampling/createMessage', 'roots/list']));
    const calls = cases.flatMap((p) => p.calls);
    expect(calls.some((c) => c.progressToken !== undefined) && calls.some((c) => c.progressToken === undefined)).toBe(true);
    expect(calls.some((c) => c.cancel?.kind === 'progress')).toBe(true);
    expect(calls.some((c) => c.cancel?.kind === 'written')).toBe(true);
    expect(calls.some((c) => c.timeout?.resetOnProgress === true) && calls.some((c) => c.timeout?.resetOnProgress === false)).toBe(true);
    expect(cases.some((p) => p.close?.kind === 'written') && cases.some((p) => p.close?.kind === 'progress')).toBe(true);
    expect(cases.some((p) => p.calls.length > 1)).toBe(true);
    expect(new Set(cases.map((p) => p.serverRequests))).toEqual(new Set(['answer', 'late', 'error']));
    expect(testbedCases(7, 300, { duplicateIds: true }).some((p) => p.calls.some((c) => c.sameIdAs !== undefined))).toBe(true);
    expect(testbedCases(7, 300, { http: true }).some((p) => p.calls.some((c) => c.cancelHow === 'drop'))).toBe(true);
  });

  it('programShrinks: one step fewer, an end that answers, an abort honoured, never a call without its program', () => {
    const plan = planOf({ steps: [{ kind: 'sleep', ms: 5 }, { kind: 'progress', progress: 1 }], end: { kind: 'hang' }, onAbort: 'swallow' });
    const smaller = programShrinks(plan).map((p) => programOf(p.calls[0]!)!);
    expect(smaller).toEqual([
      { steps: [{ kind: 'progress', progress: 1 }], end: { kind: 'hang' }, onAbort: 'swallow' },
      { steps: [{ kind: 'sleep', ms: 5 }], end: { kind: 'hang' }, onAbort: 'swallow' },
      { steps: [{ kind: 'sleep', ms: 5 }, { kind: 'progress', progress: 1 }], end: { kind: 'result' }, onAbort: 'swallow' },
      { steps: [{ kind: 'sleep', ms: 5 }, { kind: 'progress', progress: 1 }], end: { kind: 'hang' }, onAbort: 'honour' },
    ]);
  });
});
