/** The bounds a silent call is measured against: `--hang-after`, and what each tool has shown it takes (`RealClock`). */
export interface SilenceBounds {
  /** A call silent (no progress, no answer) this long is stuck, whatever its tool. */
  readonly hangAfterMs: number;
  /** How long a call of each tool may stay silent, when that is longer than `hangAfterMs`. */
  readonly toolSilenceMs?: Readonly<Record<string, number>>;
}

/**
 * Slow is not stuck: how long a call of `tool` may stay silent (no progress for it, no answer)
 * before it is stuck: its tool's bound (`toolSilenceMs`), never under `hangAfterMs`. The real-time
 * runner (src/real/runPlan.ts) waits this long before it leaves a call, and the model judges
 * `liveness.call-settles` with the same bound: one rule, in a leaf both layers may import.
 */
export function silenceBoundMs(bounds: SilenceBounds, tool: string | undefined): number {
  return Math.max(bounds.hangAfterMs, (tool === undefined ? undefined : bounds.toolSilenceMs?.[tool]) ?? 0);
}
