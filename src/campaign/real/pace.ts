import { SLOW_FACTOR } from '../../options/defaults.ts';
import type { ToolPace } from '../../real/runPlan.ts';

/**
 * Slow is not stuck: what each tool of the target has shown it takes, learned while the campaign
 * runs (from the progress of calls still running and from calls that ended), beside what the user
 * stated (`--tool-duration`). A silent call of a tool is waited for `SLOW_FACTOR` times the longer
 * of the two (`toolSilenceMs`; `--hang-after` at least): every run reads it live, every run is
 * judged with it as it stood then, and the report states it.
 */
export class Pace implements ToolPace {
  private readonly learned: Record<string, number> = {};
  private readonly gaps: Record<string, number> = {};
  private silences: Record<string, number>;

  constructor(readonly stated: Readonly<Record<string, number>> = {}) {
    this.silences = Object.fromEntries(Object.entries(stated).map(([tool, ms]) => [tool, SLOW_FACTOR * ms]));
  }

  /** How long a silent call of each tool is waited for, ms: `SLOW_FACTOR` times what it showed or was stated to take. */
  get toolSilenceMs(): Readonly<Record<string, number>> {
    return this.silences;
  }

  /** What each tool showed it takes, or was stated to take (the longer), ms. */
  get toolMs(): Readonly<Record<string, number>> {
    return Object.fromEntries(Object.entries(this.silences).map(([tool, ms]) => [tool, ms / SLOW_FACTOR]));
  }

  /** The longest progress interval a call of each tool showed (between two of its progress notifications), ms. */
  get gapMs(): Readonly<Record<string, number>> {
    return this.gaps;
  }

  shown(tool: string, ms: number, silentMs: number): void {
    if (ms > (this.learned[tool] ?? 0)) {
      this.learned[tool] = Math.round(ms);
      const silence = Math.round(SLOW_FACTOR * ms);
      // A new object: a run judged earlier keeps the bounds it was judged with.
      if (silence > (this.silences[tool] ?? 0)) this.silences = { ...this.silences, [tool]: silence };
    }
    if (silentMs > (this.gaps[tool] ?? 0)) this.gaps[tool] = Math.round(silentMs);
  }
}
