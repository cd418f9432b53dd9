import { describe, expect, it } from 'vitest';
import type { HandlerProgram } from '../../src/sim/scenario.ts';
import {
  programTranscript,
  runTestbedPrograms,
  sdkTestbed,
  sdkTestbedManifest,
  sdkTestbedReleases,
  type ProgramTranscript,
  type SdkTestbed,
  type SdkTestbedTransport,
  type TestbedProgram,
  type TestbedProgramsOptions,
} from '../../src/targets/testbed/index.ts';
import { FIXED_PROGRAMS } from './fixedPrograms.ts';

/**
 * The Python test bed on every pinned release of `mcp` (testbeds/python/testbed.json), over stdio
 * and each Streamable HTTP mode: fixed programs (no race) whose frames are asserted exactly, and
 * the three lifecycle differences between releases that `bisect --target python` must find
 * (docs/sdks/python.md):
 *
 * - a cancelled request is answered with `{"code":0,"message":"Request cancelled"}` up to 1.30.0,
 *   not from 2.0.0 on (python-sdk #3188; cancel.no-response-after);
 * - a handler that swallows the cancel and returns crashes the 1.x server process
 *   (`AssertionError: Request already responded to`, python-sdk #2416, open on the v1.x line),
 *   not 2.x (lifecycle.stdio-exit, cancel.race-graceful);
 * - stdin EOF with a handler in flight leaves 1.26.0 running until SIGTERM, 1.27.0 exits
 *   (python-sdk #2334, the v1.x backport of #2306; lifecycle.stdio-exit).
 *
 * Black box, real time. A release that is not installed shows as a skipped test that says how
 * to install it.
 */

const manifest = sdkTestbedManifest('python');
const releases = manifest ? sdkTestbedReleases(manifest).map((r) => r.version) : [];

/** What each pinned release does where the releases differ; a release listed in testbed.json must be here. */
interface ReleaseBehaviour {
  /** The frame a cancelled request gets over stdio (undefined: none, as the spec asks). */
  readonly cancelAnswer: string | undefined;
  /** Over 2025-era stateful Streamable HTTP (2.x answers -32800 there on purpose, see #3188). */
  readonly cancelAnswerHttp: string;
  /** A swallowed cancel crashes the process (1.x: the late result hits the responder's assert). */
  readonly crashesOnSwallow: boolean;
  /** How the process ends when stdin closes with a handler still running. */
  readonly eofWithHandlerInFlight: 'eof' | 'sigterm';
  /** Every server→client request carries `"_meta": {}` in its params (2.0.0 only). */
  readonly emptyMeta: boolean;
  /**
   * A server request in stateless HTTP mode: `refused` (the SDK fails the call at once: there is no
   * session to answer on) or `stranded` (1.x writes it on the POST's stream; the client's answer,
   * its own POST, reaches a fresh server instance, which drops it, so the handler waits forever).
   */
  readonly statelessServerRequest: 'refused' | 'stranded';
}

const V1_CANCEL = '← {"error":{"code":0,"message":"Request cancelled"},"id":"c1"}';
const V2_HTTP_CANCEL = '← {"error":{"code":-32800,"message":"Request cancelled"},"id":"c1"}';
const v1 = (eof: 'eof' | 'sigterm'): ReleaseBehaviour => ({ cancelAnswer: V1_CANCEL, cancelAnswerHttp: V1_CANCEL, crashesOnSwallow: true, eofWithHandlerInFlight: eof, emptyMeta: false, statelessServerRequest: 'stranded' });

const BEHAVIOUR: Readonly<Record<string, ReleaseBehaviour>> = {
  '2.3.0': { cancelAnswer: undefined, cancelAnswerHttp: V2_HTTP_CANCEL, crashesOnSwallow: false, eofWithHandlerInFlight: 'eof', emptyMeta: false, statelessServerRequest: 'refused' },
  '2.0.0': { cancelAnswer: undefined, cancelAnswerHttp: V2_HTTP_CANCEL, crashesOnSwallow: false, eofWithHandlerInFlight: 'eof', emptyMeta: true, statelessServerRequest: 'refused' },
  '1.30.0': v1('eof'),
  '1.27.0': v1('eof'),
  '1.26.0': v1('sigterm'),
};

const fixed = (name: string) => FIXED_PROGRAMS.find((f) => f.name === name)!;
const PROGRESS = fixed('progress steps then a result');
const ERROR = fixed('an error end');
const ROOTS_CALL = fixed('a roots/list call answered, then progress');
const HONOURED = fixed('a cancel after the first progress, honoured');
const SWALLOWED = fixed('a cancel after the first progress, swallowed');
/** The other two server requests a call step sends (the test bed's `call` steps), then progress. */
const SAMPLING_ELICITATION: TestbedProgram = {
  program: { steps: [{ kind: 'call', method: 'sampling/createMessage', timeoutMs: 5_000 }, { kind: 'call', method: 'elicitation/create' }, { kind: 'progress', progress: 1 }], end: { kind: 'result' }, onAbort: 'honour' },
  call: { progressToken: 'q' },
};
/** A handler still running when the client closes: one progress (so the run knows it started), then no end. */
const IN_FLIGHT: TestbedProgram = { program: { steps: [{ kind: 'progress', progress: 1 }], end: { kind: 'hang' }, onAbort: 'honour' }, call: { progressToken: 'h' } };
/** A cancel that stateless HTTP cannot deliver: the sleep is short enough for the result to land within the run's tail. */
const STATELESS_CANCEL: TestbedProgram = {
  program: { steps: [{ kind: 'progress', progress: 1 }, { kind: 'sleep', ms: 1_500 }], end: { kind: 'result' }, onAbort: 'honour' } satisfies HandlerProgram,
  call: { progressToken: 'p1', cancelAfterProgress: { n: 1, ms: 200 } },
};

const call = (token?: string | number) => `→ {"id":"c1","method":"tools/call","params":{${token === undefined ? '' : `"_meta":{"progressToken":${JSON.stringify(token)}},`}"arguments":"<program>","name":"run"}}`;
const progress = (p: number, token: string | number, extra: { total?: number; message?: string } = {}) =>
  `← {"method":"notifications/progress","params":{${extra.message ? `"message":${JSON.stringify(extra.message)},` : ''}"progress":${p},"progressToken":${JSON.stringify(token)}${extra.total === undefined ? '' : `,"total":${extra.total}`}}}`;
const RESULT = '← {"id":"c1","result":{"content":[{"text":"ok","type":"text"}],"isError":false}}';
const CANCEL = '→ {"method":"notifications/cancelled","params":{"reason":"mcp-sim cancelled the call","requestId":"c1"}}';
const ERROR_FRAME = '← {"error":{"code":-32000,"message":"scripted failure"},"id":"c1"}';

/** A server request as `b` writes it: `params` (canonical JSON, keys sorted) with `"_meta":{}` first where it adds that. */
const serverRequest = (b: ReleaseBehaviour, id: string, method: string, params?: string) => {
  const body = b.emptyMeta ? (params === undefined ? '{"_meta":{}}' : `{"_meta":{},${params.slice(1)}`) : params;
  return `← {"id":"${id}","method":"${method}"${body === undefined ? '' : `,"params":${body}`}}`;
};

/** The frames of the first three fixed programs over a transport that streams (stdio, SSE). */
const streamed = (b: ReleaseBehaviour) => ({
  progress: [call('p1'), progress(1, 'p1', { total: 2, message: 'half' }), progress(2, 'p1', { total: 2 }), RESULT],
  error: [call(), ERROR_FRAME],
  roots: [call(7), serverRequest(b, 's1', 'roots/list'), '→ {"id":"s1","result":{"roots":[]}}', progress(1, 7), RESULT],
});

/** Longer than the default tail: a 1.x answer to a cancel comes late on a loaded machine, and must land in its own program's slice. */
const TAIL_MS = 1_500;

async function run(bed: SdkTestbed, programs: readonly TestbedProgram[], options: TestbedProgramsOptions = {}) {
  const out = await runTestbedPrograms(bed, programs, { tailMs: TAIL_MS, ...options });
  return { ...out, transcripts: out.traces.map((t): ProgramTranscript => programTranscript(t)), stderr: out.traces.flat().flatMap((e) => (e.kind === 'stderr' ? [e.text] : [])).join('') };
}

describe('python test bed across releases of mcp (black box, real time)', () => {
  it('every release testbed.json lists has its expected behaviour here', () => {
    expect(releases.length).toBeGreaterThanOrEqual(2);
    expect(releases.filter((v) => !(v in BEHAVIOUR))).toEqual([]);
  });

  for (const version of releases) {
    const bed = sdkTestbed('python', { version });
    if ('skipped' in bed) {
      // sdkTestbed's hint names the install command without the release: add it.
      it.skip(`mcp ${version}: skipped, ${bed.skipped}, with MCP_SIM_SDK_VERSION=${version}`, () => {});
      continue;
    }
    const b = BEHAVIOUR[version]!;
    describe(`mcp ${version}`, () => {
      it('stdio: progress, an error end, server requests, a cancel honoured; exits at stdin EOF', async () => {
        const r = await run(bed, [PROGRESS, ERROR, ROOTS_CALL, SAMPLING_ELICITATION, HONOURED]);
        const [p, e, roots, sampling, cancel] = r.transcripts;
        expect(sampling!.wire).toEqual([
          call('q'),
          serverRequest(b, 's1', 'sampling/createMessage', '{"maxTokens":16,"messages":[{"content":{"text":"run","type":"text"},"role":"user"}]}'),
          '→ {"id":"s1","result":{"content":{"text":"ok","type":"text"},"model":"mcp-sim","role":"assistant"}}',
          serverRequest(b, 's2', 'elicitation/create', '{"message":"run","mode":"form","requestedSchema":{"properties":{},"type":"object"}}'),
          '→ {"id":"s2","result":{"action":"decline"}}',
          progress(1, 'q'),
          RESULT,
        ]);
        const want = streamed(b);
        expect(p!.wire).toEqual(want.progress);
        expect(e!.wire).toEqual(want.error);
        expect(roots!.wire).toEqual(want.roots);
        expect(cancel!.wire).toEqual([call('p1'), progress(1, 'p1', { total: 3 }), CANCEL, ...(b.cancelAnswer ? [b.cancelAnswer] : [])]);
        expect(cancel!.handler).toEqual(['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'abort observed c1', 'end c1 aborted']);
        expect(r.exit?.after).toBe('eof');
      });

      it(`stdio: a swallowed cancel ${b.crashesOnSwallow ? 'crashes the process (AssertionError: Request already responded to)' : 'is not answered, and the session goes on'}`, async () => {
        const r = await run(bed, [SWALLOWED, PROGRESS]);
        const [swallowed, next] = r.transcripts;
        expect(swallowed!.handler).toEqual(['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'abort observed c1', 'end c1 swallowed']);
        if (b.crashesOnSwallow) {
          // cancel() answered the request, then the handler's late result hit respond()'s assert, in
          // the server's task group: the whole process dies before stdin is closed.
          // Whether cancel()'s own error answer still reaches stdout is a race with the crash
          // (it cancels the writer task): seen both ways. Nothing else comes from the server.
          expect(swallowed!.wire.slice(0, 3)).toEqual([call('p1'), progress(1, 'p1', { total: 3 }), CANCEL]);
          const fromServer = [...swallowed!.wire.slice(3), ...next!.wire].filter((l) => l.startsWith('←'));
          expect(fromServer.filter((l) => l !== V1_CANCEL)).toEqual([]);
          expect(r.stderr).toContain('AssertionError: Request already responded to');
          expect(r.exit).toMatchObject({ code: 1, after: 'before-eof' });
        } else {
          expect(swallowed!.wire).toEqual([call('p1'), progress(1, 'p1', { total: 3 }), CANCEL]);
          expect(next!.wire).toEqual(streamed(b).progress);
          expect(r.exit).toMatchObject({ code: 0, after: 'eof' });
        }
      });

      it(`stdio: stdin EOF with a handler in flight: ${b.eofWithHandlerInFlight === 'eof' ? 'exits by itself' : 'keeps running until SIGTERM'}`, async () => {
        const r = await run(bed, [IN_FLIGHT], { hangAfterMs: 1_000, tailMs: 200 });
        expect(r.transcripts[0]!.wire).toEqual([call('h'), progress(1, 'h')]);
        expect(r.exit?.after).toBe(b.eofWithHandlerInFlight);
      });

      it('http-stateful-sse: the same frames as stdio; a cancel is answered', async () => {
        const r = await run(bed, [PROGRESS, ERROR, ROOTS_CALL, HONOURED], { transport: 'http-stateful-sse' });
        const [p, e, roots, cancel] = r.transcripts;
        const want = streamed(b);
        expect(p!.wire).toEqual(want.progress);
        expect(e!.wire).toEqual(want.error);
        expect(roots!.wire).toEqual(want.roots);
        expect(cancel!.wire).toEqual([call('p1'), progress(1, 'p1', { total: 3 }), CANCEL, b.cancelAnswerHttp]);
        expect(cancel!.handler.at(-1)).toBe('end c1 aborted');
      });

      it(`http-stateless-sse: progress and errors as stdio; a server request ${b.statelessServerRequest}; a cancel never reaches the handler`, async () => {
        const r = await run(bed, [PROGRESS, ERROR, ROOTS_CALL, STATELESS_CANCEL], { transport: 'http-stateless-sse' });
        const [p, e, roots, cancel] = r.transcripts;
        expect(p!.wire).toEqual(streamed(b).progress);
        expect(e!.wire).toEqual(streamed(b).error);
        if (b.statelessServerRequest === 'refused') {
          // No session to send a server request on: the call step fails at once, the handler goes on.
          expect(roots!.wire).toEqual([call(7), progress(1, 7), RESULT]);
        } else {
          // Answered, but on a POST of its own that a fresh instance drops: the call's POST stays open.
          expect(roots!.wire).toEqual([call(7), serverRequest(b, 's1', 'roots/list'), '→ {"id":"s1","result":{"roots":[]}}']);
          expect(roots!.handler).toEqual(['start c1', 'step c1 #0 call']);
          expect(r.stderr).toContain('Received response with an unknown request ID');
        }
        // The cancel is its own POST, served by a fresh server instance that has no such request.
        expect(cancel!.wire).toEqual([call('p1'), progress(1, 'p1'), CANCEL, RESULT]);
        expect(cancel!.handler).toEqual(['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'end c1 result']);
      });

      for (const transport of ['http-stateful-json', 'http-stateless-json'] as const satisfies readonly SdkTestbedTransport[]) {
        it(`${transport}: one JSON body per request, so progress is not sent; errors as stdio`, async () => {
          const r = await run(bed, [PROGRESS, ERROR], { transport });
          const [p, e] = r.transcripts;
          expect(p!.wire).toEqual([call('p1'), RESULT]);
          expect(p!.handler).toEqual(['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'step c1 #2 progress', 'end c1 result']);
          expect(e!.wire).toEqual(streamed(b).error);
        });
      }
    });
  }
});
