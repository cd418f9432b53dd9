import { performance } from 'node:perf_hooks';
import { DEFAULT_PROCESS_START_MS } from '../../options/defaults.ts';
import type { HandlerProgram } from '../../sim/scenario.ts';
import { TraceRecorder, type TraceEvent } from '../../sim/trace.ts';
import { handshake, Inbox, processTarget } from '../../target/index.ts';
import { runPlan, type RunPlanOptions } from '../runPlan.ts';
import { withHandlerEvents } from './handlerEvents.ts';
import { programCall, type ProgramCallOptions } from './programCall.ts';
import type { SdkTestbed } from './sdkTestbed.ts';

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

/**
 * Runs `programs` one after the other on one `testbed` process over stdio, black box and real
 * time: spawn, handshake, then per program a `runPlan` on the open connection (`tools/list`, the
 * call `run {program}`, cancel as its options say, server requests answered), then stdin EOF.
 * One process for all keeps a fixed-scenario comparison to one start-up per SDK.
 */
export async function runTestbedPrograms(testbed: SdkTestbed, programs: readonly TestbedProgram[], options: Omit<RunPlanOptions, 'reuse'> = {}): Promise<TestbedProgramsRun> {
  const t0 = performance.now();
  const now = () => Math.round((performance.now() - t0) * 10) / 10;
  const recorder = new TraceRecorder(now);
  const inbox = new Inbox();
  const conn = await processTarget(testbed.stdio).open(recorder, inbox);
  const traces: TraceEvent[][] = [];
  let startupMs = 0;
  try {
    await handshake(conn, inbox, options.startMs ?? DEFAULT_PROCESS_START_MS);
    startupMs = now();
    let firstId = 1;
    for (const [n, { program, call }] of programs.entries()) {
      const from = recorder.events.length;
      const planned = programCall(`c${n + 1}`, program, call);
      // runPlan stops listening on the shared inbox when it ends, so each program's listener
      // answers only its own run's server requests.
      await runPlan(processTarget(testbed.stdio), { calls: [planned], serverRequests: 'answer' }, { ...options, reuse: { conn, inbox, firstId, recorder, t0 } });
      firstId += 2; // runPlan's tools/list, then the call
      const slice = recorder.events.slice(from);
      const start = slice.find((e) => e.kind === 'call-start');
      const id = start?.kind === 'call-start' ? start.id : undefined;
      traces.push(withHandlerEvents(slice, (requestId) => (requestId === id ? program : undefined)));
    }
  } finally {
    await conn.close();
  }
  const exit = [...recorder.events].reverse().find((e): e is Extract<TraceEvent, { kind: 'exit' }> => e.kind === 'exit');
  return { traces, startupMs, totalMs: now(), exit };
}
