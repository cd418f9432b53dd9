import { performance } from 'node:perf_hooks';
import { DEFAULT_PROCESS_START_MS } from '../../options/defaults.ts';
import type { HandlerProgram } from '../../sim/scenario.ts';
import { TraceRecorder, type TraceEvent, type WireId } from '../../sim/trace.ts';
import { handshake, Inbox, type Endpoint } from '../../real/index.ts';
import { stdioEndpoint, httpEndpoint } from '../index.ts';
import { runPlan, type RunPlanOptions } from '../../real/runPlan.ts';
import { withHandlerEvents } from './handlerEvents.ts';
import { programCall, type ProgramCallOptions } from './programCall.ts';
import type { HttpMode, SdkTestbed, SdkTestbedTransport } from './sdkTestbed.ts';

/** One scripted program to run on a test bed, and how the client calls it. */
export interface TestbedProgram {
  readonly program: HandlerProgram;
  readonly call?: ProgramCallOptions;
}

/** The programs' runs on one test bed process: per program, its slice of the trace with the side channel's handler events. */
export interface TestbedProgramsRun {
  readonly traces: TraceEvent[][];
  /** Real ms from the spawn to the end of the handshake. */
  readonly startupMs: number;
  readonly totalMs: number;
  /** How the process ended after stdin EOF (by itself, or SIGTERM/SIGKILL after a grace period). */
  readonly exit: Extract<TraceEvent, { kind: 'exit' }> | undefined;
}

export interface TestbedProgramsOptions extends Omit<RunPlanOptions, 'reuse'> {
  /** stdio (the default), or one of the release's HTTP modes (the server started on a free loopback port). */
  readonly transport?: SdkTestbedTransport;
}

/** The target of one transport of a test bed; throws when the release does not offer it (say so, never fall back). */
export function endpointOf(testbed: SdkTestbed, transport: SdkTestbedTransport = 'stdio'): Endpoint {
  if (transport === 'stdio') return stdioEndpoint(testbed.stdio);
  const mode = transport.slice('http-'.length) as HttpMode;
  const spec = testbed.http(mode);
  if (!spec) {
    const offered = testbed.modes.map((m) => `http-${m}`);
    throw new Error(`the ${testbed.language} test bed (${testbed.manifest.sdk.name} ${testbed.version}) has no ${transport}: it offers ${['stdio', ...offered].join(', ')}`);
  }
  return httpEndpoint(spec);
}

/**
 * Runs `programs` one after the other on one `testbed` process (stdio) or one session (HTTP),
 * black box and real time: start, handshake, then per program a `runPlan` on the open
 * connection (`tools/list`, the call `run {program}`, cancel as its options say, server requests
 * answered), then the close (stdin EOF; DELETE and the started server stopped). One process for
 * all keeps a fixed-scenario comparison to one start-up per SDK.
 */
export async function runTestbedPrograms(testbed: SdkTestbed, programs: readonly TestbedProgram[], options: TestbedProgramsOptions = {}): Promise<TestbedProgramsRun> {
  const { transport, ...planOptions } = options;
  const target = endpointOf(testbed, transport);
  const t0 = performance.now();
  const now = () => Math.round((performance.now() - t0) * 10) / 10;
  const recorder = new TraceRecorder(now);
  const inbox = new Inbox();
  const conn = await target.open(recorder, inbox);
  const traces: TraceEvent[][] = [];
  let startupMs = 0;
  try {
    await handshake(conn, inbox, planOptions.startMs ?? DEFAULT_PROCESS_START_MS);
    startupMs = now();
    let firstId = 1;
    const programsById = new Map<string, HandlerProgram>();
    const callIds = new Map<string, WireId>();
    for (const [n, { program, call }] of programs.entries()) {
      const from = recorder.events.length;
      const planned = programCall(`c${n + 1}`, program, call);
      // runPlan stops listening on the shared inbox when it ends, so each program's listener
      // answers only its own run's server requests.
      await runPlan(target, { calls: [planned], serverRequests: 'answer' }, { ...planOptions, reuse: { conn, inbox, firstId, recorder, t0 } });
      firstId += 2; // runPlan's tools/list, then the call
      const slice = recorder.events.slice(from);
      const start = slice.find((e) => e.kind === 'call-start');
      if (start?.kind === 'call-start' && start.id !== undefined) programsById.set(JSON.stringify(start.id), program);
      // Late events of an earlier program's handler (one its SDK never cancelled) land in this slice, as its own.
      traces.push(withHandlerEvents(slice, (requestId) => programsById.get(JSON.stringify(requestId)), callIds));
      if (start?.kind === 'call-start' && start.id !== undefined) callIds.set(start.call, start.id);
    }
  } finally {
    await conn.close();
  }
  const exit = [...recorder.events].reverse().find((e): e is Extract<TraceEvent, { kind: 'exit' }> => e.kind === 'exit');
  return { traces, startupMs, totalMs: now(), exit };
}
