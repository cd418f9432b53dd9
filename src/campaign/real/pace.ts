import { performance } from 'node:perf_hooks';
import { SLOW_FACTOR } from '../../options/defaults.ts';
import type { CallPace, ToolPace } from '../../real/runPlan.ts';

/** A call of a tool in flight, as the pace follows it. */
interface Live {
  readonly tool: string;
  /** The connection it was written on: a call queued behind it there waits for it, a call on another does not. */
  readonly on: object;
  readonly writtenAt: number;
  lastProgressAt: number | undefined;
}

/**
 * Slow is not stuck: what each tool of the target has shown it takes, learned while the campaign
 * runs, beside what the user stated (`--tool-duration`). A tool has shown it takes as long as its
 * longest call that ended (answered), and as long as the latest progress read for a call the
 * client stopped waiting for (cancelled, timed out, left silent) came after the call was written.
 * A call still working when its run ended (its bound, a flood, the connection's end) teaches
 * nothing: with some arguments a tool works without end (the reference server's long-running
 * operation given a duration of 10^218 s reports progress every millisecond, one of 10^6 s every
 * second), and taking that as what the tool takes made every silent call of it, in every later
 * run, wait as long (issue 32: runs of 10 minutes each, a campaign that did not end in 38).
 * A call of a tool still showing life (a progress within `--hang-after`) extends the wait of a
 * silent call of it (`silenceMs`) as long as it has run: on its own connection always (a call
 * queued behind it in the server is not stuck); on any other only while the tool has shown
 * nothing else (no call of it ended, no duration stated): then it is the only sign of how long the
 * tool takes, and after, a call working without end elsewhere must not hold every silent call of
 * the campaign as long as it runs. A silent call of a tool is waited for `SLOW_FACTOR` times that
 * (`--hang-after` at least): every run reads it live, every run is judged with what the tool had
 * shown then (`toolSilenceMs`), and the report states it.
 */
export class Pace implements ToolPace {
  /** The longest each tool was seen working: a call of it answered, or a progress of a call given up, this long after the call was written. */
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
    const out: Record<string, number> = { ...this.stated };
    for (const [tool, ms] of Object.entries(this.ended)) if (ms > (out[tool] ?? 0)) out[tool] = Math.round(ms);
    return out;
  }

  /** How long a silent call of each tool is waited for, ms: `SLOW_FACTOR` times what it showed or was stated to take. */
  get toolSilenceMs(): Readonly<Record<string, number>> {
    return Object.fromEntries(Object.entries(this.toolMs).map(([tool, ms]) => [tool, Math.round(SLOW_FACTOR * ms)]));
  }

  /** How long a silent call of `tool` on `on` is waited for now: `toolSilenceMs`, or longer while a call of it works ahead of it there (anywhere, while the tool has shown nothing else). */
  silenceMs(tool: string, on: object): number | undefined {
    const now = performance.now();
    const known = this.toolMs[tool];
    let ms = known;
    for (const l of this.live) {
      if ((l.on === on || known === undefined) && l.tool === tool && l.lastProgressAt !== undefined && now - l.lastProgressAt < this.aliveMs) ms = Math.max(ms ?? 0, now - l.writtenAt);
    }
    return ms === undefined ? undefined : Math.round(SLOW_FACTOR * ms);
  }

  /** The longest progress interval a call of each tool showed (between two of its progress notifications), ms. */
  get gapMs(): Readonly<Record<string, number>> {
    return this.gaps;
  }

  started(tool: string, on: object): CallPace {
    const l: Live = { tool, on, writtenAt: performance.now(), lastProgressAt: undefined };
    this.live.add(l);
    const learn = (ms: number) => {
      if (ms > (this.ended[tool] ?? 0)) this.ended[tool] = Math.round(ms);
    };
    return {
      progress: () => {
        const now = performance.now();
        if (l.lastProgressAt !== undefined && now - l.lastProgressAt > (this.gaps[tool] ?? 0)) this.gaps[tool] = Math.round(now - l.lastProgressAt);
        l.lastProgressAt = now;
      },
      answered: () => {
        if (this.live.delete(l)) learn(performance.now() - l.writtenAt);
      },
      stopped: () => {
        if (this.live.delete(l) && l.lastProgressAt !== undefined) learn(l.lastProgressAt - l.writtenAt);
      },
      over: () => void this.live.delete(l),
    };
  }
}
