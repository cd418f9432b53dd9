import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judgeObserved } from '../../src/model/judgeObserved.ts';
import { DEFAULT_IN_FLIGHT_MS, DEFAULT_PROCESS_GRACE_MS } from '../../src/options/defaults.ts';
import {
  HTTP_MODES,
  installSdkTestbed,
  programTranscript,
  runTestbedPrograms,
  sdkTestbed,
  sdkTestbedManifest,
  sdkTestbedReleases,
  type ProgramCallOptions,
  type SdkTestbedTransport,
  type TestbedProgram,
} from '../../src/targets/testbed/index.ts';
import type { HandlerProgram } from '../../src/sim/scenario.ts';
import { canonicalJson } from '../../src/util/json.ts';
import { FIXED_PROGRAMS } from './fixedPrograms.ts';

/**
 * The TypeScript SDK test bed on every release testbed.json pins (1.x and the 2.x split
 * packages), over stdio and each Streamable HTTP mode: fixed programs (no race) and the frames
 * each must put on the wire, and the lifecycle fix the pins straddle (testbeds/typescript/
 * lifecycle-fix.json): a handler that ignores its cancel sends progress after the cancel on
 * 1.25.3 and 2.4.0, not on 1.26.0 and later 1.x. Black box, real time; a release that is not
 * installed is a skipped test naming its install command.
 */

interface LifecycleFix {
  readonly invariant: string;
  readonly bad: string;
  readonly good: string;
  readonly badToo: readonly string[];
  readonly transports: readonly SdkTestbedTransport[];
  readonly program: HandlerProgram;
  readonly call: ProgramCallOptions;
}
const FIX = JSON.parse(readFileSync('testbeds/typescript/lifecycle-fix.json', 'utf8')) as LifecycleFix;
const releases = sdkTestbedReleases(sdkTestbedManifest('typescript')!).map((r) => r.version);
/** The releases whose aborted handler still puts its progress on the wire. */
const SENDS_AFTER_ABORT = new Set([FIX.bad, ...FIX.badToo]);

/** How long each program's run watches after its call settled or was cancelled: the late progress comes about 400 ms after the cancel. */
const TAIL_MS = 1_000;
/** How long a call is waited for before it is left: generous, as on a loaded machine a POST can take seconds. */
const HANG_AFTER_MS = 6_000;

const named = (name: string) => FIXED_PROGRAMS.find((f) => f.name === name)!;
const PROGRESS = named('progress steps then a result');
const ERROR = named('an error end');
/** A roots/list call with a `timeoutMs`, so a transport that cannot carry the answer back ends the call within the run. */
const ROOTS: TestbedProgram = {
  program: { steps: [{ kind: 'call', method: 'roots/list', timeoutMs: 1_000 }, { kind: 'progress', progress: 1 }], end: { kind: 'result' }, onAbort: 'honour' },
  call: { progressToken: 7 },
};
/** The honoured cancel, with a sleep short enough that a handler the cancel never reaches ends within the run. */
const CANCEL: TestbedProgram = { program: { ...FIX.program, onAbort: 'honour' }, call: FIX.call };
const LATE: TestbedProgram = { program: FIX.program, call: FIX.call };

const CALL = (token?: string | number) =>
  `→ {"id":"c1","method":"tools/call","params":{${token === undefined ? '' : `"_meta":{"progressToken":${JSON.stringify(token)}},`}"arguments":"<program>","name":"run"}}`;
const RESULT = '← {"id":"c1","result":{"content":[{"text":"ok","type":"text"}]}}';
const CANCELLED = '→ {"method":"notifications/cancelled","params":{"reason":"mcp-sim cancelled the call","requestId":"c1"}}';
const progress = (progressToken: string | number, p: number, more: { readonly total?: number; readonly message?: string } = {}) =>
  `← ${canonicalJson({ method: 'notifications/progress', params: { progressToken, progress: p, ...more } })}`;

type Run = { wire: string[]; handler: string[]; findings: string[] };

const transports: SdkTestbedTransport[] = ['stdio', ...HTTP_MODES.map((m) => `http-${m}` as const)];

describe('typescript test bed across releases (stdio and every Streamable HTTP mode, real time)', () => {
  for (const version of releases) {
    const bed = sdkTestbed('typescript', { version });
    if ('skipped' in bed) {
      it.skip(`${version}: skipped, ${bed.skipped}`, () => {});
      continue;
    }
    const v1 = version.startsWith('1.');
    for (const transport of transports) {
      const json = transport.endsWith('-json');
      const stateless = transport.includes('stateless');
      if (json) {
        it.skip(`${version} ${transport}: the cancel programs not run, a JSON response carries no progress for cancelAfterProgress to wait for`, () => {});
      }
      it(`${version} ${transport}: the fixed programs' frames${json ? '' : `; a handler that ignores its cancel ${SENDS_AFTER_ABORT.has(version) || stateless ? 'sends' : 'sends no'} progress after it`}`, async () => {
        const programs = json ? [PROGRESS, ERROR, ROOTS] : [PROGRESS, ERROR, ROOTS, CANCEL, LATE];
        const run = await runTestbedPrograms(bed, programs, { transport, tailMs: TAIL_MS, hangAfterMs: HANG_AFTER_MS });
        const [progressRun, errorRun, rootsRun, cancelRun, lateRun] = run.traces.map((trace): Run => ({
          ...programTranscript(trace),
          findings: judgeObserved(trace, { clock: { kind: 'real', inFlightMs: DEFAULT_IN_FLIGHT_MS, hangAfterMs: HANG_AFTER_MS, graceMs: DEFAULT_PROCESS_GRACE_MS } }).findings.map((f) => f.invariant),
        }));
        // stdio exits by itself at stdin EOF; an HTTP server runs until mcp-sim's SIGTERM.
        expect(run.exit?.after).toBe(transport === 'stdio' ? 'eof' : 'sigterm');

        // Progress then a result: a JSON response mode carries only the response.
        const both = [progress('p1', 1, { total: 2, message: 'half' }), progress('p1', 2, { total: 2 })];
        expect(progressRun!.wire, 'progress program').toEqual([CALL('p1'), ...(json ? [] : both), RESULT]);
        expect(progressRun!.handler, 'progress program, side channel').toEqual(['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'step c1 #2 progress', 'end c1 result']);

        // An error end: 1.x's McpError puts its code before the message; 2.x's ProtocolError does not.
        expect(errorRun!.wire, 'error program').toEqual([CALL(), `← {"error":{"code":-32000,"message":"${v1 ? 'MCP error -32000: ' : ''}scripted failure"},"id":"c1"}`]);

        // A roots/list call: answered over stdio and a stateful SSE session; stateless, the answer
        // goes in a new POST to a new server, so the call times out (the SDK cancels it); a JSON
        // response has no stream for the request, so the client never sees it.
        const asked = ['← {"id":"s1","method":"roots/list","params":{}}', '→ {"id":"s1","result":{"roots":[]}}'];
        if (json) expect(rootsRun!.wire, 'roots program').toEqual([CALL(7), RESULT]);
        else if (stateless) {
          expect(rootsRun!.wire, 'roots program').toEqual([CALL(7), ...asked, expect.stringMatching(/^← \{"method":"notifications\/cancelled","params":\{"reason":"[^"]*timed out","requestId":"s1"\}\}$/), progress(7, 1), RESULT]);
        } else expect(rootsRun!.wire, 'roots program').toEqual([CALL(7), ...asked, progress(7, 1), RESULT]);
        expect(rootsRun!.handler, 'roots program, side channel').toEqual(['start c1', 'step c1 #0 call', 'step c1 #1 progress', 'end c1 result']);
        if (json) return;

        // An honoured cancel: aborted, nothing after it. Stateless, the cancel's POST reaches a
        // fresh server, never the handler: it runs on and answers.
        if (stateless) {
          expect(cancelRun!.wire, 'cancel program').toEqual([CALL('p1'), progress('p1', 1, { total: 3 }), CANCELLED, progress('p1', 2, { total: 3 }), RESULT]);
          expect(cancelRun!.handler, 'cancel program, side channel').toEqual(['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'step c1 #2 progress', 'end c1 result']);
          expect(cancelRun!.findings).toEqual(expect.arrayContaining(['progress.after-cancel', 'cancel.no-response-after']));
        } else {
          expect(cancelRun!.wire, 'cancel program').toEqual([CALL('p1'), progress('p1', 1, { total: 3 }), CANCELLED]);
          expect(cancelRun!.handler, 'cancel program, side channel').toEqual(['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', 'abort observed c1', 'end c1 aborted']);
          expect(cancelRun!.findings).not.toContain('progress.after-cancel');
        }
        // The cancelled request's POST never ends (docs/findings.md §1), on every release.
        if (transport === 'http-stateful-sse') expect(cancelRun!.findings).toContain('http.exchange-completes');

        // The lifecycle fix: the handler ignores its abort and sends progress 2 after the cancel.
        // 1.26.0 drops an aborted request's notifications; 1.25.3 and 2.4.0 send it.
        const sends = SENDS_AFTER_ABORT.has(version) || stateless;
        expect(lateRun!.wire, 'late program').toEqual([CALL('p1'), progress('p1', 1, { total: 3 }), CANCELLED, ...(sends ? [progress('p1', 2, { total: 3 })] : []), ...(stateless ? [RESULT] : [])]);
        expect(lateRun!.handler, 'late program, side channel').toEqual(['start c1', 'step c1 #0 progress', 'step c1 #1 sleep', ...(stateless ? [] : ['abort observed c1']), 'step c1 #2 progress', 'end c1 result']);
        if (sends) expect(lateRun!.findings).toContain(FIX.invariant);
        else expect(lateRun!.findings).not.toContain(FIX.invariant);
      }, 90_000);
    }
  }

  it('install.sh: a version npm does not have exits 4 naming it; an installed release is cached (idempotent)', async () => {
    const unknown = await installSdkTestbed('typescript', { version: '9.9.9' });
    expect(unknown).toEqual({ code: 4, lastLine: 'testbed sdk-typescript: unknown version 9.9.9: npm has no @modelcontextprotocol/server@9.9.9' });
    const installed = releases.find((version) => !('skipped' in sdkTestbed('typescript', { version })));
    if (installed === undefined) return;
    const again = await installSdkTestbed('typescript', { version: installed });
    expect(again.code).toBe(0);
    expect(again.lastLine).toMatch(new RegExp(`^testbed sdk-typescript: ready \\(@modelcontextprotocol/\\w+ ${installed.replaceAll('.', '\\.')}, cached, \\d+\\.\\d s\\)$`));
  }, 60_000);

  it('the pinned releases straddle the fix: its bad and good releases are both pinned', () => {
    expect(releases).toEqual(expect.arrayContaining([FIX.bad, FIX.good, ...FIX.badToo]));
    expect(FIX.transports.every((t) => transports.includes(t))).toBe(true);
  });
});
