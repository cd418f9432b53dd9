import { createRng } from './rng.ts';
import { VirtualClock } from './VirtualClock.ts';
import { realGlobals } from './realGlobals.ts';

type Listener = (...args: unknown[]) => void;

/** Runs replace process-wide globals, so at most one may be inside its sandbox at a time. */
let active = false;

/**
 * Everything a run borrows from the process, and gives back: virtual time, a seeded
 * `Math.random` and `crypto.randomUUID`, and the process's unhandled-rejection and
 * uncaught-exception hooks (the system under test's escapes are the run's findings, not the
 * host's crash). `enter` and `exit` are paired; `exit` is safe to call after a failed `enter`.
 */
export class RunSandbox {
  readonly clock = new VirtualClock();
  private saved: { rejection: Listener[]; exception: Listener[]; stackTraceLimit: number } | undefined;

  constructor(
    private readonly seed: number,
    private readonly onEscape: (kind: 'unhandledRejection' | 'uncaughtException', error: unknown) => void,
  ) {}

  enter(): void {
    if (this.saved || active) {
      throw new Error(
        'runScenario: another run is in progress in this process; runs replace the global timers and random sources, so await each run before starting the next.',
      );
    }
    active = true;
    this.saved = {
      rejection: process.rawListeners('unhandledRejection') as Listener[],
      exception: process.rawListeners('uncaughtException') as Listener[],
      stackTraceLimit: Error.stackTraceLimit,
    };
    // The SDK and the scripted handlers throw an error for every timeout, cancel and close, and
    // capturing its stack costs more than the rest of the error; traces keep only name and message.
    Error.stackTraceLimit = 0;
    process.removeAllListeners('unhandledRejection');
    process.removeAllListeners('uncaughtException');
    process.on('unhandledRejection', this.onRejection);
    process.on('uncaughtException', this.onException);
    const rng = createRng(this.seed);
    Math.random = rng.float;
    globalThis.crypto.randomUUID = rng.uuid;
    this.clock.install();
  }

  exit(): void {
    if (this.saved) active = false;
    this.clock.uninstall();
    Math.random = realGlobals.mathRandom;
    globalThis.crypto.randomUUID = realGlobals.randomUUID;
    if (!this.saved) return;
    Error.stackTraceLimit = this.saved.stackTraceLimit;
    process.off('unhandledRejection', this.onRejection);
    process.off('uncaughtException', this.onException);
    for (const l of this.saved.rejection) process.on('unhandledRejection', l);
    for (const l of this.saved.exception) process.on('uncaughtException', l);
    this.saved = undefined;
  }

  private readonly onRejection = (reason: unknown) => this.onEscape('unhandledRejection', reason);
  private readonly onException = (error: unknown) => this.onEscape('uncaughtException', error);
}
