import type { Endpoint } from '../../real/connection.ts';
import type { OpenConnection } from '../../real/openConnection.ts';
import type { Plan } from '../../real/plan.ts';
import { runPlan } from '../../real/runPlan.ts';
import { CONNECTION_ID_SPAN, SharedConnection, type CaseWaits, type SharedCase } from '../../real/sharedConnection.ts';
import { WarmPool } from '../../real/warmPool.ts';
import type { Openings } from './efficiency.ts';
import type { RealRun } from '../../targets/Target.ts';

/** How the cases of a campaign shared their connections, for the report. */
export interface SharingStats {
  /** Processes (or sessions) the shared runs used. */
  readonly connections: number;
  /** The most cases in flight on one connection at once. */
  readonly maxAtOnce: number;
  /** The median of cases in flight on its connection when a case started. */
  readonly medianAtOnce: number;
  /** Frames of a case read after its slice was cut (not judged). */
  readonly lateFrames: number;
  /** Progress tokens renamed because an earlier case on the connection used them. */
  readonly renamedTokens: number;
  /** Ping round trips the shared connections measured while they carried cases, ms. */
  readonly roundTrips: readonly number[];
}

/**
 * Where the plans of a campaign run: on shared connections, many at once (`parallel` of them,
 * each carrying as many cases as its answer times allow), or each on a fresh connection of its
 * own, taken from connections started ahead of need (`WarmPool`: a process, or a session on a
 * server process of its own). Start-up is paid once for the shared ones (the connection that
 * listed the tools is the first) and off the critical path for the fresh ones.
 */
export class PlanRunner {
  private readonly lanes: SharedConnection[] = [];
  private opening = 0;
  /** Shared connections opened so far: each takes the next range of request ids. */
  private lanesOpened = 0;
  /** The shared connections still opening: `close` waits for them (one that opens after the end is closed at once). */
  private readonly opens = new Set<Promise<void>>();
  private closed = false;
  private failed: unknown;
  private readonly waiting = new Set<() => void>();
  private first: OpenConnection | undefined;
  private readonly atOnce: number[] = [];
  private renamed = 0;
  private late = 0;
  /** Connections for shared runs (a session on the one server `--start` started, or a process each). */
  readonly lanePool: WarmPool;
  /** Connections for fresh runs (a process of their own). */
  readonly freshPool: WarmPool;

  constructor(
    endpoint: Endpoint,
    private readonly parallel: number,
    readonly waits: CaseWaits,
    /** The connection that listed the tools: the first shared one. */
    first?: OpenConnection,
  ) {
    // The connection that listed the tools was this target's first: a later failed open gets its second try.
    this.lanePool = new WarmPool(endpoint, { shared: true }, { openedBefore: first !== undefined });
    this.freshPool = new WarmPool(endpoint);
    this.first = first;
  }

  /**
   * Runs `plans` on shared connections, many at once; resolves with each one's run, in order.
   * `judgeClose`: one connection closes when the plans are done, and its last case shows the close
   * (a server that does not exit on stdin EOF, or keeps a deleted session, does so on every
   * connection); the others stay open for the next plans, start-up paid once.
   */
  async shared(plans: readonly Plan[], options: { readonly judgeClose: boolean; readonly onDone?: () => void }): Promise<RealRun[]> {
    const running: Promise<SharedCase>[] = [];
    for (let k = 0; k < plans.length; ) {
      if (this.failed !== undefined) throw this.failed;
      // A campaign that ended (a refused server, an error elsewhere) starts no more cases: waiting for a lane would poll forever.
      if (this.closed) throw new Error('the campaign ended: its shared connections are closed');
      const lane = this.free(plans[k]!);
      if (!lane) {
        this.grow();
        await this.change();
        continue;
      }
      const at = k++;
      running.push(
        lane.run(plans[at]!).then((c) => {
          this.atOnce.push(c.atOnce);
          this.renamed += c.renamedTokens;
          options.onDone?.();
          this.poke();
          return c;
        }),
      );
    }
    if (options.judgeClose) this.lanes.find((l) => l.usable)?.drain(true);
    // Every case's slice is cut once all are done, with the quiet windows as the campaign knows them by then.
    const cases = await Promise.all(running);
    return Promise.all(
      cases.map(async (c) => {
        const { trace, lateFrames } = await c.slice();
        this.late += lateFrames;
        return { trace, startupMs: undefined, t0: c.t0, atOnce: c.atOnce, lateFrames };
      }),
    );
  }

  /** One plan on a fresh connection of its own (a warm one), closed at its end: the run as `--fresh` runs every case. */
  async fresh(plan: Plan): Promise<RealRun> {
    const open = await this.freshPool.take();
    const { conn, inbox, recorder, t0, hello, startupMs } = open;
    await runPlan(undefined, plan, { hangAfterMs: this.waits.hangAfterMs, ...(this.waits.pace && { pace: this.waits.pace }), tailMs: this.waits.quietMs(plan), reuse: { conn, inbox, recorder, t0, hello, startupMs, close: true } });
    return { trace: recorder.events, startupMs, t0 };
  }

  /** Closes every shared connection and every spare (the end of the campaign). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.opens);
    if (this.first) await this.first.conn.close().catch(() => undefined);
    this.first = undefined;
    for (const lane of this.lanes) lane.drain(false);
    await Promise.all([...this.lanes.map((l) => l.close()), this.lanePool.close(), this.freshPool.close()]);
  }

  /** How the shared runs went. */
  stats(): SharingStats {
    const sorted = [...this.atOnce].sort((a, b) => a - b);
    return {
      connections: this.lanes.length,
      maxAtOnce: Math.max(0, ...this.lanes.map((l) => l.maxAtOnce)),
      medianAtOnce: sorted[Math.floor(sorted.length / 2)] ?? 0,
      lateFrames: this.late,
      renamedTokens: this.renamed,
      roundTrips: this.lanes.flatMap((l) => l.roundTrips),
    };
  }

  /** Spawn (or session open) to `initialized` of every connection opened, ms, and what each started. */
  startups(): { readonly ms: number; readonly started: OpenConnection['started'] }[] {
    return [...this.lanePool.startups, ...this.freshPool.startups];
  }

  /** How the opens went, for the report: those that failed once and were tried again (`WarmPool.reopened`), of those the ones on a new server (`renewed`), and whether the server took one session per process. */
  openings(): Openings {
    return { retried: this.lanePool.reopened + this.freshPool.reopened, renewed: this.lanePool.renewed + this.freshPool.renewed, oneSessionPerServer: this.lanePool.oneSessionPerServer };
  }

  /** The shared connection with the fewest cases on it that takes `plan` now. */
  private free(plan: Plan): SharedConnection | undefined {
    let best: SharedConnection | undefined;
    for (const lane of this.lanes) if (lane.accepts(plan) && (!best || lane.inFlight < best.inFlight)) best = lane;
    return best;
  }

  /** Opens one more shared connection when fewer than `parallel` are usable (or opening). */
  private grow(): void {
    if (this.closed) return;
    if (this.lanes.filter((l) => l.usable).length + this.opening >= this.parallel) return;
    this.opening++;
    const first = this.first;
    this.first = undefined;
    // The pool hands this connection over while it may still be starting: it is this runner's to
    // close from then on, so `close` waits for it (a campaign can end before a slow start-up does).
    const opened: Promise<void> = (first ? Promise.resolve(first) : this.lanePool.take())
      .then((open) => void this.lanes.push(SharedConnection.over(open, this.waits, this.lanesOpened++ * CONNECTION_ID_SPAN)))
      .catch((error: unknown) => void (this.failed = error))
      .finally(() => {
        this.opening--;
        this.opens.delete(opened);
        this.poke();
      });
    this.opens.add(opened);
  }

  /** Until a case ends or a connection opens, or a short while (a connection's allowance may have grown). */
  private change(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, 20);
      this.waiting.add(done);
    });
  }

  private poke(): void {
    for (const w of [...this.waiting]) w();
  }
}
