import { withGlobal, type Clock as FakeClock } from '@sinonjs/fake-timers';
import { realGlobals } from './realGlobals.ts';

/** A virtual timer as the scheduler sees it. */
export interface PendingTimer {
  readonly id: number;
  /** Virtual time (ms since epoch 0) at which it fires. */
  readonly atMs: number;
  /** The callback's function name, which says whose timer it is (`timeoutHandler` is the SDK's). */
  readonly label: string;
}

interface RawTimer {
  id: number;
  callAt: number;
  func: unknown;
}

/** Timer loops beyond this are a runaway script, not a schedule. */
const LOOP_LIMIT = 100_000;

/**
 * One fake clock for the whole process, reset for each run. `install()` of fake-timers builds a
 * clock and wraps every global it replaces, which cost about a tenth of a short run; a run only
 * needs the clock's own functions put on `globalThis` and taken off again.
 */
let shared: FakeClock | undefined;
let owner: VirtualClock | undefined;

function sharedClock(): FakeClock {
  return (shared ??= withGlobal(globalThis).createClock(0, LOOP_LIMIT) as FakeClock);
}

/**
 * Virtual time for one run: a `@sinonjs/fake-timers` clock on `globalThis`, epoch 0, faking
 * only timers and `Date`. Microtasks, `nextTick` and `setImmediate` stay real, so quiescence
 * works. At most one is installed at a time (runs share the process's globals).
 */
export class VirtualClock {
  private clock: FakeClock | undefined;
  /** fake-timers numbers timers across all runs of the process; ids are shown relative to this run. */
  private firstTimerId = 0;

  install(): void {
    if (this.clock) throw new Error('VirtualClock.install: already installed; uninstall first.');
    if (owner) throw new Error('VirtualClock.install: another run has the virtual clock installed; uninstall it first.');
    const clock = sharedClock();
    clock.reset();
    globalThis.setTimeout = clock.setTimeout as typeof setTimeout;
    globalThis.clearTimeout = clock.clearTimeout as typeof clearTimeout;
    globalThis.setInterval = clock.setInterval as typeof setInterval;
    globalThis.clearInterval = clock.clearInterval as typeof clearInterval;
    globalThis.Date = clock.Date as unknown as DateConstructor;
    owner = this;
    this.clock = clock;
    const probe = clock.setTimeout(() => {}, 0);
    clock.clearTimeout(probe);
    this.firstTimerId = Number(probe) + 1;
  }

  uninstall(): void {
    if (!this.clock) return;
    globalThis.setTimeout = realGlobals.setTimeout;
    globalThis.clearTimeout = realGlobals.clearTimeout;
    globalThis.setInterval = realGlobals.setInterval;
    globalThis.clearInterval = realGlobals.clearInterval;
    globalThis.Date = realGlobals.Date;
    // Timers left by the run would keep its world alive until the next run resets the clock.
    this.clock.reset();
    this.clock = undefined;
    owner = undefined;
  }

  get installed(): boolean {
    return this.clock !== undefined;
  }

  get nowMs(): number {
    return this.clock ? this.clock.now : 0;
  }

  /** The timer that fires next, ties broken by creation order; `undefined` when none is pending. */
  nextTimer(): PendingTimer | undefined {
    let first: RawTimer | undefined;
    for (const t of this.rawTimers()) {
      if (!first || t.callAt < first.callAt || (t.callAt === first.callAt && t.id < first.id)) first = t;
    }
    return first && this.describe(first);
  }

  /** Every pending timer, in firing order. */
  pendingTimers(): PendingTimer[] {
    return [...this.rawTimers()]
      .sort((a, b) => a.callAt - b.callAt || a.id - b.id)
      .map((t) => this.describe(t));
  }

  /** Advances virtual time to the next timer and fires it (and only it). */
  fireNext(): void {
    this.active.next();
  }

  private get active(): FakeClock {
    if (!this.clock) throw new Error('VirtualClock: not installed; this call is only valid during a run.');
    return this.clock;
  }

  private describe(t: RawTimer): PendingTimer {
    const name = typeof t.func === 'function' ? t.func.name : '';
    return { id: t.id - this.firstTimerId, atMs: t.callAt, label: name || 'anonymous' };
  }

  private rawTimers(): Iterable<RawTimer> {
    // fake-timers keeps its timers in `clock.timers` (a Map since v14, an object before).
    const timers = (this.active as unknown as { timers?: Map<number, RawTimer> | Record<string, RawTimer> }).timers;
    if (!timers) return [];
    return timers instanceof Map ? timers.values() : Object.values(timers);
  }
}
