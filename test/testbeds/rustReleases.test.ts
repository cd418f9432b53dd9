import { describe, expect, it } from 'vitest';
import type { HandlerProgram } from '../../src/sim/scenario.ts';
import { DEFAULT_HANG_AFTER_MS, DEFAULT_IN_FLIGHT_MS, DEFAULT_PROCESS_GRACE_MS } from '../../src/options/defaults.ts';
import { runAndJudge } from '../../src/campaign/real/realCampaign.ts';
import { testbedKind } from '../../src/targets/testbed/kind.ts';
import { openTestbed } from '../../src/targets/testbed/open.ts';
import { runPlan } from '../../src/real/runPlan.ts';
import {
  programCall,
  programTranscript,
  runTestbedPrograms,
  sdkTestbed,
  sdkTestbedManifest,
  sdkTestbedReleases,
  endpointOf,
  withHandlerEvents,
  withoutKnownDifferences,
  type ProgramTranscript,
  type SdkTestbed,
  type SdkTestbedTransport,
  type TestbedProgram,
} from '../../src/targets/testbed/index.ts';
import { FIXED_PROGRAMS, type FixedProgram } from './fixedPrograms.ts';

/**
 * The Rust test bed (testbeds/rust, rmcp) on each pinned release, over stdio and each
 * Streamable HTTP mode: fixed scripted programs (no race), the frames each must put on the wire,
 * and the two fixed lifecycle bugs that tell the releases apart (docs/sdks/rust.md):
 * rust-sdk #957 (2.1.0 answers a cancelled request, fixed in 2.2.0) and #990 (2.x's stateless
 * JSON mode turns the first progress into the POST's JSON body and loses the response, fixed in
 * 3.0.0). Black box, real time. A release not installed shows as a skipped test saying how to
 * install it.
 */
const manifest = sdkTestbedManifest('rust')!;
const releases = sdkTestbedReleases(manifest).map((r) => r.version);

/** rust-sdk #957 (fixed in 2.2.0): the response of a cancelled request is still written. */
const answersCancelled = (v: string) => v === '2.1.0';
/** rust-sdk #990 (fixed in 3.0.0): stateless JSON mode answers with the first message, a progress, and drops the rest. */
const jsonLosesResponse = (v: string) => v.startsWith('2.');

// The frames, as programTranscript writes them after rmcp's named difference (SDK_DIFFERENCES:
// a server→client request's `_meta.progressToken`) is undone.
const call = (token?: string | number) => `→ {"id":"c1","method":"tools/call","params":{${token === undefined ? '' : `"_meta":{"progressToken":${JSON.stringify(token)}},`}"arguments":"<program>","name":"run"}}`;
const progress = (token: string | number, p: number, total?: number, message?: string) =>
  `← {"method":"notifications/progress","params":{${message ? `"message":"${message}",` : ''}"progress":${p},"progressToken":${JSON.stringify(token)}${total === undefined ? '' : `,"total":${total}`}}}`;
const OK = '← {"id":"c1","result":{"content":[{"text":"ok","type":"text"}]}}'; // `"isError": false` undone (SDK_DIFFERENCES)
const CANCEL = '→ {"method":"notifications/cancelled","params":{"reason":"mcp-sim cancelled the call","requestId":"c1"}}';
const CANCELLED_ERROR = '← {"error":{"code":-32603,"message":"cancelled"},"id":"c1"}';
// rmcp 3.x gives roots/list a `params` for its `_meta`; 2.x sends none.
const rootsList = (v: string) => (v.startsWith('2.') ? '← {"id":"s1","method":"roots/list"}' : '← {"id":"s1","method":"roots/list","params":{}}');
const SAMPLING = '← {"id":"s1","method":"sampling/createMessage","params":{"maxTokens":16,"messages":[{"content":{"text":"run","type":"text"},"role":"user"}]}}';
const SAMPLED = '→ {"id":"s1","result":{"content":{"text":"ok","type":"text"},"model":"mcp-sim","role":"assistant"}}';
const ELICIT = '← {"id":"s1","method":"elicitation/create","params":{"message":"run","mode":"form","requestedSchema":{"properties":{},"type":"object"}}}';
const DECLINED = '→ {"id":"s1","result":{"action":"decline"}}';

const byName = (name: string) => FIXED_PROGRAMS.find((f) => f.name === name)!;
const callStep = (method: string): FixedProgram => ({
  name: `a ${method} call answered`,
  program: { steps: [{ kind: 'call', method }], end: { kind: 'result' }, onAbort: 'honour' } as HandlerProgram,
  call: {},
});
const SAMPLING_CALL = callStep('sampling/createMessage');
const ELICITATION_CALL = callStep('elicitation/create');
/** A cancel the handler outlives within the run (1.5 s sleep): where the cancel is not delivered, its late frames show. */
const SHORT_CANCEL: FixedProgram = {
  name: 'a cancel after the first progress, 1.5 s sleep',
  program: { steps: [{ kind: 'progress', progress: 1, total: 3 }, { kind: 'sleep', ms: 1_500 }, { kind: 'progress', progress: 2, total: 3 }], end: { kind: 'result' }, onAbort: 'honour' } as HandlerProgram,
  call: { progressToken: 'p1', cancelAfterProgress: { n: 1, ms: 200 } },
};

/** What each program must show on a release (stdio and stateful SSE): its wire lines and handler events. */
function expected(v: string): Map<string, ProgramTranscript> {
  return new Map<string, ProgramTranscript>([
    ['progress steps then a result', { wire: [call('p1'), progress('p1', 1, 2, 'half'), progress('p1', 2, 2), OK], handler: ['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'step c1 #2 progress', 'end c1 result'] }],
    ['an error end', { wire: [call(), '← {"error":{"code":-32000,"message":"scripted failure"},"id":"c1"}'], handler: ['start c1', 'step c1 #0 sleep', 'end c1 error'] }],
    ['a roots/list call answered, then progress', { wire: [call(7), rootsList(v), '→ {"id":"s1","result":{"roots":[]}}', progress(7, 1), OK], handler: ['start c1', 'step c1 #0 call', 'step c1 #1 progress', 'end c1 result'] }],
    [
      'a cancel after the first progress, honoured',
      { wire: [call('p1'), progress('p1', 1, 3), CANCEL, ...(answersCancelled(v) ? [CANCELLED_ERROR] : [])], handler: ['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'abort observed c1', 'end c1 aborted'] },
    ],
    [
      'a cancel after the first progress, swallowed',
      { wire: [call('p1'), progress('p1', 1, 3), CANCEL, ...(answersCancelled(v) ? [OK] : [])], handler: ['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'abort observed c1', 'end c1 swallowed'] },
    ],
    [SAMPLING_CALL.name, { wire: [call(), SAMPLING, SAMPLED, OK], handler: ['start c1', 'step c1 #0 call', 'end c1 result'] }],
    [ELICITATION_CALL.name, { wire: [call(), ELICIT, DECLINED, OK], handler: ['start c1', 'step c1 #0 call', 'end c1 result'] }],
  ]);
}

/** Runs `programs` on one process of the release, and gives each one's transcript with rmcp's named difference undone. */
async function transcripts(bed: SdkTestbed, programs: readonly FixedProgram[], transport: SdkTestbedTransport) {
  const run = await runTestbedPrograms(bed, programs as readonly TestbedProgram[], { transport });
  const out = programs.map((f, n) => {
    const t = programTranscript(run.traces[n]!);
    return { program: f.name, wire: withoutKnownDifferences('rust', t.wire).wire, handler: t.handler };
  });
  return { out, run };
}

const STDIO_PROGRAMS = [...FIXED_PROGRAMS, SAMPLING_CALL, ELICITATION_CALL];

describe('rust test bed across rmcp releases (real time)', () => {
  it('testbed.json lists the releases newest first and the HTTP modes rmcp offers (no stateful-json)', () => {
    expect(releases).toEqual(['3.11.0', '3.0.0', '2.2.0', '2.1.0']);
    expect(manifest.http?.modes).toEqual(['stateful-sse', 'stateless-sse', 'stateless-json']);
  });

  for (const version of releases) {
    const bed = sdkTestbed('rust', { version });
    if ('skipped' in bed) {
      it.skip(`rmcp ${version}: skipped, ${bed.skipped}`, () => {});
      continue;
    }
    const want = expected(version);

    it(`rmcp ${version} over stdio: each fixed program's frames and handler events${answersCancelled(version) ? ' (the cancelled call answered: rust-sdk #957)' : ''}; exit at stdin EOF`, async () => {
      const { out, run } = await transcripts(bed, STDIO_PROGRAMS, 'stdio');
      expect(out).toEqual(STDIO_PROGRAMS.map((f) => ({ program: f.name, ...want.get(f.name)! })));
      expect(run.exit?.after).toBe('eof');
    }, 60_000);

    // The high layer (#[tool_router]/#[tool], a Parameters<RunArgs> input): the same program, so the same frames and events.
    const high = sdkTestbed('rust', { version, layer: 'high' });
    it.skipIf('skipped' in high)(`rmcp ${version} over stdio, high layer (#[tool] macros): the same frames and handler events as the low layer; exit at stdin EOF`, async () => {
      const { out, run } = await transcripts(high as SdkTestbed, STDIO_PROGRAMS, 'stdio');
      expect(out).toEqual(STDIO_PROGRAMS.map((f) => ({ program: f.name, ...want.get(f.name)! })));
      expect(run.exit?.after).toBe('eof');
      // It is the macros' server: `run`'s input schema is the one schemars derives from RunArgs (`call` a property), not the low layer's own.
      const schemaOf = async (b: SdkTestbed) => (await runPlan(endpointOf(b), { calls: [], serverRequests: 'answer' }, { tailMs: 0 })).tools.find((t) => t.name === 'run')?.inputSchema;
      expect(await schemaOf(high as SdkTestbed)).toMatchObject({ properties: { call: {}, program: {} }, required: ['program'] });
      expect(await schemaOf(bed)).toEqual({ type: 'object', properties: { program: { type: 'object' } }, required: ['program'] });
    }, 60_000);

    it(`rmcp ${version} over stdio: a call step's timeoutMs is rmcp's request timeout (a cancel sent to the client, the late answer dropped, the handler goes on)`, async () => {
      const program = { steps: [{ kind: 'call', method: 'sampling/createMessage', timeoutMs: 1 }, { kind: 'progress', progress: 1 }], end: { kind: 'result' }, onAbort: 'honour' } as HandlerProgram;
      // The client answers 200 ms late, so a 1 ms timeout always expires first (no race).
      const run = await runPlan(endpointOf(bed), { calls: [programCall('c1', program, { progressToken: 'p1' })], serverRequests: 'late' });
      const t = programTranscript(withHandlerEvents(run.trace, () => program));
      expect(withoutKnownDifferences('rust', t.wire).wire).toEqual([
        call('p1'),
        SAMPLING,
        '← {"method":"notifications/cancelled","params":{"reason":"request timeout","requestId":"s1"}}',
        progress('p1', 1),
        OK,
        SAMPLED,
      ]);
      expect(t.handler).toEqual(['start c1', 'step c1 #0 call', 'step c1 #1 progress', 'end c1 result']);
    }, 30_000);

    it(`rmcp ${version} over http-stateful-sse: the same frames and handler events as over stdio`, async () => {
      const { out } = await transcripts(bed, STDIO_PROGRAMS, 'http-stateful-sse');
      expect(out).toEqual(STDIO_PROGRAMS.map((f) => ({ program: f.name, ...want.get(f.name)! })));
    }, 60_000);

    for (const mode of ['stateless-sse', 'stateless-json'] as const) {
      const losesResponse = mode === 'stateless-json' && jsonLosesResponse(version);
      it(`rmcp ${version} over http-${mode}: ${losesResponse ? 'the first progress becomes the JSON body and the response is lost (rust-sdk #990); ' : ''}a cancel, and the answer to a server request, never reach the handler (no session to route them)`, async () => {
        // The cancel last: where the response is lost, the run ends before the handler does.
        const programs = [byName('progress steps then a result'), byName('an error end'), SAMPLING_CALL, SHORT_CANCEL];
        const { out } = await transcripts(bed, programs, `http-${mode}`);
        const [progressed, errored, sampled, cancelled] = out;
        const ran = want.get('progress steps then a result')!;
        expect(progressed).toEqual({ program: programs[0]!.name, wire: losesResponse ? ran.wire.slice(0, 2) : ran.wire, handler: ran.handler });
        expect(errored).toEqual({ program: programs[1]!.name, ...want.get('an error end')! });
        // The cancel is POSTed apart and answered 202, but reaches a new stateless service, not
        // the handler: it runs on, sends its progress after the cancel, and its result is written.
        expect(cancelled).toEqual({
          program: SHORT_CANCEL.name,
          wire: losesResponse ? [call('p1'), progress('p1', 1, 3), CANCEL] : [call('p1'), progress('p1', 1, 3), CANCEL, progress('p1', 2, 3), OK],
          handler: ['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', ...(losesResponse ? [] : ['step c1 #2 progress', 'end c1 result'])],
        });
        // The client's answer to sampling/createMessage is POSTed apart too: the handler waits on.
        expect(sampled).toEqual({ program: SAMPLING_CALL.name, wire: [call(), SAMPLING, SAMPLED], handler: ['start c1', 'step c1 #0 call'] });
      }, 60_000);
    }
  }

  /** fuzz's own case (run, the black-box oracle, the counterfactual run without the cancel where a result crossed it): the invariants it finds. */
  const oracle = async (bed: SdkTestbed, transport: SdkTestbedTransport, f: FixedProgram) => {
    const bounds = { hangAfterMs: DEFAULT_HANG_AFTER_MS, inFlightMs: DEFAULT_IN_FLIGHT_MS, graceMs: DEFAULT_PROCESS_GRACE_MS };
    const target = await openTestbed({ kind: 'testbed', language: 'rust', release: bed.version, layer: bed.layer, ...(transport !== 'stdio' && { transport }) }, { graceMs: bounds.graceMs }, testbedKind.argumentOf);
    return (await runAndJudge(target, { calls: [programCall('c1', f.program, f.call)], serverRequests: 'answer', layer: bed.layer }, bounds)).findings.map((x) => x.invariant);
  };
  /** The swallowed cancel with a sleep the counterfactual finishes within the hang bound, so the oracle can tell the result did not cross the cancel. */
  const SWALLOWED_SHORT: FixedProgram = { ...SHORT_CANCEL, name: 'a cancel after the first progress, swallowed, 1.5 s sleep', program: { ...SHORT_CANCEL.program, onAbort: 'swallow' } };

  const [v957bad, v957good] = [sdkTestbed('rust', { version: '2.1.0' }), sdkTestbed('rust', { version: '2.2.0' })];
  it.skipIf('skipped' in v957bad || 'skipped' in v957good)('rust-sdk #957: 2.1.0 writes the cancelled call\'s response (its error when honoured, its result when swallowed: cancel.no-response-after), 2.2.0 writes nothing after the cancel', async () => {
    const cancelled = [byName('a cancel after the first progress, honoured'), byName('a cancel after the first progress, swallowed')];
    const [bad, good] = await Promise.all([v957bad, v957good].map((bed) => transcripts(bed as SdkTestbed, cancelled, 'stdio')));
    expect(bad!.out.map((t) => t.wire.slice(0, -1))).toEqual(good!.out.map((t) => t.wire));
    expect(bad!.out.map((t) => t.wire.at(-1))).toEqual([CANCELLED_ERROR, OK]);
    expect(good!.out.map((t) => t.wire.at(-1))).toEqual([CANCEL, CANCEL]);
    expect(bad!.out.map((t) => t.handler)).toEqual(good!.out.map((t) => t.handler));
    // The oracle names it where the handler returned a result (an error after a cancel it reports as the SDK's policy).
    const [badFound, goodFound] = await Promise.all([v957bad, v957good].map((bed) => oracle(bed as SdkTestbed, 'stdio', SWALLOWED_SHORT)));
    expect(badFound).toEqual(['cancel.no-response-after']);
    expect(goodFound).toEqual([]);
  }, 60_000);

  const [v990bad, v990good] = [sdkTestbed('rust', { version: '2.2.0' }), sdkTestbed('rust', { version: '3.0.0' })];
  it.skipIf('skipped' in v990bad || 'skipped' in v990good)('rust-sdk #990: over http-stateless-json, 2.2.0 answers the POST with the first progress and the call never settles (liveness.call-settles), 3.0.0 sends it all on an SSE stream', async () => {
    const progressed = byName('progress steps then a result');
    const [bad, good] = await Promise.all([v990bad, v990good].map((bed) => transcripts(bed as SdkTestbed, [progressed], 'http-stateless-json')));
    const response = (run: typeof bad) => run!.run.traces[0]!.filter((e) => e.kind === 'http-response').at(-1);
    expect(response(bad)).toMatchObject({ status: 200, contentType: 'application/json' });
    expect(response(good)).toMatchObject({ status: 200, contentType: 'text/event-stream' });
    expect(bad!.out[0]!.wire).toEqual(good!.out[0]!.wire.slice(0, 2));
    const [badFound, goodFound] = await Promise.all([v990bad, v990good].map((bed) => oracle(bed as SdkTestbed, 'http-stateless-json', progressed)));
    expect(badFound).toEqual(['liveness.call-settles']);
    expect(goodFound).toEqual([]);
  }, 60_000);
});
