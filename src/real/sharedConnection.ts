import { performance } from 'node:perf_hooks';
import { DEFAULT_PROCESS_START_MS } from '../options/defaults.ts';
import { TraceRecorder, type TraceEvent } from '../sim/trace.ts';
import { handshake, Inbox, type Endpoint, type TargetConnection } from './index.ts';
import type { JsonValue } from '../util/json.ts';
import { isJsonObject } from '../util/jsonrpc.ts';
import type { Plan } from './plan.ts';
import { runPlan } from './runPlan.ts';

/**
 * Whether a case left a call running: written, and never settled at the client (nobody gave it
 * up and no answer came within the bound). Its late answer would land in the next case.
 */
export function leftACallRunning(trace: readonly TraceEvent[]): boolean {
  const settled = new Set(trace.flatMap((e) => (e.kind === 'call-settle' ? [e.call] : [])));
  return trace.some((e) => e.kind === 'call-start' && !settled.has(e.call));
}

/** What every `--reuse` report and each of its findings says. */
export const REUSE_NOTE = '--reuse: state may carry over between cases';

export interface CaseBounds {
  readonly hangAfterMs: number;
  readonly inFlightMs: number;
}

/** One case run on a shared connection: its own slice of the trace, and whether the connection was retired after it. */
export interface SharedCase {
  /** The handshake, then the case's events up to the end of its quiet window (and the close, when retired), `i` from 0. */
  readonly trace: TraceEvent[];
  /** The connection was closed after this case: it ended, stayed noisy, left a call running, or this was its last case. */
  readonly retired: boolean;
  /** Real ms from spawn (or session open) to the end of the handshake, for the case that opened the connection. */
  readonly startupMs: number | undefined;
  /**
   * Frames of an earlier case read after its barrier (an answer to one of its ids, or progress
   * with a token only it used): left out of this case's trace, so they are not judged as its own.
   */
  readonly lateFrames: number;
}

/**
 * `--reuse`: many cases on one process (stdio) or one session (stateful HTTP) or one server
 * (stateless HTTP). Cases are separated by a barrier: after a case, a `ping` answered, then a
 * quiet window (the in-flight bound) in which no frame arrives, so a late frame of case k lands
 * in case k's slice, never in case k+1's. A connection that cannot be made quiet (no answer to
 * the ping, frames still coming after `hangAfterMs`), that ended, or whose case left a call
 * running (`callsLeft`) is closed, and the next case opens a fresh one.
 */
export class SharedConnection {
  private lastFrameAt = performance.now();
  private nextId = 1;
  private cases = 0;
  private closed = false;
  /** Request ids and progress tokens of the cases already run (JSON), to tell their late frames apart. */
  private readonly earlierIds = new Set<string>();
  private readonly earlierTokens = new Set<string>();

  private constructor(
    private readonly conn: TargetConnection,
    private readonly inbox: Inbox,
    private readonly recorder: TraceRecorder,
    private readonly t0: number,
    /** The handshake's events, the head of every case's slice (the judge needs the session it opened). */
    private readonly head: readonly TraceEvent[],
    private readonly startupMs: number,
    private readonly unlisten: () => void,
  ) {}

  /** Opens the target and does the handshake (a bad target throws `BadTargetError`). */
  static async open(target: Endpoint): Promise<SharedConnection> {
    const t0 = performance.now();
    const recorder = new TraceRecorder(() => Math.round((performance.now() - t0) * 10) / 10);
    const inbox = new Inbox();
    const conn = await target.open(recorder, inbox);
    try {
      await handshake(conn, inbox, DEFAULT_PROCESS_START_MS);
    } catch (error) {
      await conn.close().catch(() => undefined);
      throw error;
    }
    const startupMs = Math.round(performance.now() - t0);
    let shared: SharedConnection | undefined = undefined;
    const unlisten = inbox.listen(() => {
      if (shared) shared.lastFrameAt = performance.now();
    });
    shared = new SharedConnection(conn, inbox, recorder, t0, [...recorder.events], startupMs, unlisten);
    return shared;
  }

  /**
   * Runs `plan` on the connection, then its barrier. `callsLeft` (default `leftACallRunning`) tells from the case's
   * slice whether it left a call running (then the connection is retired: its late answer
   * would land in the next case). `last`: close the connection after this case.
   */
  async run(target: Endpoint, plan: Plan, bounds: CaseBounds, options: { readonly last: boolean; readonly callsLeft?: (trace: TraceEvent[]) => boolean }): Promise<SharedCase> {
    const from = this.recorder.events.length;
    const opened = this.cases++ === 0;
    await runPlan(target, plan, { hangAfterMs: bounds.hangAfterMs, tailMs: 2 * bounds.inFlightMs, reuse: { conn: this.conn, inbox: this.inbox, firstId: this.nextId, recorder: this.recorder, t0: this.t0 } });
    const quiet = await this.barrier(bounds);
    let cut = this.slice(from);
    const retire = options.last || !quiet || this.conn.exited || this.inbox.endedBecause !== undefined || (options.callsLeft ?? leftACallRunning)(cut.trace);
    if (retire) {
      await this.close();
      cut = this.slice(from);
    }
    this.remember(cut.trace);
    return { trace: cut.trace, retired: retire, startupMs: opened ? this.startupMs : undefined, lateFrames: cut.late };
  }

  /** Closes the connection (stdin EOF and the grace periods, or DELETE): its events end the last case's slice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unlisten();
    await this.conn.close();
    this.recorder.record({ kind: 'end', outcome: 'quiescent' });
  }

  /** A `ping` answered, then `inFlightMs` with no frame; false when either does not come within `hangAfterMs`. */
  private async barrier(bounds: CaseBounds): Promise<boolean> {
    if (this.inbox.endedBecause !== undefined) return false;
    const id = `mcp-sim-case-barrier-${this.cases}`;
    void this.conn.send({ jsonrpc: '2.0', id, method: 'ping' });
    const pong = await this.inbox.waitFor((f) => isJsonObject(f) && f.id === id && ('result' in f || 'error' in f), bounds.hangAfterMs);
    if (pong === undefined) return false;
    const until = performance.now() + bounds.hangAfterMs;
    while (performance.now() - this.lastFrameAt < bounds.inFlightMs) {
      if (performance.now() > until || this.inbox.endedBecause !== undefined) return false;
      await new Promise((r) => setTimeout(r, 10));
    }
    return true;
  }

  /**
   * The head and the events since `from` but the late frames of earlier cases, numbered from 0;
   * the ids of the next case continue after the highest sent.
   */
  private slice(from: number): { trace: TraceEvent[]; late: number } {
    // The handshake's HTTP exchanges end after it (the initialize stream's end, the 202 of initialized, the GET stream's head): theirs too.
    const exchanges = new Set(this.head.flatMap((e) => (e.kind === 'http-request' ? [e.exchange] : [])));
    const between = this.recorder.events.slice(this.head.length, from).filter((e) => 'exchange' in e && exchanges.has(e.exchange));
    const events = [...this.head, ...between, ...this.recorder.events.slice(from)];
    const ids = new Set<string>();
    const tokens = new Set<string>();
    for (const e of events) {
      const frame: JsonValue | undefined = e.kind === 'send' ? e.frame : undefined;
      if (!isJsonObject(frame)) continue;
      if (typeof frame.id === 'number' && frame.id >= this.nextId) this.nextId = frame.id + 1;
      if ('id' in frame) ids.add(JSON.stringify(frame.id));
      const token = isJsonObject(frame.params) && isJsonObject(frame.params._meta) ? frame.params._meta.progressToken : undefined;
      if (token !== undefined) tokens.add(JSON.stringify(token));
    }
    const late = (e: TraceEvent) => {
      if (e.kind !== 'deliver' || !isJsonObject(e.frame)) return false;
      const f = e.frame;
      if (('result' in f || 'error' in f) && 'id' in f) return this.earlierIds.has(JSON.stringify(f.id)) && !ids.has(JSON.stringify(f.id));
      const token = f.method === 'notifications/progress' && isJsonObject(f.params) ? f.params.progressToken : undefined;
      return token !== undefined && this.earlierTokens.has(JSON.stringify(token)) && !tokens.has(JSON.stringify(token));
    };
    const kept = events.filter((e) => !late(e));
    return { trace: kept.map((e, i) => ({ ...e, i })), late: events.length - kept.length };
  }

  /** The ids and tokens a case used (its late frames are then told apart in the next). */
  private remember(trace: readonly TraceEvent[]): void {
    for (const e of trace) {
      if (e.kind !== 'send' || !isJsonObject(e.frame) || e.i < this.head.length) continue;
      const frame = e.frame;
      if ('id' in frame) this.earlierIds.add(JSON.stringify(frame.id));
      const token = isJsonObject(frame.params) && isJsonObject(frame.params._meta) ? frame.params._meta.progressToken : undefined;
      if (token !== undefined) this.earlierTokens.add(JSON.stringify(token));
    }
  }
}
