import type { AnyStateMachine, SnapshotFrom } from 'xstate';
import type { Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { Finding } from './finding.ts';
import { idKey, other, show } from './ids.ts';
import { racePairs, type RacePair } from './racePairs.ts';
import { handlerOf, wireOf, type CallRec, type ReceiverRec, type RequesterRec, type Writable } from './records.ts';
import { receiverStepper, requesterStepper, type MachineStepper, type ReceiverEvent, type RequesterEvent } from './requestMachine.ts';
import type { Obligation, Rule, Walk } from './rule.ts';
import { sessionStepper, type SessionEvent, type sessionMachine } from './sessionMachine.ts';
import type { WalkEvent } from './walkEvent.ts';

/** The walker's own, writable records (rules see them readonly). */
export type Requester = Writable<RequesterRec>;
export type Call = Omit<Writable<CallRec>, 'req'> & { req: Requester | undefined };
export type Receiver = Writable<ReceiverRec>;

/** The caller's view of a session after a trace prefix: what `legalActions` reads. */
export interface SessionView {
  /** Current connection number and its state in the session machine. */
  readonly conn: number;
  readonly connState: string;
  readonly openCalls: readonly { readonly call: string; readonly from: Side; readonly signal?: string }[];
  readonly abortedSignals: readonly string[];
  /** Signals some call used, with whether any of their calls settled. */
  readonly signals: readonly { readonly name: string; readonly anySettled: boolean; readonly open: number }[];
}

/**
 * The state of one walk and the only ways it changes: the records of calls and requests, the
 * machines they hold (moved here, counted for coverage, refusals told to the rules), findings
 * and obligations. `TraceWalker` decides which moves a trace event makes.
 */
export abstract class WalkState implements Walk {
  readonly findings: Finding[] = [];
  readonly transitions: Record<string, number> = {};
  readonly races = Object.fromEntries(racePairs.map((r) => [r, 0])) as Record<RacePair, number>;
  readonly obligations: Obligation[] = [];

  protected abstract readonly rules: readonly Rule[];
  private readonly seen = new Set<string>();
  protected readonly callsByLabel = new Map<string, Call>();
  /**
   * Requests by sender: `side:client:idKey`. 1.x ids are unique per Protocol instance across
   * connections, and each client (and the `Server` of its session) is its own instance, so two
   * clients both numbering from 0 do not collide.
   */
  protected readonly requesters = new Map<string, Requester>();
  /** Which client each connection belongs to (`connect` events; 0 unless the scenario has several). */
  protected readonly connClient = new Map<number, number>();
  /** Requests by receiver: `requester:conn:idKey` → every delivery, oldest first. */
  protected readonly received = new Map<string, Receiver[]>();
  /** Progress tokens of requests sent: `requester:conn:token`. */
  protected readonly sentTokens = new Map<string, Requester>();
  /** Progress tokens of requests received: `receiver:conn:token`. */
  protected readonly receivedTokens = new Map<string, Receiver>();
  protected readonly sessions = new Map<number, SnapshotFrom<typeof sessionMachine>>();
  /** Aborted caller signals → the step of their abort. */
  protected readonly abortedSignals = new Map<string, number>();
  /** The current connection (the latest `connect`). */
  protected conn = 0;
  protected currentStep = 0;

  constructor(private readonly coverage: boolean) {}

  get step(): number {
    return this.currentStep;
  }

  // ── What rules read (`Walk`) ─────────────────────────────────────────────────────────────

  calls(): IterableIterator<CallRec> {
    return this.callsByLabel.values();
  }

  *receivers(): IterableIterator<Receiver> {
    for (const list of this.received.values()) yield* list;
  }

  requester(side: Side, conn: number, id: unknown): Requester | undefined {
    return this.requesters.get(this.reqKey(side, conn, id));
  }

  requesterOfClient(side: Side, client: number, id: unknown): RequesterRec | undefined {
    return this.requesters.get(`${side}:${client}:${idKey(id)}`);
  }

  clientOf(conn: number): number {
    return this.connClient.get(conn) ?? 0;
  }

  label(rec: RequesterRec): string {
    return rec.call?.call ?? `${rec.from}:${show(rec.id)}`;
  }

  receivedLabel(rec: ReceiverRec): string {
    const req = this.requester(other(rec.side), rec.conn, rec.id);
    return req ? this.label(req) : `${other(rec.side)}:${show(rec.id)}`;
  }

  flag(f: Finding, dedupe = true): void {
    if (dedupe) {
      const k = `${f.invariant}|${f.request ?? f.at}`;
      if (this.seen.has(k)) return;
      this.seen.add(k);
    }
    this.findings.push(f);
  }

  oblige(o: Obligation): void {
    this.obligations.push(o);
  }

  /** The caller's view of the session after the events fed so far. */
  view(): SessionView {
    const snap = this.sessions.get(this.conn);
    const signals = new Map<string, { anySettled: boolean; open: number }>();
    for (const c of this.callsByLabel.values()) {
      const s = c.options.signal;
      if (s === undefined) continue;
      const v = signals.get(s) ?? { anySettled: false, open: 0 };
      if (c.settled) v.anySettled = true;
      else v.open++;
      signals.set(s, v);
    }
    return {
      conn: this.conn,
      connState: snap ? sessionStepper.key(snap) : 'none',
      openCalls: [...this.callsByLabel.values()]
        .filter((c) => !c.settled)
        .map((c) => ({ call: c.call, from: c.from, ...(c.options.signal !== undefined && { signal: c.options.signal }) })),
      abortedSignals: [...this.abortedSignals.keys()],
      signals: [...signals].map(([name, v]) => ({ name, ...v })),
    };
  }

  // ── Keys ─────────────────────────────────────────────────────────────────────────────────

  /** The key of request `id` sent by `side` on connection `conn` in `requesters`. */
  protected reqKey(side: Side, conn: number, id: unknown): string {
    return `${side}:${this.clientOf(conn)}:${idKey(id)}`;
  }

  /** The latest delivery of request `id` to `side` on `conn`. */
  protected receiverFor(side: Side, conn: number, id: unknown): Receiver | undefined {
    const list = this.received.get(`${other(side)}:${conn}:${idKey(id)}`);
    return list?.[list.length - 1];
  }

  // ── Moves ────────────────────────────────────────────────────────────────────────────────

  /** Tells every rule, in order. */
  protected emit(o: WalkEvent): void {
    for (const r of this.rules) (r[o.kind] as ((o: WalkEvent) => void) | undefined)?.(o);
  }

  protected reqMove(rec: Requester, event: RequesterEvent['type'], e: TraceEvent): boolean {
    const next = this.move(requesterStepper, 'requester', rec.snap, event);
    if (next) rec.snap = next;
    else this.emit({ kind: 'refused', machine: 'requester', e, event, rec, wire: wireOf(rec) });
    return next !== undefined;
  }

  protected rcvMove(rec: Receiver, event: ReceiverEvent['type'], e: TraceEvent): boolean {
    const next = this.move(receiverStepper, 'receiver', rec.snap, event);
    if (next) rec.snap = next;
    else this.emit({ kind: 'refused', machine: 'receiver', e, event, rec, wire: wireOf(rec), handler: handlerOf(rec) });
    return next !== undefined;
  }

  protected sessionMove(e: TraceEvent, conn: number, event: SessionEvent['type']): void {
    const snap = this.sessions.get(conn);
    if (!snap) return;
    const next = this.move(sessionStepper, 'session', snap, event);
    if (next) this.sessions.set(conn, next);
    else this.emit({ kind: 'refused', machine: 'session', e, event, conn });
  }

  protected race(r: RacePair): void {
    if (this.coverage) this.races[r]++;
  }

  /** Whether race pairs are counted (some take a scan to spot). */
  protected get countsCoverage(): boolean {
    return this.coverage;
  }

  private move<M extends AnyStateMachine>(stepper: MachineStepper<M>, machine: string, snap: SnapshotFrom<M>, event: string): SnapshotFrom<M> | undefined {
    const next = stepper.step(snap, event);
    if (next && this.coverage) {
      const k = `${machine}: ${stepper.key(snap)} -${event}-> ${stepper.key(next)}`;
      this.transitions[k] = (this.transitions[k] ?? 0) + 1;
    }
    return next;
  }
}
