import type { AnyStateMachine, SnapshotFrom } from 'xstate';
import type { Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { Clock } from './clock.ts';
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
  /** Real clock only: when each pending obligation is due (the time it was made plus the in-flight bound). */
  protected readonly dueAt = new Map<Obligation, number>();

  protected abstract readonly rules: readonly Rule[];
  /**
   * For each walk event kind, the hooks of the rules that have one, in rule order: the walker
   * emits several events per trace event, and asking all ten rules for each cost more than
   * the hooks themselves. Set once the rules exist (`setRules`).
   */
  private hooks: HookLists = {};
  private readonly seen = new Set<string>();
  protected readonly callsByLabel = new Map<string, Call>();
  /**
   * Requests by sender: `server:client:idKey`, `client:client.instance:idKey`. 1.x ids are
   * unique per Protocol instance across connections, and each client (and the `Server` of its
   * session) is its own instance, so two clients both numbering from 0 do not collide; nor does
   * a fresh `Client` (a fresh reconnect) numbering from 0 again with the one it replaced.
   */
  protected readonly requesters = new Map<string, Requester>();
  /** Which client each connection belongs to (`connect` events; 0 unless the scenario has several). */
  protected readonly connClient = new Map<number, number>();
  /** Which SDK `Client` of its client each connection's client side is: 0, one more per fresh reconnect. */
  protected readonly connInstance = new Map<number, number>();
  /** The current `Client` instance of each client (absent: 0). */
  protected readonly currentInstance = new Map<number, number>();
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
  /** Time of the event being fed. */
  protected currentT = 0;

  constructor(
    private readonly coverage: boolean,
    readonly clock: Clock,
  ) {}

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
    return this.requesters.get(senderKey(side, client, this.currentClientInstance(client), id));
  }

  clientOf(conn: number): number {
    return this.connClient.get(conn) ?? 0;
  }

  clientInstanceOf(conn: number): number {
    return this.connInstance.get(conn) ?? 0;
  }

  currentClientInstance(client: number): number {
    return this.currentInstance.get(client) ?? 0;
  }

  abortStep(signal: string): number | undefined {
    return this.abortedSignals.get(signal);
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
    if (this.clock.kind === 'real') this.dueAt.set(o, this.currentT + this.clock.inFlightMs);
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
    return senderKey(side, this.clientOf(conn), this.clientInstanceOf(conn), id);
  }

  /** The latest delivery of request `id` to `side` on `conn`. */
  protected receiverFor(side: Side, conn: number, id: unknown): Receiver | undefined {
    const list = this.received.get(`${other(side)}:${conn}:${idKey(id)}`);
    return list?.[list.length - 1];
  }

  // ── Moves ────────────────────────────────────────────────────────────────────────────────

  /** Collects the rules' hooks by event kind; call once, when the rules are made. */
  protected indexHooks(rules: readonly Rule[]): void {
    this.hooks = hookLists(rules);
  }

  /** Tells every rule that listens for `o.kind`, in rule order. */
  protected emit(o: WalkEvent): void {
    const hooks = this.hooks[o.kind];
    if (hooks === undefined) return;
    for (let k = 0; k < hooks.length; k++) hooks[k]!(o);
  }

  protected reqMove(rec: Requester, event: RequesterEvent['type'], e: TraceEvent): boolean {
    const next = this.move(requesterStepper, requesterKeys, rec.snap, event);
    if (next) rec.snap = next;
    else this.emit({ kind: 'refused', machine: 'requester', e, event, rec, wire: wireOf(rec) });
    return next !== undefined;
  }

  protected rcvMove(rec: Receiver, event: ReceiverEvent['type'], e: TraceEvent): boolean {
    const next = this.move(receiverStepper, receiverKeys, rec.snap, event);
    if (next) rec.snap = next;
    else this.emit({ kind: 'refused', machine: 'receiver', e, event, rec, wire: wireOf(rec), handler: handlerOf(rec) });
    return next !== undefined;
  }

  protected sessionMove(e: TraceEvent, conn: number, event: SessionEvent['type']): void {
    const snap = this.sessions.get(conn);
    if (!snap) return;
    const next = this.move(sessionStepper, sessionKeys, snap, event);
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

  private move<M extends AnyStateMachine>(stepper: MachineStepper<M>, keys: TransitionKeys, snap: SnapshotFrom<M>, event: string): SnapshotFrom<M> | undefined {
    const next = stepper.step(snap, event);
    if (next && this.coverage) {
      const k = keys.of(stepper, snap, event, next);
      this.transitions[k] = (this.transitions[k] ?? 0) + 1;
    }
    return next;
  }
}

/**
 * The key of request `id` of one sender in `requesters`: a `Server` is one Protocol instance
 * for all its client's connections, a client side one per `Client` object (`instance`).
 */
function senderKey(side: Side, client: number, instance: number, id: unknown): string {
  return side === 'server' ? `server:${client}:${idKey(id)}` : `client:${client}.${instance}:${idKey(id)}`;
}

type HookLists = { [K in WalkEvent['kind']]?: ((o: WalkEvent) => void)[] };

/** Every walk event kind (a record, so that a new kind must be listed here to compile). */
const walkEventKinds: Readonly<Record<WalkEvent['kind'], true>> = {
  frameSent: true,
  requestSent: true,
  strayResponse: true,
  cancelSent: true,
  strayProgress: true,
  progressSent: true,
  cancelDelivered: true,
  progressDelivered: true,
  responseDelivered: true,
  callSettled: true,
  callSettledAgain: true,
  onprogress: true,
  handlerAborted: true,
  handlerEnded: true,
  sideClosed: true,
  connectionClosed: true,
  refused: true,
};
const isWalkEventKind = (k: string): k is WalkEvent['kind'] => Object.hasOwn(walkEventKinds, k);

/**
 * The hooks of `rules` by kind, bound to their rule, in rule order; kinds nobody hooks are absent.
 * Every walk makes its own rules, so this runs once per walk: a rule made as an object literal
 * lists its few hooks by itself, any other (a class instance) is asked for every kind.
 */
function hookLists(rules: readonly Rule[]): HookLists {
  const lists: HookLists = {};
  for (const r of rules) {
    if (Object.getPrototypeOf(r) === Object.prototype) {
      for (const key in r) if (isWalkEventKind(key)) addHook(lists, r, key);
    } else {
      for (const key in walkEventKinds) addHook(lists, r, key as WalkEvent['kind']);
    }
  }
  return lists;
}

function addHook(lists: HookLists, r: Rule, kind: WalkEvent['kind']): void {
  const hook = r[kind] as ((o: WalkEvent) => void) | undefined;
  if (typeof hook !== 'function') return;
  (lists[kind] ??= []).push(hook.bind(r));
}

/**
 * Coverage's names of one machine's transitions (`requester: A -EVENT-> B`), memoized per
 * (canonical snapshot, event): a walk counts every move, and building the name each time cost
 * more than the move. The next snapshot is a function of the pair, so the name is too.
 */
class TransitionKeys {
  private readonly byFrom = new Map<object, Map<string, string>>();

  constructor(private readonly machine: string) {}

  of<M extends AnyStateMachine>(stepper: MachineStepper<M>, snap: SnapshotFrom<M>, event: string, next: SnapshotFrom<M>): string {
    let byEvent = this.byFrom.get(snap);
    if (!byEvent) this.byFrom.set(snap, (byEvent = new Map()));
    let k = byEvent.get(event);
    if (k === undefined) byEvent.set(event, (k = `${this.machine}: ${stepper.key(snap)} -${event}-> ${stepper.key(next)}`));
    return k;
  }
}

const requesterKeys = new TransitionKeys('requester');
const receiverKeys = new TransitionKeys('receiver');
const sessionKeys = new TransitionKeys('session');
