import { dependent, type Footprint } from '../sim/footprint.ts';

/** A scheduler for one run: picks an index among the enabled actions' footprints, or throws. */
export type Chooser = (enabled: readonly Footprint[]) => number;

/**
 * Thrown by the chooser when every enabled action sleeps: each way on from here is equivalent
 * to a schedule already explored, so the run stops unjudged (source-DPOR's sleep-set blocking).
 */
export class SleepBlocked extends Error {
  constructor() {
    super('explore: every enabled action sleeps; this run is equivalent to one already explored');
  }
}

export interface EnumerateOptions {
  /** Dynamic partial-order reduction (source sets and sleep sets); `false` tries every choice. */
  readonly reduce: boolean;
  /** Most runs (judged or sleep-blocked) before giving up, leaving the rest unexplored. */
  readonly runsMax: number;
}

/** What an enumeration did, and what it left out. */
export interface EnumerationStats {
  /** Runs that went to their end and were handed to `visit`: the schedules explored. */
  readonly schedules: number;
  /** Runs stopped because every enabled action slept (redundant, not judged). */
  readonly sleepBlocked: number;
  /** Alternatives at explored branch points never run: proven redundant by the reduction. */
  readonly pruned: number;
  /** Alternatives still to run when `runsMax` stopped the enumeration (0: it completed). */
  readonly unexplored: number;
  /** Races whose reversal had no enabled first step, so every alternative there was added (a conservative fallback). */
  readonly fallbacks: number;
}

/** What one run gives the enumeration: its value, and whether it ended with nothing left enabled. */
export interface ScheduleRun<T> {
  readonly value: T;
  /** Nothing was enabled at the end (not cut by a step bound): every process still enabled before the last step was disabled by it. */
  readonly quiescent: boolean;
}

/** One branch point of the schedule tree on the current path. */
interface Node {
  readonly enabled: readonly Footprint[];
  /** The key taken here on the current path. */
  taken: string;
  /** Keys that must be tried here (source set); every key, unreduced. */
  readonly backtrack: Set<string>;
  /** Keys already explored from here. */
  readonly done: Set<string>;
  /** Keys asleep on arrival: each of their continuations is equivalent to one explored. */
  readonly sleep: ReadonlyMap<string, Footprint>;
}

/** One executed step of a run, as race detection reads it. */
interface Event {
  readonly fp: Footprint;
  readonly enabled: ReadonlySet<string>;
}

/**
 * Enumerates the schedules of a deterministic system by re-running it from the start
 * (stateless model checking): `run` performs one run under the chooser it is given and resolves
 * with its result, or rejects with the chooser's `SleepBlocked`. Unreduced, every choice at
 * every step is tried. Reduced, it is source-set DPOR with sleep sets (Abdulla, Aronis,
 * Jonsson, Sagonas, POPL 2014, Algorithm 1): after each run, every race of the run (two
 * dependent steps of different processes, ordered by nothing but themselves) adds to the branch
 * point before the first step a process that can start the reversed order, unless one already
 * is there; sleep sets stop a branch from repeating an order explored from an ancestor.
 * Happens-before: program order (same key), dependence (`dependent`), and enabling (the step
 * after which a process became enabled precedes its steps).
 */
export async function enumerateSchedules<T>(
  run: (choose: Chooser) => Promise<ScheduleRun<T>>,
  visit: (value: T) => void,
  options: EnumerateOptions,
): Promise<EnumerationStats> {
  const stack: Node[] = [];
  let schedules = 0;
  let sleepBlocked = 0;
  let fallbacks = 0;
  let pruned = 0;
  let branchPoint = 0;
  for (let runs = 1; ; runs++) {
    const events: Event[] = [];
    /** What was enabled after the last step: nothing at quiescence, the sleeping actions when blocked, unknown at a step bound. */
    let finalEnabled: ReadonlySet<string> | undefined;
    const choose: Chooser = (enabled) => {
      const depth = events.length;
      let node = stack[depth];
      if (!node) {
        const sleep = depth === 0 || !options.reduce ? new Map<string, Footprint>() : childSleep(stack[depth - 1]!);
        const first = options.reduce ? enabled.findIndex((f) => !sleep.has(f.key)) : 0;
        if (first < 0) {
          finalEnabled = new Set(enabled.map((f) => f.key));
          throw new SleepBlocked();
        }
        const taken = enabled[first]!.key;
        node = { enabled, taken, backtrack: new Set(options.reduce ? [taken] : enabled.map((f) => f.key)), done: new Set(), sleep };
        stack.push(node);
      }
      const index = enabled.findIndex((f) => f.key === node.taken);
      if (index < 0) throw new Error(`explore: the run is not deterministic: step ${depth} has no action ${node.taken} on replay (enabled: ${enabled.map((f) => f.key).join(', ')})`);
      events.push({ fp: enabled[index]!, enabled: new Set(enabled.map((f) => f.key)) });
      return index;
    };
    try {
      const done = await run(choose);
      if (done.quiescent) finalEnabled = new Set();
      visit(done.value);
      schedules++;
    } catch (error) {
      if (!(error instanceof SleepBlocked)) throw error;
      sleepBlocked++;
    }
    if (options.reduce) {
      fallbacks += addRaceReversals(events, stack, branchPoint);
      addDisablingReversals(events, stack, branchPoint, finalEnabled);
    }
    // Backtrack to the deepest branch point with an alternative left.
    for (;;) {
      const node = stack.at(-1);
      if (!node) return { schedules, sleepBlocked, pruned, unexplored: 0, fallbacks };
      node.done.add(node.taken);
      const next = [...node.backtrack].find((k) => !node.done.has(k) && !node.sleep.has(k));
      if (next !== undefined) {
        node.taken = next;
        branchPoint = stack.length - 1;
        if (runs < options.runsMax) break;
        const unexplored = stack.reduce((sum, n) => sum + [...n.backtrack].filter((k) => (n === node ? true : k !== n.taken) && !n.done.has(k) && !n.sleep.has(k)).length, 0);
        return { schedules, sleepBlocked, pruned, unexplored, fallbacks };
      }
      pruned += node.enabled.length - node.done.size;
      stack.pop();
    }
  }
}

/** The sleep set below `parent` on its taken branch: what slept or was done there, and commutes with the step taken. */
function childSleep(parent: Node): Map<string, Footprint> {
  const taken = parent.enabled.find((f) => f.key === parent.taken)!;
  const sleep = new Map<string, Footprint>();
  for (const [key, fp] of parent.sleep) if (!dependent(fp, taken)) sleep.set(key, fp);
  for (const fp of parent.enabled) if (parent.done.has(fp.key) && !dependent(fp, taken)) sleep.set(fp.key, fp);
  return sleep;
}

/**
 * Race detection on the run's steps from `from` on: for each race (i, j), the steps after i not
 * happening after it, then j, form a reversal; one of its first steps joins the backtrack set of
 * step i's branch point unless one is there already. Returns how many fallbacks it took.
 */
function addRaceReversals(events: readonly Event[], stack: readonly Node[], from: number): number {
  const n = events.length;
  // before[j]: every step that happens before step j (transitively).
  const before: Set<number>[] = [];
  const enabler: number[] = [];
  for (let j = 0; j < n; j++) {
    const key = events[j]!.fp.key;
    let m = j - 1;
    while (m >= 0 && events[m]!.enabled.has(key)) m--;
    enabler.push(m);
    const hb = new Set<number>();
    for (let i = j - 1; i >= 0; i--) {
      if (hb.has(i)) continue;
      if (i === m || events[i]!.fp.key === key || dependent(events[i]!.fp, events[j]!.fp)) {
        hb.add(i);
        for (const k of before[i]!) hb.add(k);
      }
    }
    before.push(hb);
  }
  let fallbacks = 0;
  for (let j = Math.max(from, 1); j < n; j++) {
    const ej = events[j]!;
    for (let i = j - 1; i >= 0; i--) {
      const ei = events[i]!;
      if (ei.fp.key === ej.fp.key || !dependent(ei.fp, ej.fp) || enabler[j] === i) continue;
      // Only immediate races: nothing between i and j is ordered after i and before j.
      let immediate = true;
      for (let k = i + 1; k < j && immediate; k++) if (before[k]!.has(i) && before[j]!.has(k)) immediate = false;
      if (!immediate) continue;
      const reversal: number[] = [];
      for (let k = i + 1; k < j; k++) if (!before[k]!.has(i)) reversal.push(k);
      reversal.push(j);
      const initials = new Set<string>();
      for (const k of reversal) if (!reversal.some((x) => x < k && before[k]!.has(x))) initials.add(events[k]!.fp.key);
      const node = stack[i]!;
      const startable = [...initials].filter((key) => node.enabled.some((f) => f.key === key));
      if (startable.some((key) => node.backtrack.has(key) || node.sleep.has(key))) continue;
      if (startable.length > 0) node.backtrack.add(startable[0]!);
      else {
        fallbacks++;
        for (const f of node.enabled) node.backtrack.add(f.key);
      }
    }
  }
  return fallbacks;
}

/**
 * A step that disables another enabled process (a response clearing a timeout timer, a cancel
 * withdrawing a handler's gate, a delivery shrinking a burst) is in a race with that process's
 * pending step, which never ran, so race detection cannot see it: as in Flanagan and Godefroid's
 * DPOR for pending steps, the disabled process joins the backtrack set of the step's branch point
 * (it was enabled there). `finalEnabled` is what was enabled after the last step (nothing at
 * quiescence); after a run cut by the step bound it is unknown, and the last step is skipped.
 */
function addDisablingReversals(events: readonly Event[], stack: readonly Node[], from: number, finalEnabled: ReadonlySet<string> | undefined): void {
  for (let i = Math.max(from, 0); i < events.length; i++) {
    const after = events[i + 1]?.enabled ?? finalEnabled;
    if (!after) continue;
    const node = stack[i]!;
    for (const key of events[i]!.enabled) {
      if (key === events[i]!.fp.key || after.has(key) || node.sleep.has(key)) continue;
      node.backtrack.add(key);
    }
  }
}
