import { describe, expect, it } from 'vitest';
import type { HandlerProgram } from '../../src/sim/scenario.ts';
import type { TraceEvent } from '../../src/sim/trace.ts';
import { runPlan } from '../../src/real/runPlan.ts';
import {
  programCall,
  programTranscript,
  runTestbedPrograms,
  sdkTestbed,
  sdkTestbedManifest,
  sdkTestbedReleases,
  endpointOf,
  type SdkTestbed,
  type SdkTestbedTransport,
} from '../../src/targets/testbed/index.ts';
import { isJsonObject } from '../../src/util/jsonrpc.ts';
import { FIXED_PROGRAMS, type FixedProgram } from './fixedPrograms.ts';

/**
 * The Go test bed on each pinned go-sdk release (testbeds/go/testbed.json), over stdio and every
 * Streamable HTTP mode: fixed scripted programs (no race) and the frames go-sdk puts on the wire
 * for them, black box, real time. The releases differ in one lifecycle bug, go-sdk #1004 (fixed
 * in v1.7.0 by PR #1011): on a stateful HTTP session, a POST that reuses the id of a request still
 * in flight is rejected from v1.7.0 on, and before that cross-wired (the first request's response
 * goes to the second POST, the first POST never ends). And in a second one, over stdio: from
 * v1.7.0 (PR #1007) stdin EOF cancels the handlers still running and the process exits; v1.6.1
 * leaves them running and does not exit. A release that is not installed shows as a skipped test
 * that names its install command.
 */
const manifest = sdkTestbedManifest('go')!;
const releases = sdkTestbedReleases(manifest).map((r) => r.version);

/** The first release that rejects a duplicate in-flight id on a stateful session (go-sdk PR #1011). */
const DUPLICATE_ID_FIXED_IN = 'v1.7.0';
/** The first release whose jsonrpc2 layer cancels in-flight handlers when the reader ends (stdin EOF), so a stdio server exits at EOF: go-sdk PR #1007, commit cd7d80c. */
const EOF_CANCELS_FROM = 'v1.7.0';
const atLeast = (version: string, than: string) => version.localeCompare(than, 'en', { numeric: true }) >= 0;

const named = (name: string): FixedProgram => FIXED_PROGRAMS.find((f) => f.name === name)!;
const PROGRESS = named('progress steps then a result');
const ERROR = named('an error end');
const ROOTS = named('a roots/list call answered, then progress');
const HONOURED = named('a cancel after the first progress, honoured');
const SWALLOWED = named('a cancel after the first progress, swallowed');

const CALL = '→ {"id":"c1","method":"tools/call","params":{"_meta":{"progressToken":"p1"},"arguments":"<program>","name":"run"}}';
const OK = '← {"id":"c1","result":{"content":[{"text":"ok","type":"text"}]}}';
const CANCEL = '→ {"method":"notifications/cancelled","params":{"reason":"mcp-sim cancelled the call","requestId":"c1"}}';
const HALF = '← {"method":"notifications/progress","params":{"message":"half","progress":1,"progressToken":"p1","total":2}}';
const TWO_OF_TWO = '← {"method":"notifications/progress","params":{"progress":2,"progressToken":"p1","total":2}}';
const ONE_OF_THREE = '← {"method":"notifications/progress","params":{"progress":1,"progressToken":"p1","total":3}}';

/** What go-sdk writes for each fixed program over stdio and a stateful HTTP session (SSE or JSON), every pinned release. */
const STATEFUL_WIRE = new Map<FixedProgram, string[]>([
  [PROGRESS, [CALL, HALF, TWO_OF_TWO, OK]],
  [ERROR, ['→ {"id":"c1","method":"tools/call","params":{"arguments":"<program>","name":"run"}}', '← {"error":{"code":-32000,"message":"scripted failure"},"id":"c1"}']],
  [ROOTS, ['→ {"id":"c1","method":"tools/call","params":{"_meta":{"progressToken":7},"arguments":"<program>","name":"run"}}', '← {"id":"s1","method":"roots/list","params":{}}', '→ {"id":"s1","result":{"roots":[]}}', '← {"method":"notifications/progress","params":{"progress":1,"progressToken":7}}', OK]],
  // Cancelled and honoured: the handler returns ctx.Err() and go-sdk answers it, error code 0 (go-sdk #1235, open).
  [HONOURED, [CALL, ONE_OF_THREE, CANCEL, '← {"error":{"code":0,"message":"context canceled"},"id":"c1"}']],
  // Swallowed: the handler's result after the cancel is written too.
  [SWALLOWED, [CALL, ONE_OF_THREE, CANCEL, OK]],
]);

const STATEFUL_HANDLER = new Map<FixedProgram, string[]>([
  [PROGRESS, ['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'step c1 #2 progress', 'end c1 result']],
  [ERROR, ['start c1', 'step c1 #0 sleep', 'end c1 error']],
  [ROOTS, ['start c1', 'step c1 #0 call', 'step c1 #1 progress', 'end c1 result']],
  [HONOURED, ['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'abort observed c1', 'end c1 aborted']],
  [SWALLOWED, ['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'abort observed c1', 'end c1 swallowed']],
]);

/**
 * Stateless: every POST is a temporary session, so the roots/list call step is refused inside the
 * SDK (nothing on the wire, the handler goes on), and with JSON responses the progress
 * notifications have no stream to go on (dropped). The programs that cancel run apart (below).
 */
function statelessWire(json: boolean): Map<FixedProgram, string[]> {
  const keep = (lines: string[]) => lines.filter((l) => !(json && l.includes('notifications/progress')) && !l.includes('roots'));
  return new Map([PROGRESS, ERROR, ROOTS].map((f) => [f, keep(STATEFUL_WIRE.get(f)!)]));
}

/**
 * A cancel on a stateless server: it goes on its own POST, a session of its own, and reaches no
 * handler. The handler sleeps far less than the hang bound, so its result arrives (after the cancel).
 */
const STATELESS_CANCEL: FixedProgram = {
  name: 'stateless: a cancel after the first progress reaches no handler',
  program: { steps: [{ kind: 'progress', progress: 1, total: 3 }, { kind: 'sleep', ms: 1_000 }], end: { kind: 'result' }, onAbort: 'honour' },
  call: { progressToken: 'p1', cancelAfterProgress: { n: 1, ms: 200 } },
};

/** The handler events of a trace's side channel, as `<event> <call>` (the duplicate-id runs share one id, so they are read by label). */
function sideChannel(trace: readonly TraceEvent[]): string[] {
  const text = trace.flatMap((e) => (e.kind === 'stderr' ? [e.text] : [])).join('');
  return [...text.matchAll(/^mcp-sim-event (.*)$/gm)].map((m) => {
    const e = JSON.parse(m[1]!) as { event: string; call: string; outcome?: string };
    return `${e.event} ${e.call}${e.outcome ? ` ${e.outcome}` : ''}`;
  });
}

/**
 * Per call label: the status of its POST's response (undefined: none came) and the frames that
 * POST delivered, before the client's close (DELETE): what happens to an orphaned POST while the
 * session closes races the client dropping it.
 */
function postOf(whole: readonly TraceEvent[], label: string): { status: number | undefined; frames: unknown[] } {
  const closeAt = whole.findIndex((e) => e.kind === 'http-request' && e.method === 'DELETE');
  const trace = closeAt < 0 ? whole : whole.slice(0, closeAt);
  const start = trace.find((e) => e.kind === 'call-start' && e.call === label);
  const sendAt = start ? trace.findIndex((e) => e.i > start.i && e.kind === 'send') : -1;
  const send = trace[sendAt];
  const request = send?.kind === 'send' ? trace.find((e) => e.kind === 'http-request' && e.seqs.includes(send.seq)) : undefined;
  const exchange = request?.kind === 'http-request' ? request.exchange : -1;
  const head = trace.find((e) => e.kind === 'http-response' && e.exchange === exchange);
  const seqs = new Set<number>([...(head?.kind === 'http-response' ? head.seqs : []), ...trace.flatMap((e) => (e.kind === 'sse-event' && e.exchange === exchange && e.seq !== undefined ? [e.seq] : []))]);
  const frames = trace.flatMap((e) => (e.kind === 'deliver' && seqs.has(e.seq) ? [e.frame] : []));
  return { status: head?.kind === 'http-response' ? head.status : undefined, frames };
}

/** go-sdk #1004's program: c1 sleeps; 300 ms after c1 is written, c2 is sent with c1's id, on the same session. */
async function duplicateIdRun(bed: SdkTestbed, transport: SdkTestbedTransport): Promise<TraceEvent[]> {
  const slow: HandlerProgram = { steps: [{ kind: 'sleep', ms: 1_500 }], end: { kind: 'result' }, onAbort: 'honour' };
  const fast: HandlerProgram = { steps: [], end: { kind: 'result' }, onAbort: 'honour' };
  const c1 = programCall('c1', slow);
  const c2 = { ...programCall('c2', fast), at: { kind: 'written', call: 'c1', ms: 300 } as const, sameIdAs: 'c1' };
  const run = await runPlan(endpointOf(bed, transport), { calls: [c1, c2], serverRequests: 'answer' }, { hangAfterMs: 2_000 });
  return run.trace;
}

/**
 * A handler that never ends (`hang`, honour), then the client's close: stdin EOF over stdio,
 * DELETE of the session over stateful HTTP. The whole run's trace, the close included.
 */
async function hangThenClose(bed: SdkTestbed, transport: SdkTestbedTransport): Promise<TraceEvent[]> {
  const hang: HandlerProgram = { steps: [], end: { kind: 'hang' }, onAbort: 'honour' };
  const run = await runPlan(endpointOf(bed, transport), { calls: [programCall('c1', hang)], serverRequests: 'answer' }, { hangAfterMs: 800 });
  return run.trace;
}

async function transcripts(bed: SdkTestbed, programs: readonly FixedProgram[], transport: SdkTestbedTransport) {
  const run = await runTestbedPrograms(bed, programs, { transport });
  return { run, transcripts: run.traces.map((t) => programTranscript(t)) };
}

describe('go-sdk releases: fixed programs on each pinned release, stdio and every HTTP mode (real time)', () => {
  it('testbed.json lists the releases pinned in testbeds/go/releases/, newest first', async () => {
    const { readdirSync } = await import('node:fs');
    const pinned = readdirSync('testbeds/go/releases').sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
    expect(releases).toEqual(pinned);
    expect(manifest.sdk.version).toBe(releases[0]);
  });

  for (const version of releases) {
    const bed = sdkTestbed('go', { version });
    if ('skipped' in bed) {
      it.skip(`go-sdk ${version}: skipped, ${bed.skipped}`, () => {});
      continue;
    }
    describe(`go-sdk ${version}`, () => {
      for (const transport of ['stdio', 'http-stateful-sse', 'http-stateful-json'] as const) {
        it(`${transport}: the frames and handler events of every fixed program`, async () => {
          const { run, transcripts: got } = await transcripts(bed, FIXED_PROGRAMS, transport);
          expect(got.map((t) => t.wire)).toEqual(FIXED_PROGRAMS.map((f) => STATEFUL_WIRE.get(f)));
          expect(got.map((t) => t.handler)).toEqual(FIXED_PROGRAMS.map((f) => STATEFUL_HANDLER.get(f)));
          // stdio: exits by itself at stdin EOF; HTTP: stopped by SIGTERM, as PROGRAM.md asks.
          expect(run.exit?.after).toBe(transport === 'stdio' ? 'eof' : 'sigterm');
          expect(run.exit?.code).toBe(0);
        }, 90_000);
      }

      for (const json of [false, true]) {
        const transport = json ? 'http-stateless-json' : 'http-stateless-sse';
        it(`${transport}: no server→client request${json ? ', no progress' : ''}; a cancel reaches no handler`, async () => {
          const programs = [PROGRESS, ERROR, ROOTS, ...(json ? [] : [STATELESS_CANCEL])];
          const { run, transcripts: got } = await transcripts(bed, programs, transport);
          const wire = statelessWire(json);
          expect(got.slice(0, 3).map((t) => t.wire)).toEqual([PROGRESS, ERROR, ROOTS].map((f) => wire.get(f)));
          expect(got.slice(0, 3).map((t) => t.handler)).toEqual([PROGRESS, ERROR, ROOTS].map((f) => STATEFUL_HANDLER.get(f)));
          if (!json) {
            const [cancelled] = got.slice(3);
            expect(cancelled!.wire).toEqual([CALL, ONE_OF_THREE, CANCEL, OK]);
            expect(cancelled!.handler).toEqual(['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'end c1 result']);
          }
          expect(run.exit?.after).toBe('sigterm');
        }, 90_000);
      }

      // The other fix between v1.6.1 and v1.7.0, over stdio: before it, stdin EOF neither cancels a running
      // handler nor lets Server.Run return while one runs, so the process never exits by itself
      // (lifecycle.stdio-exit; SIGTERM after the grace period).
      const eofCancels = atLeast(version, EOF_CANCELS_FROM);
      it(`stdio: stdin EOF with a handler that never ends: ${eofCancels ? 'the handler is cancelled (it reports the abort) and the process exits by itself' : 'no abort reaches the handler and the process does not exit (SIGTERM)'}`, async () => {
        const trace = await hangThenClose(bed, 'stdio');
        expect(sideChannel(trace)).toEqual(eofCancels ? ['handler-start c1', 'abort-observed c1', 'handler-end c1 aborted'] : ['handler-start c1']);
        expect(trace.find((e) => e.kind === 'exit')).toMatchObject(eofCancels ? { after: 'eof', code: 0 } : { after: 'sigterm', signal: 'SIGTERM' });
      }, 60_000);

      it('http-stateful-sse: DELETE of a session whose handler never ends gets no answer, and the handler is never cancelled (not even by SIGTERM)', async () => {
        const trace = await hangThenClose(bed, 'http-stateful-sse');
        const del = trace.find((e) => e.kind === 'http-request' && e.method === 'DELETE');
        expect(del).toBeDefined();
        expect(trace.some((e) => e.kind === 'http-response' && del?.kind === 'http-request' && e.exchange === del.exchange)).toBe(false);
        expect(sideChannel(trace)).toEqual(['handler-start c1']);
        expect(trace.find((e) => e.kind === 'exit')).toMatchObject({ after: 'sigterm', code: 0 });
      }, 60_000);

      const fixed = atLeast(version, DUPLICATE_ID_FIXED_IN);
      for (const transport of ['http-stateful-sse', 'http-stateful-json'] as const) {
        it(`${transport}: a POST reusing an in-flight id is ${fixed ? 'rejected (400, -32600) and the first call completes' : 'cross-wired: the first response goes to the second POST, the first POST never ends (go-sdk #1004)'}`, async () => {
          const trace = await duplicateIdRun(bed, transport);
          const first = postOf(trace, 'c1');
          const second = postOf(trace, 'c2');
          const result = (frames: unknown[]) => frames.filter((f) => isJsonObject(f) && 'result' in f);
          if (fixed) {
            expect(second.status).toBe(400);
            expect(second.frames).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: -32600 }) })]);
            expect(first.status).toBe(200);
            expect(result(first.frames)).toHaveLength(1);
          } else {
            expect(first.status).toBeUndefined();
            expect(second.status).toBe(200);
            expect(result(second.frames)).toEqual([expect.objectContaining({ result: { content: [{ type: 'text', text: 'ok' }] } })]);
          }
          // Either way only the first call's handler runs: the duplicate never reaches one.
          expect(sideChannel(trace)).toEqual(['handler-start c1', 'step c1', 'handler-end c1 result']);
        }, 60_000);
      }
    });
  }
});
