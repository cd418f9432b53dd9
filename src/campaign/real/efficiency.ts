import type { RealRun } from '../../targets/Target.ts';
import { quantile } from './waits.ts';

/**
 * How fast a real-time campaign ran, against the limit: the server's own work, the time its
 * tools take over how many calls it serves at once. `busyShare` is the share of the campaign's
 * wall time in which the server was working on at least one call (a call from its request
 * written to its answer read, or to the client giving it up): 1 is the limit, a campaign that
 * waits on start-ups, quiet windows and one case at a time is far under it.
 */
export interface Efficiency {
  /** The campaign's runs over its wall time (shrinking and rate runs included in the time). */
  readonly runsPerSecond: number;
  readonly wallMs: number;
  /** Every run: the campaign's, its counterfactuals, shrinking and rate runs. */
  readonly runsInAll: number;
  /** Spawn (or session open) to `initialized`. */
  readonly startup: {
    readonly medianMs: number;
    /** Server processes started (a session on a server already running is no process). */
    readonly processes: number;
    /** Sessions opened on a server process already running (a URL, or the one `--start` started). */
    readonly sessions: number;
    /** The start-up of every process, summed, ms. */
    readonly totalMs: number;
    /**
     * Opens that failed once and were tried again (present when any was): a target that opened
     * connections before gets a second try, since a failed open can be the client's (a keep-alive
     * socket the server was closing) rather than the server's.
     */
    readonly retried?: number;
    /**
     * Of those, the ones opened on a new server `--start` started (present when any was): the one
     * running had stopped answering `initialize`, its workers held by calls that never ended.
     */
    readonly renewedServers?: number;
    /**
     * The server `--start` started for many sessions answered a second session's `initialize` with
     * an error (one MCP session per process): every later connection had a server of its own.
     */
    readonly oneSessionPerServer?: true;
  };
  /** The share of the wall time the server spent working on calls (0 to 1). */
  readonly busyShare: number;
  /** Every call's time from its request to its answer (or the client giving it up), summed, ms. */
  readonly callMs: number;
  /** Where the wall time went: opening the target (its tools listed, round trips measured), the campaign's runs, its findings (shrinking and rate runs, every invariant's side by side); ms. */
  readonly phasesMs: { readonly prepare: number; readonly runs: number; readonly findings: number };
}

/**
 * What `efficiencyOf` reads of a run, all a campaign keeps of every run for it: its calls'
 * starts and settles and its last event. The whole trace stays with the judged run that needs it;
 * a campaign of many runs (shrinking, rates) against a server that floods would otherwise hold
 * every run's frames to the end.
 */
export function forEfficiency(run: RealRun): RealRun {
  const last = run.trace.at(-1);
  const kept = run.trace.filter((e) => e.kind === 'call-start' || e.kind === 'call-settle');
  return { ...run, trace: last === undefined || kept.at(-1) === last ? kept : [...kept, last] };
}

/**
 * How a campaign's opens went (`PlanRunner.openings`): those that failed once and were tried
 * again, of those the ones on a new server, and whether the server took one session per process.
 */
export interface Openings {
  readonly retried: number;
  readonly renewed: number;
  readonly oneSessionPerServer: boolean;
}

/**
 * The efficiency of a campaign of `runs` cases that took `wallMs` from `startedAt`
 * (`performance.now()`), from every run it made (each with its `t0`) and every connection it opened.
 */
export function efficiencyOf(
  all: readonly RealRun[],
  opened: { readonly startups: readonly { readonly ms: number; readonly started: 'process' | 'session' }[] } & Pick<Openings, 'retried'> & Partial<Openings>,
  runs: number,
  wallMs: number,
  startedAt: number,
  phases: { readonly prepareMs: number; readonly runsMs: number; readonly findingsMs: number },
): Efficiency {
  const intervals: [number, number][] = [];
  let callMs = 0;
  for (const run of all) {
    const base = run.t0 ?? startedAt;
    const end = run.trace.at(-1)?.t ?? 0;
    const open = new Map<string, number>();
    for (const e of run.trace) {
      if (e.kind === 'call-start') open.set(e.call, e.t);
      else if (e.kind === 'call-settle' && open.has(e.call)) {
        intervals.push([base + open.get(e.call)!, base + e.t]);
        callMs += e.t - open.get(e.call)!;
        open.delete(e.call);
      }
    }
    for (const t of open.values()) {
      intervals.push([base + t, base + end]);
      callMs += end - t;
    }
  }
  intervals.sort((a, b) => a[0] - b[0]);
  let busy = 0;
  let from = -Infinity;
  let to = -Infinity;
  for (const [a, b] of intervals) {
    if (a > to) {
      if (to > from) busy += to - from;
      from = a;
      to = b;
    } else to = Math.max(to, b);
  }
  if (to > from) busy += to - from;
  const { startups, retried, renewed = 0, oneSessionPerServer = false } = opened;
  const processes = startups.filter((s) => s.started === 'process');
  return {
    runsPerSecond: Math.round((runs / Math.max(wallMs / 1000, 1e-9)) * 10) / 10,
    wallMs: Math.round(wallMs),
    runsInAll: all.length,
    startup: {
      medianMs: Math.round(quantile(startups.map((s) => s.ms), 0.5)),
      processes: processes.length,
      sessions: startups.length - processes.length,
      totalMs: Math.round(processes.reduce((n, s) => n + s.ms, 0)),
      ...(retried > 0 && { retried }),
      ...(renewed > 0 && { renewedServers: renewed }),
      ...(oneSessionPerServer && { oneSessionPerServer: true as const }),
    },
    busyShare: Math.round(Math.min(1, busy / Math.max(wallMs, 1e-9)) * 100) / 100,
    callMs: Math.round(callMs),
    phasesMs: { prepare: Math.round(phases.prepareMs), runs: Math.round(phases.runsMs), findings: Math.round(phases.findingsMs) },
  };
}
