import type { HandlerProgram } from '../../sim/scenario.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import { processTarget } from '../../target/index.ts';
import { runPlan, type RealtimeRun, type RunPlanOptions } from '../runPlan.ts';
import { withHandlerEvents } from './handlerEvents.ts';
import { programCall, type ProgramCallOptions } from './programCall.ts';
import type { SdkTestbed } from './sdkTestbed.ts';

/** A program's run on one test bed: the real-time run, and its trace with the handler events read from the side channel. */
export interface TestbedProgramRun {
  readonly run: RealtimeRun;
  readonly trace: TraceEvent[];
}

/**
 * Runs one scripted handler program on `testbed` over stdio, black box and real time: starts its
 * process, handshakes, calls `run` with the program (progress token, cancel as `options` say),
 * answers the server's requests as `runPlan` does, closes, and reads the side channel.
 */
export async function runTestbedProgram(testbed: SdkTestbed, program: HandlerProgram, options: ProgramCallOptions & RunPlanOptions = {}): Promise<TestbedProgramRun> {
  const call = programCall('c1', program, options);
  const run = await runPlan(processTarget(testbed.stdio), { calls: [call], serverRequests: 'answer' }, options);
  // The call's id: runPlan records it on its call-start.
  const start = run.trace.find((e) => e.kind === 'call-start' && e.call === call.label);
  const id = start?.kind === 'call-start' ? start.id : undefined;
  return { run, trace: withHandlerEvents(run.trace, (requestId) => (requestId === id ? program : undefined)) };
}
