import { describeError } from '../util/errors.ts';
import { quiesce } from './realGlobals.ts';
import { RunSandbox } from './RunSandbox.ts';
import { TraceRecorder } from './trace.ts';

/** What escaped a run: a rejection nobody handled, or an exception thrown where nobody catches. */
export type EscapeSource = 'unhandledRejection' | 'uncaughtException';

/**
 * Runs `body` inside a fresh `RunSandbox` (virtual time, seeded chance, captured escapes) and
 * always leaves it. `onEscape` hears escapes only while the body runs: what the teardown
 * (`cleanup`, the work it sets off, then leaving the sandbox) shakes loose belongs to no run.
 */
export async function withSandbox<T>(
  seed: number,
  onEscape: (source: EscapeSource, error: unknown) => void,
  body: (sandbox: RunSandbox) => Promise<T>,
  cleanup?: () => void,
): Promise<T> {
  let recording = true;
  const sandbox = new RunSandbox(seed, (source, error) => {
    if (recording) onEscape(source, error);
  });
  // Not inside the try: a refused `enter` (another run in progress) must not undo that run's globals.
  sandbox.enter();
  try {
    return await body(sandbox);
  } finally {
    recording = false;
    try {
      cleanup?.();
    } finally {
      // What the teardown set off (a handler's catch after the close aborted it, a user's
      // cleanup) runs now, while the virtual clock is still installed: the timers it sets die
      // with the run instead of firing in real time in the middle of a later one.
      await quiesce();
      sandbox.exit();
    }
  }
}

/**
 * `withSandbox` with a trace on the sandbox's clock: escapes become `escape` events, and the
 * trace stops when the body ends, before `cleanup`.
 */
export function withTrace<T>(seed: number, body: (trace: TraceRecorder, sandbox: RunSandbox) => Promise<T>, cleanup?: () => void): Promise<T> {
  let trace: TraceRecorder | undefined;
  return withSandbox(
    seed,
    (source, error) => trace?.record({ kind: 'escape', source, error: describeError(error) }),
    (sandbox) => body((trace = new TraceRecorder(() => sandbox.clock.nowMs)), sandbox),
    () => {
      trace?.stop();
      cleanup?.();
    },
  );
}
