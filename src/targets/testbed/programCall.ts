import type { HandlerProgram } from '../../sim/scenario.ts';
import type { JsonValue } from '../../util/json.ts';
import type { PlannedCall } from '../../real/plan.ts';

/** The tool every SDK test bed exposes (testbeds/PROGRAM.md). */
export const TESTBED_TOOL = 'run';

export interface ProgramCallOptions {
  /** The request's `_meta.progressToken`. @default none (no progress asked for) */
  readonly progressToken?: number | string;
  /** Cancel (`notifications/cancelled`) this many ms after the n-th progress: `{ n, ms }`. @default never */
  readonly cancelAfterProgress?: { readonly n: number; readonly ms: number };
}

/**
 * A real-time call that carries `program` to a test bed: `tools/call run {program, call}`, written
 * right after the handshake. The program travels exactly as the simulator holds it, so the test
 * bed in each language interprets the same object the simulated handler runs.
 */
export function programCall(label: string, program: HandlerProgram, options: ProgramCallOptions = {}): PlannedCall {
  return {
    label,
    tool: TESTBED_TOOL,
    // `call` names the call on the side channel, for SDKs that hide a handler's request id (go-sdk).
    arguments: { program: program as unknown as JsonValue, call: label },
    at: { kind: 'start', ms: 0 },
    ...(options.progressToken !== undefined && { progressToken: options.progressToken }),
    ...(options.cancelAfterProgress && { cancel: { kind: 'progress', call: label, n: options.cancelAfterProgress.n, ms: options.cancelAfterProgress.ms }, cancelHow: 'notify' as const }),
  };
}
