import type { SdkFacts } from '../sdk/facts.ts';
import type { EndState } from '../sim/endState.ts';
import type { CallOptions, Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import { VIRTUAL_CLOCK, type Clock } from './clock.ts';
import { classifyFrame, type Classified } from '../util/jsonrpc.ts';
import { idKey, isValidId, other } from './ids.ts';
import { handlerOf, wireOf, type CallRec, type SettleCause } from './records.ts';
import { receiverStepper, requesterStepper } from './requestMachine.ts';
import type { Rule, RunEnd, Walk } from './rule.ts';
import { sessionStepper } from './sessionMachine.ts';
import { WalkState, type Call, type Receiver, type Requester } from './walkState.ts';

export type { SessionView } from './walkState.ts';

type Ev<K extends TraceEvent['kind']> = Extract<TraceEvent, { kind: K }>;

export interface WalkerOptions {
  /**
   * The SDK's facts, to tell its timeout rejections from others. Without them no rejection
   * counts as a timeout: right for `legalActions`' session view, which never asks; wrong for
   * judging and coverage, which always pass them.
   */
  readonly facts?: SdkFacts;
  /** Count model transitions and race pairs (`coverage.ts`). @default false */
  readonly coverage?: boolean;
  /** The rules that judge the walk, made once the walker exists; their hooks run in this order. */
  readonly rules?: (walk: Walk) => readonly Rule[];
  /**
   * Revision 2026-07-28 on Streamable HTTP: a client closing a POST's stream is the cancel of the
   * requests it carried, so the step of its disconnect counts as their cancel step (what the
   * cancel-in-that-step checks read). @default false
   */
  readonly streamCloseCancels?: boolean;
  /**
   * The clock the trace was recorded on. On a real one (a black-box run) every event is its own
   * step: obligations fall due by time (`Obligation`), and a call's request binds to it whatever
   * step it was written in. @default VIRTUAL_CLOCK
   */
  readonly clock?: Clock;
}

/** `re` matches `text` (`search` ignores a global regex's `lastIndex`: facts are shared data). */
const matches = (re: RegExp, text: string): boolean => text.search(re) !== -1;

/**
 * One walk over one trace: a request machine per request on each side, a session machine per
 * connection, the calls, progress tokens, connection→client map and step boundaries. It knows
 * the model's transitions and nothing of invariants: it tells its rules what happened
 * (`WalkEvent`, including every refused transition) and checks their obligations when a step
 * ends. Pure: reads the trace and the end-state snapshot, never the world.
 */
export class TraceWalker extends WalkState {
  protected readonly rules: readonly Rule[];
  /** The rules' `trace` hooks, bound, in rule order (most rules have none). */
  private readonly traceHooks: ((e: TraceEvent) => void)[] = [];
  private readonly facts: SdkFacts | undefined;
  /** `side:conn` pairs that learnt their connection closed. */
  private readonly closed = new Set<string>();
  /** The call started last on each side, waiting for its request to be sent in the same step. */
  private readonly starting = new Map<Side, Call>();
  private ended = false;
  /** `streamCloseCancels`: the frame seqs of each client exchange, and the request ids they carried. */
  private readonly exchangeSeqs: Map<number, { readonly conn: number; readonly seqs: readonly number[]; readonly ids: unknown[] }> | undefined;

  constructor(options: WalkerOptions = {}) {
    super(options.coverage ?? false, options.clock ?? VIRTUAL_CLOCK);
    this.facts = options.facts;
    this.exchangeSeqs = options.streamCloseCancels ? new Map() : undefined;
    this.rules = options.rules?.(this) ?? [];
    this.indexHooks(this.rules);
    for (const r of this.rules) if (r.trace) this.traceHooks.push(r.trace.bind(r));
  }

  /** Feeds one event: ends the previous step first when the event starts a new one. */
  feed(e: TraceEvent): void {
    if (this.clock.kind === 'real') {
      this.settleDue(e.t);
      this.currentStep = e.step;
      this.currentT = e.t;
      // The process is gone: nothing of it is still due.
      if (e.kind === 'exit') this.dropPending();
    } else if (e.step !== this.currentStep) {
      this.endStep();
      this.currentStep = e.step;
    }
    for (let k = 0; k < this.traceHooks.length; k++) this.traceHooks[k]!(e);
    if (this.exchangeSeqs) this.noteStreamClose(e, this.exchangeSeqs);
    switch (e.kind) {
      case 'connect':
        return this.onConnect(e);
      case 'ready':
        return this.sessionMove(e, e.conn, e.error === undefined ? 'READY' : 'FAILED');
      case 'send':
        return this.onSend(e);
      case 'send-failed': {
        // A cancel the SDK tried to send counts as sent: the link was gone, not the intent.
        const c = classifyFrame(e.frame);
        if (c.type === 'notification' && c.method === 'notifications/cancelled') {
          const rec = this.requesters.get(this.reqKey(e.from, e.conn, c.params?.requestId));
          if (rec) rec.lastCancelStep = e.step;
        }
        return;
      }
      case 'deliver':
        return this.onDeliver(e);
      case 'eof':
        return this.closeTrigger(e, e.to, e.conn);
      case 'close':
        this.sessionMove(e, e.conn, e.side === 'client' ? 'CLOSE_CLIENT' : 'CLOSE_SERVER');
        this.emit({ kind: 'sideClosed', e });
        return this.closeTrigger(e, e.side, e.conn);
      case 'call-start':
        return this.onCallStart(e);
      case 'call-settle':
        return this.onCallSettle(e);
      case 'onprogress': {
        const call = this.callsByLabel.get(e.call);
        if (!call) return;
        const late = call.settled !== undefined || (call.req !== undefined && !this.reqMove(call.req, 'ONPROGRESS', e));
        if (!late) call.lastProgressT = e.t;
        return this.emit({ kind: 'onprogress', e, call, late });
      }
      case 'abort-signal':
        this.abortedSignals.set(e.signal, e.step);
        if ([...this.callsByLabel.values()].some((c) => c.options.signal === e.signal && c.settled)) this.race('shared-signal-abort-after-settle');
        return;
      case 'handler-start': {
        const rec = this.receiverFor(e.side, e.conn, e.id);
        if (rec) this.rcvMove(rec, 'START', e);
        return;
      }
      case 'handler-step': {
        const rec = this.receiverFor(e.side, e.conn, e.id);
        if (rec) this.rcvMove(rec, 'STEP', e);
        return;
      }
      case 'handler-timer':
      case 'fetch': {
        // A hosted handler's outbound call is a step of its work, like a scripted handler's step;
        // one given an aborted signal fails at once and does none.
        const rec = e.id === undefined || (e.kind === 'fetch' && e.stillborn) ? undefined : this.receiverFor(e.side, e.conn, e.id);
        if (rec) this.rcvMove(rec, 'STEP', e);
        return;
      }
      case 'handler-abort': {
        const rec = this.receiverFor(e.side, e.conn, e.id);
        if (!rec) return;
        this.rcvMove(rec, 'ABORT', e);
        return this.emit({ kind: 'handlerAborted', e, rec });
      }
      case 'handler-end': {
        const rec = this.receiverFor(e.side, e.conn, e.id);
        if (rec) this.rcvMove(rec, 'END', e);
        return this.emit({ kind: 'handlerEnded', e, rec });
      }
      case 'end':
        if (this.clock.kind === 'real') this.dropPending();
        else this.endStep();
        this.ended = true;
        return;
      default:
        return;
    }
  }

  /** Ends the walk: the last step's obligations, then every rule's end-of-run checks. */
  finish(last: TraceEvent | undefined, endState: EndState | undefined): void {
    if (this.clock.kind === 'real') this.dropPending();
    else if (!this.ended) this.endStep();
    const end: RunEnd = { at: last?.i ?? 0, t: last?.t ?? 0, outcome: last?.kind === 'end' ? last.outcome : 'quiescent', endState };
    for (const r of this.rules) r.finish?.(end);
  }

  /** Real clock: checks, in the order they were made, the obligations due before `t`. */
  private settleDue(t: number): void {
    if (this.obligations.length === 0) return;
    const due = this.obligations.filter((o) => this.dueAt.get(o)! < t);
    if (due.length === 0) return;
    for (const o of due) {
      this.obligations.splice(this.obligations.indexOf(o), 1);
      this.dueAt.delete(o);
    }
    for (const o of due) o.check(this);
  }

  /**
   * Real clock: the trace ends (or the process exited) before these fell due. Not enough time was
   * observed to blame anyone (least blame): they are dropped unchecked.
   */
  private dropPending(): void {
    this.obligations.splice(0);
    this.dueAt.clear();
  }

  /** Obligations due by the end of the scheduler's step, in the order they were made. */
  private endStep(): void {
    this.starting.clear();
    if (this.obligations.length === 0) return;
    for (const o of this.obligations.splice(0)) o.check(this);
  }

  // ── Events ───────────────────────────────────────────────────────────────────────────────

  private onConnect(e: Ev<'connect'>): void {
    const client = e.client ?? 0;
    this.connClient.set(e.conn, client);
    if (e.fresh) this.currentInstance.set(client, this.currentClientInstance(client) + 1);
    this.connInstance.set(e.conn, this.currentClientInstance(client));
    if (e.conn > 1 && this.countsCoverage) {
      const mine = (conn: number) => conn < e.conn && this.clientOf(conn) === client;
      const old = [...this.callsByLabel.values()].some((c) => !c.settled && mine(c.conn));
      const handlers = [...this.receivers()].some((r) => mine(r.conn) && handlerOf(r) !== 'ended');
      if (old || handlers) this.race('reconnect-with-pending-timer');
      if (e.fresh && handlers) this.race('restart-with-running-handler');
    }
    this.conn = e.conn;
    this.sessions.set(e.conn, sessionStepper.initial);
  }

  private onCallStart(e: Ev<'call-start'>): void {
    const call: Call = {
      call: e.call,
      from: e.from,
      conn: e.conn,
      id: e.id,
      options: (e.options ?? {}) as CallOptions,
      startT: e.t,
      startI: e.i,
      req: undefined,
      settled: undefined,
      lastProgressT: undefined,
    };
    this.callsByLabel.set(e.call, call);
    this.starting.set(e.from, call);
  }

  /** Why a call settled, read from the SDK's rejection (`SdkFacts`). */
  private settleCause(e: Ev<'call-settle'>, call: CallRec): SettleCause {
    if (e.outcome === 'resolved') return 'result';
    const msg = e.message ?? '';
    const facts = this.facts;
    if (facts && matches(facts.errorText.maxTotalTimeout, msg)) return 'max-total';
    if (call.options.signal !== undefined && this.abortedSignals.get(call.options.signal) === e.step) return 'abort';
    if (facts && e.code === facts.requestTimeoutCode && matches(facts.errorText.requestTimeout, msg)) return 'timeout';
    return 'other';
  }

  private onCallSettle(e: Ev<'call-settle'>): void {
    const call = this.callsByLabel.get(e.call);
    if (!call) return;
    if (call.settled) return this.emit({ kind: 'callSettledAgain', e, call });
    const why = this.settleCause(e, call);
    call.settled = { t: e.t, i: e.i, outcome: e.outcome, why };
    const rec = call.req;
    const wire = rec && wireOf(rec);
    if (rec) {
      if ((why === 'timeout' || why === 'max-total') && (wire === 'pending' || wire === 'progressing')) this.reqMove(rec, 'TIMEOUT', e);
      this.reqMove(rec, 'SETTLE', e);
    }
    this.emit({ kind: 'callSettled', e, call, wire });
  }

  private onSend(e: Ev<'send'>): void {
    const c = classifyFrame(e.frame);
    this.emit({ kind: 'frameSent', e, frame: c });
    if (c.type === 'request') return this.onSendRequest(e, c);
    if (c.type === 'response') return this.onSendResponse(e, c);
    if (c.type !== 'notification') return;
    if (c.method === 'notifications/cancelled') return this.onSendCancel(e, c.params);
    if (c.method === 'notifications/progress') return this.onSendProgress(e, c.params);
  }

  private onSendRequest(e: Ev<'send'>, c: Extract<Classified, { type: 'request' }>): void {
    const X = e.from;
    const rec: Requester = {
      from: X,
      conn: e.conn,
      id: c.id,
      method: c.method,
      sentI: e.i,
      token: undefined,
      call: undefined,
      snap: requesterStepper.initial,
      lastCancelStep: undefined,
      streamClosedStep: undefined,
      delivered: false,
    };
    // The call that sent it: started by X in this step with this id (a call rejected before sending has no request).
    const call = this.starting.get(X);
    if (call && call.id === c.id && !call.req && !call.settled) {
      rec.call = call;
      call.req = rec;
    }
    this.starting.delete(X);
    this.requesters.set(this.reqKey(X, e.conn, c.id), rec);
    const token = (c.params?._meta as Record<string, unknown> | undefined)?.progressToken;
    let tokenHolder: Requester | undefined;
    if (token !== undefined) {
      rec.token = idKey(token);
      const tk = `${X}:${e.conn}:${rec.token}`;
      tokenHolder = this.sentTokens.get(tk);
      this.sentTokens.set(tk, rec);
    }
    this.emit({ kind: 'requestSent', e, params: c.params, rec, tokenHolder });
  }

  private onSendResponse(e: Ev<'send'>, c: Extract<Classified, { type: 'response' }>): void {
    const Y = e.from;
    const list = this.received.get(`${other(Y)}:${e.conn}:${idKey(c.id)}`);
    if (!list) {
      const elsewhere = [...this.receivers()].find((r) => r.side === Y && idKey(r.id) === idKey(c.id) && r.conn !== e.conn);
      return this.emit({ kind: 'strayResponse', e, id: c.id, elsewhere });
    }
    const rec = list.find((r) => wireOf(r) !== 'responded' && wireOf(r) !== 'closed') ?? list[list.length - 1]!;
    this.rcvMove(rec, 'RESPOND', e);
  }

  /** `streamCloseCancels`: which requests each client POST carried, and the step the client closed it. */
  private noteStreamClose(e: TraceEvent, exchanges: NonNullable<typeof this.exchangeSeqs>): void {
    if (e.kind === 'http-request' && e.at === 'client') {
      exchanges.set(e.exchange, { conn: e.conn, seqs: e.seqs, ids: [] });
    } else if (e.kind === 'send' && e.from === 'client') {
      const c = classifyFrame(e.frame);
      if (c.type !== 'request') return;
      for (const x of exchanges.values()) if (x.conn === e.conn && x.seqs.includes(e.seq)) x.ids.push(c.id);
    } else if (e.kind === 'http-disconnect' && e.at === 'client') {
      const x = exchanges.get(e.exchange);
      for (const id of x?.ids ?? []) {
        const rec = this.requesters.get(this.reqKey('client', e.conn, id));
        if (rec) {
          rec.lastCancelStep = e.step;
          rec.streamClosedStep ??= e.step;
        }
      }
    }
  }

  private onSendCancel(e: Ev<'send'>, params: Record<string, unknown> | undefined): void {
    const id = params?.requestId;
    const rec = isValidId(id) ? this.requesters.get(this.reqKey(e.from, e.conn, id)) : undefined;
    this.emit({ kind: 'cancelSent', e, requestId: id, rec });
    if (!rec) return;
    if (!rec.delivered) this.race('cancel-before-delivery');
    rec.lastCancelStep = e.step;
    this.reqMove(rec, 'CANCEL', e);
  }

  private onSendProgress(e: Ev<'send'>, params: Record<string, unknown> | undefined): void {
    const X = e.from;
    const token = params?.progressToken;
    const rec = this.receivedTokens.get(`${X}:${e.conn}:${idKey(token)}`);
    if (!rec) {
      const elsewhere = [...this.receivedTokens].find(([k]) => k.startsWith(`${X}:`) && k.endsWith(`:${idKey(token)}`))?.[1];
      return this.emit({ kind: 'strayProgress', e, token, elsewhere });
    }
    this.rcvMove(rec, 'PROGRESS', e);
    this.emit({ kind: 'progressSent', e, params, rec });
  }

  private onDeliver(e: Ev<'deliver'>): void {
    const Y = e.to;
    const X = other(Y);
    const c = classifyFrame(e.frame);
    if (c.type === 'request') {
      const rec: Receiver = { side: Y, conn: e.conn, id: c.id, method: c.method, token: undefined, snap: receiverStepper.initial };
      const key = `${X}:${e.conn}:${idKey(c.id)}`;
      const list = this.received.get(key);
      if (list) list.push(rec);
      else this.received.set(key, [rec]);
      const token = (c.params?._meta as Record<string, unknown> | undefined)?.progressToken;
      if (token !== undefined) {
        rec.token = idKey(token);
        this.receivedTokens.set(`${Y}:${e.conn}:${rec.token}`, rec);
      }
      const req = this.requesters.get(this.reqKey(X, e.conn, c.id));
      if (req) req.delivered = true;
      return;
    }
    if (c.type === 'notification' && c.method === 'notifications/cancelled') {
      const rec = this.receiverFor(Y, e.conn, c.params?.requestId);
      if (!rec) return;
      if (wireOf(rec) === 'responded') this.race('cancel-after-response');
      this.emit({ kind: 'cancelDelivered', e, rec });
      this.rcvMove(rec, 'CANCEL', e);
      return;
    }
    if (c.type === 'notification' && c.method === 'notifications/progress') {
      const rec = this.sentTokens.get(`${Y}:${e.conn}:${idKey(c.params?.progressToken)}`);
      if (!rec) return;
      const wire = wireOf(rec);
      const settled = rec.call?.settled;
      if (wire === 'responded') this.race('progress-after-response');
      if (wire === 'timedOut' || settled?.why === 'timeout' || settled?.why === 'max-total') this.race('progress-racing-timeout');
      const max = rec.call?.options.maxTotalTimeoutMs;
      if (rec.call && max !== undefined && e.t >= rec.call.startT + max) this.race('progress-at-max-total');
      this.reqMove(rec, 'PROGRESS', e);
      return this.emit({ kind: 'progressDelivered', e, rec, wire });
    }
    if (c.type === 'response') {
      const rec = this.requesters.get(this.reqKey(Y, e.conn, c.id));
      if (!rec) return;
      const wire = wireOf(rec);
      if (wire === 'cancelled' || wire === 'timedOut') this.race('response-after-cancel');
      const call = rec.call;
      const timeout = call?.options.timeoutMs ?? this.facts?.defaultRequestTimeoutMs;
      if (call?.options.resetTimeoutOnProgress && call.lastProgressT !== undefined && timeout !== undefined && e.t > call.startT + timeout) {
        this.race('response-after-first-deadline');
      }
      this.reqMove(rec, 'RESPONSE', e);
      this.emit({ kind: 'responseDelivered', e, rec, wire });
    }
  }

  /** `side` learnt that `conn` closed (its own close or the peer's end of stream): once per side and connection. */
  private closeTrigger(e: Ev<'close' | 'eof'>, side: Side, conn: number): void {
    const k = `${side}:${conn}`;
    if (this.closed.has(k)) return;
    this.closed.add(k);
    let inFlight = false;
    for (const rec of this.requesters.values()) {
      if (rec.from !== side || rec.conn !== conn) continue;
      if (rec.call && !rec.call.settled) inFlight = true;
      this.reqMove(rec, 'CLOSE', e);
    }
    for (const rec of this.receivers()) {
      if (rec.side !== side || rec.conn !== conn) continue;
      if (handlerOf(rec) === 'running') inFlight = true;
      this.rcvMove(rec, 'CLOSE', e);
    }
    if (inFlight) this.race('close-with-in-flight');
    this.emit({ kind: 'connectionClosed', e, side, conn });
  }
}
