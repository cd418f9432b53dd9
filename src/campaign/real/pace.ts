import { performance } from 'node:perf_hooks';
import { SLOW_FACTOR } from '../../options/defaults.ts';
import type { CallPace, ToolPace } from '../../real/runPlan.ts';

/** A call of a tool in flight, as the pace follows it. */
interface Live {
  readonly tool: string;
  readonly writtenAt: number;
  lastProgressAt: number | undefined;
}

/**
 * Slow is not stuck: what each tool of the target has shown it takes, learned while the campaign
 * runs, beside what the user stated (`--tool-duration`). A tool has shown it takes as long as its
 * longest call that ended (answered), as long as the latest progress read for a call of it came
 * after the call was written, and as long as any call of it still running that shows life (a
 * progress within `--hang-after`) has run so far: while one call of a tool keeps working, a call
 * of it waiting in the server's queue, silent, is not stuck. A silent call of a tool is
 * waited for `SLOW_FACTOR` times that (`toolSilenceMs`; `--hang-after` at least): every run reads
 * it live, every run is judged with it as it stood then, and the report states it.
 */
export class Pace implements ToolPace {
  /** The longest each tool was seen working: a call of it answered, or a progress of it read, this long after the call was written. */
  private readonly ended: Record<string, number> = {};
  private readonly gaps: Record<string, number> = {};
  private readonly live = new Set<Live>();

  constructor(
    readonly stated: Readonly<Record<string, number>> = {},
    /** How recent a progress must be for a running call to count as alive (`--hang-after`). */
    private readonly aliveMs: number = Number.POSITIVE_INFINITY,
  ) {}

  /** What each tool has shown it takes (or was stated to take, the longer), ms, now. */
  get toolMs(): Readonly<Record<string, number>> {
    const now = performance.now();
    const out: Record<string, number> = { ...this.stated };
    const longer = (tool: string, ms: number) => {
      if (ms > (out[tool] ?? 0)) out[tool] = Math.round(ms);
    };
    for (const [tool, ms] of Object.entries(this.ended)) longer(tool, ms);
    for (const l of this.live) if (l.lastProgressAt !== undefined && now - l.lastProgressAt < this.aliveMs) longer(l.tool, now - l.writtenAt);
    return out;
  }

  /** How long a silent call of each tool is waited for, ms: `SLOW_FACTOR` times what it showed or was stated to take. */
  get toolSilenceMs(): Readonly<Record<string, number>> {
    return Object.fromEntries(Object.entries(this.toolMs).map(([tool, ms]) => [tool, Math.round(SLOW_FACTOR * ms)]));
  }

  /** The longest progress interval a call of each tool showed (between two of its progress notifications), ms. */
  get gapMs(): Readonly<Record<string, number>> {
    return this.gaps;
  }

  started(tool: string): CallPace {
    const l: Live = { tool, writtenAt: performance.now(), lastProgressAt: undefined };
    this.live.add(l);
    return {
      progress: () => {
        const now = performance.now();
        if (now - l.writtenAt > (this.ended[tool] ?? 0)) this.ended[tool] = Math.round(now - l.writtenAt);
        if (l.lastProgressAt !== undefined && now - l.lastProgressAt > (this.gaps[tool] ?? 0)) this.gaps[tool] = Math.round(now - l.lastProgressAt);
        l.lastProgressAt = now;
      },
      answered: () => {
        const ms = performance.now() - l.writtenAt;
        if (ms > (this.ended[tool] ?? 0)) this.ended[tool] = Math.round(ms);
        this.live.delete(l);
      },
      over: () => void this.live.delete(l),
    };
  }
}
