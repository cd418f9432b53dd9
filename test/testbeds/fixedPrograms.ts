import type { HandlerProgram } from '../../src/sim/scenario.ts';
import type { ProgramCallOptions } from '../../src/targets/testbed/index.ts';

/**
 * How long a cancelled program sleeps: far longer than a loaded machine takes to deliver the
 * cancel, so the cancel always lands in the sleep (no race). Only a bed that misses the cancel
 * waits it out, and then fails the comparison.
 */
const CANCELLED_SLEEP_MS = 5_000;

/**
 * How long after the first progress the cancel is sent: long enough that every bed has moved on
 * from sending that progress into the sleep (rmcp once saw a cancel sent 0 ms after the progress
 * before it started the sleep step, in one of three CI runs), far shorter than the sleep.
 */
const CANCEL_AFTER_PROGRESS_MS = 200;

/** A scripted program with no race: every SDK must put the same frames on the wire for it. */
export interface FixedProgram {
  readonly name: string;
  readonly program: HandlerProgram;
  readonly call: ProgramCallOptions;
}

/** The fixed scenarios of test/testbeds/sameProgram.test.ts (and docs/sdks.md). */
export const FIXED_PROGRAMS: readonly FixedProgram[] = [
  {
    name: 'progress steps then a result',
    program: { steps: [{ kind: 'progress', progress: 1, total: 2, message: 'half' }, { kind: 'sleep', ms: 20 }, { kind: 'progress', progress: 2, total: 2 }], end: { kind: 'result' }, onAbort: 'honour' },
    call: { progressToken: 'p1' },
  },
  {
    name: 'an error end',
    program: { steps: [{ kind: 'sleep', ms: 10 }], end: { kind: 'error', code: -32000, message: 'scripted failure' }, onAbort: 'honour' },
    call: {},
  },
  {
    name: 'a roots/list call answered, then progress',
    program: { steps: [{ kind: 'call', method: 'roots/list' }, { kind: 'progress', progress: 1 }], end: { kind: 'result' }, onAbort: 'honour' },
    call: { progressToken: 7 },
  },
  {
    name: 'a cancel after the first progress, honoured',
    program: { steps: [{ kind: 'progress', progress: 1, total: 3 }, { kind: 'sleep', ms: CANCELLED_SLEEP_MS }, { kind: 'progress', progress: 2, total: 3 }], end: { kind: 'result' }, onAbort: 'honour' },
    call: { progressToken: 'p1', cancelAfterProgress: { n: 1, ms: CANCEL_AFTER_PROGRESS_MS } },
  },
  {
    name: 'a cancel after the first progress, swallowed',
    program: { steps: [{ kind: 'progress', progress: 1, total: 3 }, { kind: 'sleep', ms: CANCELLED_SLEEP_MS }, { kind: 'progress', progress: 2, total: 3 }], end: { kind: 'result' }, onAbort: 'swallow' },
    call: { progressToken: 'p1', cancelAfterProgress: { n: 1, ms: CANCEL_AFTER_PROGRESS_MS } },
  },
];
