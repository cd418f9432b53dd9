import { withGlobal, type Clock as InstalledClock } from '@sinonjs/fake-timers';

/** A virtual timer as the scheduler sees it. */
export interface PendingTimer {
  readonly id: number;
  /** Virtual time (ms since epoch 0) at which it fires. */
  readonly atMs: number;
  /** The callback's function name, which says whose timer it is (`timeoutHandler` is the SDK's). */
  readonly label: string;
}

/** Built once: `withGlobal` inspects every global and costs more than the install itself. */
const fakeTimers = withGlobal(globalThis);

interface RawTimer {
  id: number;
  callAt: number;
  func: unknown;
}

/**
 * Virtual time for one run: `@sinonjs/fake-timers` on `globalThis`, epoch 0, faking only
 * timers and `Date`. Microtasks, `nextTick` and `setImmediate` stay real, so quiescence works.
 */
export class VirtualClock {
  private clock: InstalledClock | undefined;
  /** fake-timers numbers timers across all clocks of the process; ids are shown relative to this run. */
  private firstTimerId = 0;

  install(): void {
    if (this.clock) throw new Error('VirtualClock.install: already installed; uninstall first.');
    this.clock = fakeTimers.install({
      now: 0,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      shouldClearNativeTimers: false,
      loopLimit: 100_000,
    });
    const probe = this.clock.setTimeout(() => {}, 0);
    this.clock.clearTimeout(probe);
    this.firstTimerId = rawId(probe) + 1;
  }

  uninstall(): void {
    this.clock?.uninstall();
    this.clock = undefined;
  }

  get installed(): boolean {
    return this.clock !== undefined;
  }

  get nowMs(): number {
    return this.installed ? this.active.now : 0;
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

  private get active(): InstalledClock {
    if (!this.clock) throw new Error('VirtualClock: not installed; this call is only valid during a run.');
    return this.clock;
  }

  private describe(t: RawTimer): PendingTimer {
    const name = typeof t.func === 'function' ? t.func.name : '';
    return { id: t.id - this.firstTimerId, atMs: t.callAt, label: name || 'anonymous' };
  }

  private rawTimers(): Iterable<RawTimer> {
    // fake-timers keeps its timers in `clock.timers` (a Map since v14, an object before).
    const timers = (this.active as unknown as { timers?: Map<number, RawTimer> | Record<string, RawTimer> })
      .timers;
    if (!timers) return [];
    return timers instanceof Map ? timers.values() : Object.values(timers);
  }
}

/** A fake timer handle is a number, or (Node flavour) an object whose primitive value is the id. */
function rawId(handle: unknown): number {
  return Number(handle);
}
