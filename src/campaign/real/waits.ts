import { IN_FLIGHT_PER_ROUND_TRIP, QUIET_PER_PROGRESS_GAP } from '../../options/defaults.ts';
import type { Plan } from '../../real/plan.ts';
import { performance } from 'node:perf_hooks';
import type { Capacity, CaseWaits } from '../../real/sharedConnection.ts';
import type { RealBounds } from '../../targets/Target.ts';
import type { Pace } from './pace.ts';

/** The `q` quantile of `values` (0 when there are none). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Ping round trips measured before the campaign: the first few are a cold server's and are left out. */
const WARM_UP_PINGS = 5;

/**
 * The waits of a real-time campaign, sized to the server rather than fixed: the in-flight bound of
 * a cancel from the ping round trips the server showed (`IN_FLIGHT_PER_ROUND_TRIP` times their
 * 95th percentile, never under `DEFAULT_IN_FLIGHT_MS` or what the caller gave), each case's quiet
 * window from its tools' progress intervals (`QUIET_PER_PROGRESS_GAP` times the longest, never under
 * twice the in-flight bound, never over `--hang-after`), and a silent call's bound from what its
 * tool has shown it takes (`pace`, `silenceBoundMs`). The report states each, with what it came from.
 */
export class Waits implements CaseWaits {
  readonly inFlightMs: number;
  readonly capacity = new CallCapacity();

  constructor(
    private readonly base: RealBounds,
    readonly pace: Pace,
    /** Round trips of pings measured before the campaign, in the order measured. */
    readonly roundTrips: readonly number[],
  ) {
    const warm = roundTrips.slice(Math.min(WARM_UP_PINGS, Math.max(0, roundTrips.length - 1)));
    this.inFlightMs = Math.max(base.inFlightMs, Math.ceil(IN_FLIGHT_PER_ROUND_TRIP * quantile(warm, 0.95)));
  }

  get hangAfterMs(): number {
    return this.base.hangAfterMs;
  }

  /** The bounds a run is judged with: the in-flight bound as sized, and what each tool has shown it takes so far. */
  bounds(): RealBounds {
    const toolSilenceMs = this.pace.toolSilenceMs;
    return { ...this.base, inFlightMs: this.inFlightMs, ...(Object.keys(toolSilenceMs).length > 0 && { toolSilenceMs }) };
  }

  quietMs(plan: Plan): number {
    const gap = Math.max(0, ...plan.calls.map((c) => this.pace.gapMs[c.tool] ?? 0));
    return Math.max(2 * this.inFlightMs, Math.min(this.base.hangAfterMs, Math.ceil(QUIET_PER_PROGRESS_GAP * gap)));
  }

  /** What the waits were and where they came from, for the report. */
  summary(): WaitsSummary {
    const warm = this.roundTrips.slice(Math.min(WARM_UP_PINGS, Math.max(0, this.roundTrips.length - 1)));
    const gaps = this.pace.gapMs;
    return {
      roundTripMs: { p50: round(quantile(warm, 0.5)), p95: round(quantile(warm, 0.95)), pings: warm.length },
      inFlightMs: this.inFlightMs,
      quietMs: { least: 2 * this.inFlightMs, most: this.base.hangAfterMs, ...(Object.keys(gaps).length > 0 && { progressGapMs: { ...gaps } }) },
      hangAfterMs: this.base.hangAfterMs,
      toolMs: { ...this.pace.toolMs },
      toolSilenceMs: { ...this.pace.toolSilenceMs },
      ...(Object.keys(this.pace.stated).length > 0 && { statedToolMs: { ...this.pace.stated } }),
      ...(this.capacity.saturations > 0 && { callsAtOnce: { lowest: this.capacity.lowest, last: this.capacity.callCap, saturations: this.capacity.saturations } }),
    };
  }
}

/** Pings answered in time for this long at the cap let it grow by half. */
const CAP_GROWS_AFTER_MS = 1_000;

/**
 * How many calls at once the server has shown it serves (`Capacity`): unbounded until a
 * connection saturates it, then half the calls that connection carried; it grows again by half
 * after each `CAP_GROWS_AFTER_MS` of pings answered in time, never past the most calls at once
 * that ever saturated it (past that it would only measure how long the server was healthy).
 */
class CallCapacity implements Capacity {
  callCap = Number.POSITIVE_INFINITY;
  lowest = Number.POSITIVE_INFINITY;
  saturations = 0;
  private changedAt = 0;
  /** The most calls at once that saturated the server: the cap grows back up to it, no further. */
  private ceiling = 1;

  saturated(callsInFlight: number): void {
    this.ceiling = Math.max(this.ceiling, callsInFlight);
    const cap = Math.max(1, Math.floor(callsInFlight / 2));
    if (cap >= this.callCap) return;
    this.callCap = cap;
    this.lowest = Math.min(this.lowest, cap);
    this.saturations++;
    this.changedAt = performance.now();
  }

  healthy(): void {
    if (!Number.isFinite(this.callCap) || this.callCap >= this.ceiling || performance.now() - this.changedAt < CAP_GROWS_AFTER_MS) return;
    this.callCap = Math.min(this.ceiling, Math.ceil(this.callCap * 1.5));
    this.changedAt = performance.now();
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** The waits a campaign used, as its report states them. */
export interface WaitsSummary {
  /** Ping round trips before the campaign (a cold server's first few left out). */
  readonly roundTripMs: { readonly p50: number; readonly p95: number; readonly pings: number };
  /** The in-flight bound of a cancel: `IN_FLIGHT_PER_ROUND_TRIP` × the 95th percentile round trip, never under the default. */
  readonly inFlightMs: number;
  /** A case's quiet window once its calls are done: twice the in-flight bound at least, `QUIET_PER_PROGRESS_GAP` × its tools' longest progress interval, `--hang-after` at most. */
  readonly quietMs: { readonly least: number; readonly most: number; readonly progressGapMs?: Readonly<Record<string, number>> };
  /** The least a silent call is waited for. */
  readonly hangAfterMs: number;
  /** What each tool has shown it takes (or was stated to take), ms. */
  readonly toolMs: Readonly<Record<string, number>>;
  /** How long a silent call of each tool was waited for (`SLOW_FACTOR` × `toolMs`, `--hang-after` at least), ms. */
  readonly toolSilenceMs: Readonly<Record<string, number>>;
  readonly statedToolMs?: Readonly<Record<string, number>>;
  /** When a connection saturated the server (its pings not answered within twice the in-flight bound): the calls at once it was capped to. */
  readonly callsAtOnce?: { readonly lowest: number; readonly last: number; readonly saturations: number };
}

/** How many pings measure the round trip before a campaign. */
export const ROUND_TRIP_PINGS = 20;
