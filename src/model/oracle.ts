import type { EndState } from '../sim/endState.ts';
import type { CallOptions, Side } from '../sim/scenario.ts';
import type { TraceEvent, WireId } from '../sim/trace.ts';
import { finding, type Finding } from './finding.ts';
import type { InvariantId } from './invariants.ts';
import {
  receiverStepper,
  requesterStepper,
  type MachineStepper,
  type ReceiverSnapshot,
  type RequesterSnapshot,
} from './requestMachine.ts';
import { sessionStepper } from './sessionMachine.ts';

/** The SDK's default request timeout (1.x), used when a call sets none. */
export const SDK_DEFAULT_TIMEOUT_MS = 60_000;

/** Named interleavings the coverage report counts (see `coverage.ts`). */
export const racePairs = [
  'progress-after-response',
  'cancel-after-response',
  'response-after-cancel',
  'progress-racing-timeout',
  'cancel-before-delivery',
  'close-with-in-flight',
  'reconnect-with-pending-timer',
  'shared-signal-abort-after-settle',
] as const;
export type RacePair = (typeof racePairs)[number];

const other = (s: Side): Side => (s === 'client' ? 'server' : 'client');
const idKey = (id: unknown): string => (typeof id === 'number' ? `n${id}` : `s${JSON.stringify(id)}`);
const show = (id: unknown): string => JSON.stringify(id);

type Frame = Record<string, unknown> & { params?: Record<string, unknown> };
type Classified =
  | { type: 'request'; id: unknown; method: string; params: Record<string, unknown> | undefined }
  | { type: 'notification'; method: string; params: Record<string, unknown> | undefined }
  | { type: 'response'; id: unknown; error: boolean }
  | { type: 'invalid'; why: string };

/** Shape of one JSON-RPC 2.0 frame; `invalid` says what is wrong. */
export function classifyFrame(frame: unknown): Classified {
  if (!frame || typeof frame !== 'object' || Array.isArray(frame)) return { type: 'invalid', why: 'not an object' };
  const f = frame as Frame;
  const params = f.params && typeof f.params === 'object' ? f.params : undefined;
  if (typeof f.method === 'string') {
    if ('id' in f) return { type: 'request', id: f.id, method: f.method, params };
    return { type: 'notification', method: f.method, params };
  }
  if ('result' in f || 'error' in f) return { type: 'response', id: f.id, error: 'error' in f };
  return { type: 'invalid', why: 'neither request, notification nor response' };
}

function wellFormed(f: Frame, c: Classified): string | undefined {
  if (c.type === 'invalid') return c.why;
  if (f.jsonrpc !== '2.0') return `jsonrpc is ${JSON.stringify(f.jsonrpc)}, not "2.0"`;
  if ('params' in f && (typeof f.params !== 'object' || f.params === null)) return 'params is not an object or array';
  if (c.type === 'response') {
    if ('result' in f && 'error' in f) return 'a response carries both result and error';
    if (!('id' in f)) return 'a response has no id';
    if (c.error) {
      const e = f.error as Record<string, unknown> | null;
      if (!e || !Number.isInteger(e.code) || typeof e.message !== 'string') return 'error lacks an integer code or a string message';
    }
  }
  return undefined;
}

const isValidId = (id: unknown) => typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));

interface CallRec {
  readonly call: string;
  readonly from: Side;
  readonly conn: number;
  readonly id: WireId | undefined;
  readonly options: CallOptions;
  readonly startT: number;
  readonly startI: number;
  req?: RequesterRec;
  settled?: { t: number; i: number; outcome: 'resolved' | 'rejected'; why: SettleCause };
  lastProgressT?: number;
}

type SettleCause = 'result' | 'timeout' | 'max-total' | 'abort' | 'other';

interface RequesterRec {
  readonly from: Side;
  readonly conn: number;
  readonly id: unknown;
  readonly method: string;
  readonly sentI: number;
  token?: string;
  call?: CallRec;
  snap: RequesterSnapshot;
  lastCancelStep?: number;
  delivered: boolean;
}

interface ReceiverRec {
  readonly side: Side;
  readonly conn: number;
  readonly id: unknown;
  readonly method: string;
  token?: string;
  snap: ReceiverSnapshot;
  lastProgress?: number;
  lastTotal?: number;
  zombie: boolean;
}

type Obligation =
  | { kind: 'abort'; rec: ReceiverRec; i: number; done: boolean }
  | { kind: 'cancel'; rec: RequesterRec; inv: 'timeout.sends-cancel' | 'timeout.max-total'; i: number }
  | { kind: 'onprogress'; call: CallRec; i: number; done: boolean }
  | { kind: 'close'; side: Side; conn: number; i: number };

/** What the judge can be asked besides findings. */
export interface OracleOptions {
  /** Count model transitions and race pairs (`coverage.ts`). @default false */
  readonly coverage?: boolean;
}

/** Transition and race-pair counts of one or more runs. */
export interface Coverage {
  /** `requester: wire.pending|caller.waiting -RESPONSE-> wire.responded|caller.waiting` → count. */
  readonly transitions: Record<string, number>;
  readonly races: Record<RacePair, number>;
}

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
 * The oracle's walk over one trace: request machines per request, a session machine per
 * connection, obligations that must be met before the scheduler's step ends. Pure: reads the
 * trace and the end-state snapshot, never the world.
 * @internal
 */
export class TraceWalker {
  readonly findings: Finding[] = [];
  private readonly seen = new Set<string>();
  readonly transitions: Record<string, number> = {};
  readonly races = Object.fromEntries(racePairs.map((r) => [r, 0])) as Record<RacePair, number>;

  private readonly calls = new Map<string, CallRec>();
  /**
   * Requests by sender: `side:client:idKey`. 1.x ids are unique per Protocol instance across
   * connections, and each client (and the `Server` of its session) is its own instance, so two
   * clients both numbering from 0 do not collide.
   */
  private readonly requesters = new Map<string, RequesterRec>();
  /** Which client each connection belongs to (`connect` events; 0 unless the scenario has several). */
  private readonly connClient = new Map<number, number>();
  /** Requests by receiver: `requester:conn:idKey` → every delivery, oldest first. */
  private readonly receivers = new Map<string, ReceiverRec[]>();
  /** Progress tokens of requests sent: `requester:conn:token`. */
  private readonly sentTokens = new Map<string, RequesterRec>();
  /** Progress tokens of requests received: `receiver:conn:token`. */
  private readonly receivedTokens = new Map<string, ReceiverRec>();
  private readonly sentIds = new Map<string, Set<string>>();
  private readonly sessions = new Map<number, ReturnType<typeof sessionStepper.step> & object>();
  private readonly closedAt = new Map<string, number>();
  private readonly sdkClosed = new Set<string>();
  private readonly obligations: Obligation[] = [];
  private readonly late = new Map<Side, { inv: InvariantId; rec: RequesterRec; step: number; i: number }>();
  private readonly notificationStep = new Map<Side, number>();
  private readonly abortedSignals = new Map<string, number>();
  private readonly crossings: { conn: number; side: Side; i: number; step: number }[] = [];
  private callerCloseStep = -1;
  /** The call started last on each side, waiting for its request to be sent in the same step. */
  private readonly starting = new Map<Side, CallRec>();
  private conn = 0;
  private step = 0;
  private ended = false;

  constructor(private readonly options: OracleOptions = {}) {}

  private flag(id: InvariantId, at: number, message: string, request?: string, dedupe = true): void {
    if (dedupe) {
      const k = `${id}|${request ?? at}`;
      if (this.seen.has(k)) return;
      this.seen.add(k);
    }
    this.findings.push(finding(id, at, message, request));
  }

  private move<S extends object>(
    stepper: MachineStepper<never>,
    machine: string,
    snap: S,
    event: string,
  ): S | undefined {
    const next = (stepper as unknown as MachineStepper<never>).step(snap as never, event) as S | undefined;
    if (next && this.options.coverage) {
      const k = `${machine}: ${stepper.key(snap as never)} -${event}-> ${stepper.key(next as never)}`;
      this.transitions[k] = (this.transitions[k] ?? 0) + 1;
    }
    return next;
  }

  private reqMove(rec: RequesterRec, event: string): boolean {
    const next = this.move(requesterStepper as never, 'requester', rec.snap, event);
    if (!next) return false;
    rec.snap = next;
    return true;
  }

  private rcvMove(rec: ReceiverRec, event: string): boolean {
    const next = this.move(receiverStepper as never, 'receiver', rec.snap, event);
    if (!next) return false;
    rec.snap = next;
    return true;
  }

  private wire(rec: RequesterRec | ReceiverRec): string {
    return (rec.snap.value as { wire: string }).wire;
  }

  private handlerState(rec: ReceiverRec): string {
    return (rec.snap.value as { handler: string }).handler;
  }

  /** The key of request `id` sent by `side` on connection `conn` in `requesters`. */
  private reqKey(side: Side, conn: number, id: unknown): string {
    return `${side}:${this.connClient.get(conn) ?? 0}:${idKey(id)}`;
  }

  private label(rec: RequesterRec): string {
    return rec.call?.call ?? `${rec.from}:${show(rec.id)}`;
  }

  private rcvLabel(rec: ReceiverRec): string {
    const req = this.requesters.get(this.reqKey(other(rec.side), rec.conn, rec.id));
    return req ? this.label(req) : `${other(rec.side)}:${show(rec.id)}`;
  }

  private race(r: RacePair): void {
    if (this.options.coverage) this.races[r]++;
  }

  /** Feeds one event. */
  feed(e: TraceEvent): void {
    if (e.step !== this.step) {
      this.endStep();
      this.step = e.step;
    }
    switch (e.kind) {
      case 'action':
        if (e.action.startsWith('caller #') && / close (client|server)$/.test(e.action)) this.callerCloseStep = e.step;
        return;
      case 'connect': {
        const client = e.client ?? 0;
        this.connClient.set(e.conn, client);
        const mine = (conn: number) => conn < e.conn && (this.connClient.get(conn) ?? 0) === client;
        if (e.conn > 1) {
          const old = [...this.calls.values()].some((c) => !c.settled && mine(c.conn));
          const handlers = [...this.receivers.values()].some((l) => l.some((r) => mine(r.conn) && this.handlerState(r) !== 'ended'));
          if (old || handlers) this.race('reconnect-with-pending-timer');
        }
        this.conn = e.conn;
        this.sessions.set(e.conn, sessionStepper.initial as never);
        return;
      }
      case 'ready':
        return this.session(e.conn, e.error === undefined ? 'READY' : 'FAILED', e.i);
      case 'send':
        return this.onSend(e);
      case 'send-failed': {
        // A cancel the SDK tried to send counts as sent for `timeout.sends-cancel`: the link was gone.
        const c = classifyFrame(e.frame);
        if (c.type === 'notification' && c.method === 'notifications/cancelled') {
          const rec = this.requesters.get(this.reqKey(e.from, e.conn, c.params?.requestId));
          if (rec) rec.lastCancelStep = e.step;
        }
        if (this.sdkClosed.has(`${e.from}:${e.conn}`)) {
          this.flag('lifecycle.close-settles', e.i, `${e.from} tried to send on connection ${e.conn} after it observed that connection close.`, `${e.from}:${e.conn}`);
        }
        return;
      }
      case 'deliver':
        return this.onDeliver(e);
      case 'eof':
        return this.closeTrigger(e.to, e.conn, e.i);
      case 'close': {
        this.sdkClosed.add(`${e.side}:${e.conn}`);
        this.session(e.conn, e.side === 'client' ? 'CLOSE_CLIENT' : 'CLOSE_SERVER', e.i);
        // A close in the step a {response, cancel} crossing was delivered, with no caller closing.
        const crossing = this.crossings.find((x) => x.conn === e.conn && x.step === e.step);
        if (crossing && this.callerCloseStep !== e.step) {
          this.flag('cancel.race-graceful', e.i, `the ${crossing.side} closed connection ${e.conn} right after a response and a cancel crossed; the race must leave the session usable.`, `${crossing.side}:${e.conn}`);
        }
        return this.closeTrigger(e.side, e.conn, e.i);
      }
      case 'call-start':
        return this.onCallStart(e);
      case 'call-settle':
        return this.onCallSettle(e);
      case 'onprogress': {
        const call = this.calls.get(e.call);
        if (!call) return;
        if (call.settled || (call.req && !this.reqMove(call.req, 'ONPROGRESS'))) {
          this.flag('timeout.quiet-after-settle', e.i, `onprogress of call ${e.call} ran after the call had settled.`, e.call);
          return;
        }
        call.lastProgressT = e.t;
        for (const o of this.obligations) if (o.kind === 'onprogress' && o.call === call) o.done = true;
        return;
      }
      case 'abort-signal': {
        this.abortedSignals.set(e.signal, e.step);
        if ([...this.calls.values()].some((c) => c.options.signal === e.signal && c.settled)) this.race('shared-signal-abort-after-settle');
        return;
      }
      case 'handler-start': {
        const rec = this.receiverFor(e.side, e.conn, e.id);
        if (rec) this.rcvMove(rec, 'START');
        return;
      }
      case 'handler-step': {
        const rec = this.receiverFor(e.side, e.conn, e.id);
        if (rec && !this.rcvMove(rec, 'STEP') && this.handlerState(rec) === 'aborted' && !rec.zombie) {
          rec.zombie = true;
          this.flag('cancel.zombie-work', e.i, `the ${e.side}'s handler for request ${show(e.id)} ran step #${e.index} (${e.op.kind}) after its signal aborted.`, this.rcvLabel(rec));
        }
        return;
      }
      case 'handler-abort': {
        const rec = this.receiverFor(e.side, e.conn, e.id);
        if (!rec) return;
        this.rcvMove(rec, 'ABORT');
        for (const o of this.obligations) if (o.kind === 'abort' && o.rec === rec) o.done = true;
        return;
      }
      case 'handler-end': {
        const rec = this.receiverFor(e.side, e.conn, e.id);
        if (e.outcome === 'swallowed') {
          this.flag('cancel.abort-swallowed', e.i, `the ${e.side}'s handler for request ${show(e.id)} caught its abort and returned a normal result.`, rec ? this.rcvLabel(rec) : `${other(e.side)}:${show(e.id)}`);
        }
        if (!rec) return;
        this.rcvMove(rec, 'END');
        for (const o of this.obligations) if (o.kind === 'abort' && o.rec === rec && e.outcome !== 'result' && e.outcome !== 'error') o.done = true;
        return;
      }
      case 'onerror': {
        const late = this.late.get(e.side);
        if (late && late.step === e.step) {
          this.late.delete(e.side);
          const what = late.inv === 'progress.race-silent' ? 'a late progress notification' : 'a response that arrived after the cancel';
          this.flag(late.inv, e.i, `the ${e.side} raised an error callback for ${what} of ${this.label(late.rec)} ("${e.message.slice(0, 80)}") instead of dropping it silently.`, this.label(late.rec));
        }
        return;
      }
      case 'escape':
        this.flag('harness.unhandled', e.i, `${e.source} escaped the system under test: ${e.error}`, undefined, false);
        return;
      case 'end':
        this.endStep();
        this.ended = true;
        return;
      default:
        return;
    }
  }

  private session(conn: number, event: string, at: number): void {
    const snap = this.sessions.get(conn);
    if (!snap) return;
    const next = this.move(sessionStepper as never, 'session', snap, event);
    if (next) this.sessions.set(conn, next as never);
    else if (event.startsWith('CLOSE')) {
      const side = event === 'CLOSE_CLIENT' ? 'client' : 'server';
      this.flag('lifecycle.close-once', at, `the ${side} observed the close of connection ${conn} more than once.`, `${side}:${conn}`);
    }
  }

  private receiverFor(side: Side, conn: number, id: unknown): ReceiverRec | undefined {
    const list = this.receivers.get(`${other(side)}:${conn}:${idKey(id)}`);
    return list?.[list.length - 1];
  }

  private onCallStart(e: Extract<TraceEvent, { kind: 'call-start' }>): void {
    const rec: CallRec = {
      call: e.call,
      from: e.from,
      conn: e.conn,
      id: e.id,
      options: (e.options ?? {}) as CallOptions,
      startT: e.t,
      startI: e.i,
    };
    this.calls.set(e.call, rec);
    this.starting.set(e.from, rec);
  }

  private settleCause(e: Extract<TraceEvent, { kind: 'call-settle' }>, call: CallRec): SettleCause {
    if (e.outcome === 'resolved') return 'result';
    const msg = e.message ?? '';
    if (/Maximum total timeout/.test(msg)) return 'max-total';
    if (call.options.signal !== undefined && this.abortedSignals.get(call.options.signal) === e.step) return 'abort';
    if (e.code === -32001 && /Request timed out/.test(msg)) return 'timeout';
    return 'other';
  }

  private onCallSettle(e: Extract<TraceEvent, { kind: 'call-settle' }>): void {
    const call = this.calls.get(e.call);
    if (!call) return;
    if (call.settled) {
      this.flag('timeout.quiet-after-settle', e.i, `call ${e.call} settled a second time (${e.outcome}).`, e.call);
      return;
    }
    const why = this.settleCause(e, call);
    call.settled = { t: e.t, i: e.i, outcome: e.outcome, why };
    const rec = call.req;
    if (rec) {
      const wire = this.wire(rec);
      if (e.outcome === 'resolved' && (wire === 'cancelled' || wire === 'lateResponse' || wire === 'timedOut')) {
        this.flag('cancel.late-response-silent', e.i, `call ${e.call} resolved with a response that arrived after its cancel.`, e.call);
      }
      if ((why === 'timeout' || why === 'max-total') && (wire === 'pending' || wire === 'progressing')) this.reqMove(rec, 'TIMEOUT');
      if (!this.reqMove(rec, 'SETTLE')) this.flag('timeout.quiet-after-settle', e.i, `call ${e.call} settled a second time.`, e.call);
      if ((why === 'timeout' || why === 'max-total') && rec.method !== 'initialize' && rec.lastCancelStep !== e.step) {
        this.obligations.push({ kind: 'cancel', rec, inv: why === 'timeout' ? 'timeout.sends-cancel' : 'timeout.max-total', i: e.i });
      }
    }
    const timeout = call.options.timeoutMs ?? SDK_DEFAULT_TIMEOUT_MS;
    const base = call.options.resetTimeoutOnProgress && call.lastProgressT !== undefined ? Math.max(call.startT, call.lastProgressT) : call.startT;
    const deadline = base + timeout;
    if (e.t > deadline) {
      this.flag('timeout.settles', e.i, `call ${e.call} settled at ${e.t} ms, after its timeout bound of ${deadline} ms.`, e.call);
    }
    if (why === 'timeout' && call.lastProgressT !== undefined) {
      if (call.options.resetTimeoutOnProgress && e.t < deadline) {
        this.flag('timeout.reset-on-progress', e.i, `call ${e.call} timed out at ${e.t} ms although progress at ${call.lastProgressT} ms moved its deadline to ${deadline} ms.`, e.call);
      }
    }
    const max = call.options.maxTotalTimeoutMs;
    if (max !== undefined && e.t > call.startT + max) {
      this.flag('timeout.max-total', e.i, `call ${e.call} settled at ${e.t} ms, after its maximum total timeout ended at ${call.startT + max} ms.`, e.call);
    }
    // (b) of cancel.race-graceful: the session is no longer usable after a crossing.
    if (e.outcome === 'rejected' && /Not connected|Connection closed/.test(e.message ?? '')) {
      const crossing = this.crossings.find((x) => x.conn === call.conn && x.i < call.startI);
      if (crossing && this.callerCloseStep < crossing.step) {
        this.flag('cancel.race-graceful', e.i, `call ${e.call}, started after a response and a cancel crossed, failed with "${e.message}": the race broke the session.`, e.call);
      }
    }
  }

  private onSend(e: Extract<TraceEvent, { kind: 'send' }>): void {
    const f = e.frame as Frame;
    const c = classifyFrame(f);
    const X = e.from;
    const bad = wellFormed(f, c);
    if (bad) this.flag('rpc.well-formed', e.i, `the ${X} sent a frame that is not valid JSON-RPC 2.0: ${bad}.`, `${X}:${e.conn}`);
    if (this.sdkClosed.has(`${X}:${e.conn}`)) {
      this.flag('lifecycle.close-settles', e.i, `the ${X} sent on connection ${e.conn} after it observed that connection close.`, `${X}:${e.conn}`);
    }
    if (c.type === 'request') return this.onSendRequest(e, c);
    if (c.type === 'response') return this.onSendResponse(e, c);
    if (c.type !== 'notification') return;
    if (c.method === 'notifications/cancelled') return this.onSendCancel(e, c.params);
    if (c.method === 'notifications/progress') return this.onSendProgress(e, c.params);
  }

  private onSendRequest(e: Extract<TraceEvent, { kind: 'send' }>, c: Extract<Classified, { type: 'request' }>): void {
    const X = e.from;
    if (!isValidId(c.id)) {
      this.flag('rpc.request-id-type', e.i, `the ${X} sent ${c.method} with id ${show(c.id)}; request ids must be strings or integers.`, `${X}:${show(c.id)}`);
    }
    const ids = this.sentIds.get(`${X}:${e.conn}`) ?? new Set<string>();
    this.sentIds.set(`${X}:${e.conn}`, ids);
    const k = idKey(c.id);
    if (ids.has(k)) this.flag('rpc.request-id-unique', e.i, `the ${X} reused request id ${show(c.id)} on connection ${e.conn}.`, `${X}:${show(c.id)}`);
    ids.add(k);
    const rec: RequesterRec = { from: X, conn: e.conn, id: c.id, method: c.method, sentI: e.i, snap: requesterStepper.initial, delivered: false };
    // The call that sent it: the latest started call from X with this id.
    // The call that sent it: started by X in this step with this id (a call rejected before sending has no request).
    const call = this.starting.get(X);
    if (call && call.id === c.id && !call.req && !call.settled) {
      rec.call = call;
      call.req = rec;
    }
    this.starting.delete(X);
    this.requesters.set(this.reqKey(X, e.conn, c.id), rec);
    const meta = (c.params?._meta ?? undefined) as Record<string, unknown> | undefined;
    const token = meta?.progressToken;
    if (rec.call) {
      const o = rec.call.options;
      for (const [mk, mv] of Object.entries(o.meta ?? {})) {
        if (JSON.stringify(meta?.[mk]) !== JSON.stringify(mv)) {
          this.flag('rpc.params-preserved', e.i, `request ${rec.call.call} left without the caller's _meta.${mk}.`, rec.call.call);
        }
      }
      if (!!o.onprogress !== (token !== undefined)) {
        this.flag('rpc.params-preserved', e.i, `request ${rec.call.call} ${o.onprogress ? 'lacks the progress token the caller asked for' : 'carries a progress token nobody asked for'}.`, rec.call.call);
      }
    }
    if (token !== undefined) {
      rec.token = idKey(token);
      const tk = `${X}:${e.conn}:${rec.token}`;
      const prev = this.sentTokens.get(tk);
      if (prev && (this.wire(prev) === 'pending' || this.wire(prev) === 'progressing')) {
        this.flag('progress.token-unique', e.i, `the ${X} sent progress token ${show(token)} for ${this.label(rec)} while ${this.label(prev)} still uses it.`, this.label(rec));
      }
      this.sentTokens.set(tk, rec);
    }
  }

  private onSendResponse(e: Extract<TraceEvent, { kind: 'send' }>, c: Extract<Classified, { type: 'response' }>): void {
    const Y = e.from;
    const requester = other(Y);
    const list = this.receivers.get(`${requester}:${e.conn}:${idKey(c.id)}`);
    if (!list) {
      const elsewhere = [...this.receivers.values()].flat().find((r) => r.side === Y && idKey(r.id) === idKey(c.id) && r.conn !== e.conn);
      if (elsewhere) {
        this.flag('rpc.routing', e.i, `the ${Y} answered request ${show(c.id)} of connection ${elsewhere.conn} on connection ${e.conn}.`, this.rcvLabel(elsewhere));
      } else if (this.notificationStep.get(Y) === e.step && (c.id === null || c.id === undefined || !list)) {
        this.flag('rpc.no-reply-to-notification', e.i, `the ${Y} sent a response (id ${show(c.id)}) in reply to a notification.`, `${Y}:${show(c.id)}`);
      } else {
        this.flag('rpc.response-matches-request', e.i, `the ${Y} sent a response for id ${show(c.id)}, which it never received as a request on connection ${e.conn}.`, `${requester}:${show(c.id)}`);
      }
      return;
    }
    const rec = list.find((r) => this.wire(r) !== 'responded' && this.wire(r) !== 'closed') ?? list[list.length - 1]!;
    const before = this.wire(rec);
    if (this.rcvMove(rec, 'RESPOND')) return;
    if (before === 'responded') {
      this.flag('rpc.single-response', e.i, `the ${Y} answered request ${show(c.id)} more than once.`, this.rcvLabel(rec));
    } else if (before === 'cancelRequested') {
      // A cancel of initialize is the client's violation (cancel.not-initialize); the server may ignore it.
      if (rec.method === 'initialize') return;
      this.flag('cancel.no-response-after', e.i, `the ${Y} answered request ${show(c.id)} after it had received its cancellation.`, this.rcvLabel(rec));
    } else {
      this.flag('lifecycle.close-settles', e.i, `the ${Y} answered request ${show(c.id)} after its connection closed.`, this.rcvLabel(rec));
    }
  }

  private onSendCancel(e: Extract<TraceEvent, { kind: 'send' }>, params: Record<string, unknown> | undefined): void {
    const X = e.from;
    const id = params?.requestId;
    if (!isValidId(id)) {
      this.flag('cancel.well-formed', e.i, `the ${X} sent notifications/cancelled with requestId ${show(id)}; it must name the request by its id.`, `${X}:${e.conn}`);
      return;
    }
    const rec = this.requesters.get(this.reqKey(X, e.conn, id));
    if (!rec) {
      this.flag('cancel.in-flight-only', e.i, `the ${X} cancelled request ${show(id)}, which it never sent.`, `${X}:${show(id)}`);
      return;
    }
    if (rec.method === 'initialize') {
      this.flag('cancel.not-initialize', e.i, `the ${X} cancelled its initialize request (id ${show(id)}).`, this.label(rec));
    }
    if (rec.conn !== e.conn) {
      this.flag('lifecycle.reconnect-isolation', e.i, `the ${X} sent the cancel of ${this.label(rec)}, a request of connection ${rec.conn}, on connection ${e.conn}.`, this.label(rec));
    }
    if (!rec.delivered) this.race('cancel-before-delivery');
    const before = this.wire(rec);
    rec.lastCancelStep = e.step;
    if (this.reqMove(rec, 'CANCEL')) return;
    const why =
      before === 'responded' || before === 'lateResponse'
        ? 'whose response it already had'
        : before === 'cancelled'
          ? 'a second time'
          : 'after the connection it was sent on closed';
    this.flag('cancel.in-flight-only', e.i, `the ${X} cancelled ${this.label(rec)} ${why}.`, this.label(rec));
  }

  private onSendProgress(e: Extract<TraceEvent, { kind: 'send' }>, params: Record<string, unknown> | undefined): void {
    const X = e.from;
    const token = params?.progressToken;
    const rec = this.receivedTokens.get(`${X}:${e.conn}:${idKey(token)}`);
    if (!rec) {
      const elsewhere = [...this.receivedTokens.entries()].find(([k]) => k.startsWith(`${X}:`) && k.endsWith(`:${idKey(token)}`));
      if (elsewhere) {
        this.flag('rpc.routing', e.i, `the ${X} sent progress for token ${show(token)} of a request it received on connection ${elsewhere[1].conn} on connection ${e.conn}.`, this.rcvLabel(elsewhere[1]));
      } else {
        this.flag('progress.token-requested', e.i, `the ${X} sent progress for token ${show(token)}, which no request it is processing carried.`, `${X}:${show(token)}`);
      }
      return;
    }
    const before = this.wire(rec);
    if (!this.rcvMove(rec, 'PROGRESS')) {
      if (before === 'responded') this.flag('progress.after-response', e.i, `the ${X} sent progress for ${this.rcvLabel(rec)} after it had sent the response.`, this.rcvLabel(rec));
      else if (before === 'cancelRequested') this.flag('cancel.zombie-work', e.i, `the ${X} sent progress for ${this.rcvLabel(rec)} after it had received the cancellation.`, this.rcvLabel(rec));
      else this.flag('lifecycle.close-settles', e.i, `the ${X} sent progress for ${this.rcvLabel(rec)} after its connection closed.`, this.rcvLabel(rec));
    }
    const p = params?.progress;
    if (typeof p === 'number') {
      if (rec.lastProgress !== undefined && !(p > rec.lastProgress)) {
        this.flag('progress.increasing', e.i, `progress for ${this.rcvLabel(rec)} went from ${rec.lastProgress} to ${p}; it must strictly increase.`, this.rcvLabel(rec));
      }
      rec.lastProgress = p;
    }
    const total = params?.total;
    if (typeof total === 'number') {
      if (rec.lastTotal !== undefined && total !== rec.lastTotal) {
        this.flag('progress.total-stable', e.i, `total for ${this.rcvLabel(rec)} changed from ${rec.lastTotal} to ${total}.`, this.rcvLabel(rec));
      }
      rec.lastTotal = total;
    }
  }

  private onDeliver(e: Extract<TraceEvent, { kind: 'deliver' }>): void {
    const Y = e.to;
    const X = other(Y);
    this.late.delete(Y);
    const c = classifyFrame(e.frame);
    if (c.type === 'request') {
      const rec: ReceiverRec = { side: Y, conn: e.conn, id: c.id, method: c.method, snap: receiverStepper.initial, zombie: false };
      const key = `${X}:${e.conn}:${idKey(c.id)}`;
      const list = this.receivers.get(key);
      if (list) list.push(rec);
      else this.receivers.set(key, [rec]);
      const token = (c.params?._meta as Record<string, unknown> | undefined)?.progressToken;
      if (token !== undefined) {
        rec.token = idKey(token);
        this.receivedTokens.set(`${Y}:${e.conn}:${rec.token}`, rec);
      }
      const req = this.requesters.get(this.reqKey(X, e.conn, c.id));
      if (req) req.delivered = true;
      return;
    }
    if (c.type === 'notification') {
      this.notificationStep.set(Y, e.step);
      if (c.method === 'notifications/cancelled') {
        const list = this.receivers.get(`${X}:${e.conn}:${idKey(c.params?.requestId)}`);
        const rec = list?.[list.length - 1];
        if (!rec) return;
        if (this.wire(rec) === 'responded') this.race('cancel-after-response');
        const h = this.handlerState(rec);
        // Idle: the cancel came in the same burst as its request; the handler starts later in this step.
        if (h === 'running' || (h === 'idle' && rec.method !== 'initialize')) this.obligations.push({ kind: 'abort', rec, i: e.i, done: false });
        this.rcvMove(rec, 'CANCEL');
        return;
      }
      if (c.method === 'notifications/progress') {
        const rec = this.sentTokens.get(`${Y}:${e.conn}:${idKey(c.params?.progressToken)}`);
        if (!rec) return;
        const wire = this.wire(rec);
        const settled = rec.call?.settled;
        if (wire === 'responded') this.race('progress-after-response');
        if (wire === 'timedOut' || settled?.why === 'timeout' || settled?.why === 'max-total') this.race('progress-racing-timeout');
        if (wire !== 'pending' && wire !== 'progressing') {
          this.reqMove(rec, 'PROGRESS');
          this.late.set(Y, { inv: 'progress.race-silent', rec, step: e.step, i: e.i });
          return;
        }
        this.reqMove(rec, 'PROGRESS');
        if (rec.call?.options.onprogress && !settled) this.obligations.push({ kind: 'onprogress', call: rec.call, i: e.i, done: false });
      }
      return;
    }
    if (c.type === 'response') {
      const rec = this.requesters.get(this.reqKey(Y, e.conn, c.id));
      if (!rec) return;
      const wire = this.wire(rec);
      if (wire === 'cancelled' || wire === 'timedOut') {
        this.race('response-after-cancel');
        this.crossings.push({ conn: e.conn, side: Y, i: e.i, step: e.step });
        this.late.set(Y, { inv: 'cancel.late-response-silent', rec, step: e.step, i: e.i });
      }
      this.reqMove(rec, 'RESPONSE');
    }
  }

  private closeTrigger(side: Side, conn: number, i: number): void {
    const k = `${side}:${conn}`;
    if (this.closedAt.has(k)) return;
    this.closedAt.set(k, i);
    let inFlight = false;
    for (const rec of this.requesters.values()) {
      if (rec.from !== side || rec.conn !== conn) continue;
      if (rec.call && !rec.call.settled) inFlight = true;
      this.reqMove(rec, 'CLOSE');
    }
    for (const list of this.receivers.values()) {
      for (const rec of list) {
        if (rec.side !== side || rec.conn !== conn) continue;
        if (this.handlerState(rec) === 'running') inFlight = true;
        this.rcvMove(rec, 'CLOSE');
      }
    }
    if (inFlight) this.race('close-with-in-flight');
    this.obligations.push({ kind: 'close', side, conn, i });
  }

  /** Obligations due by the end of the scheduler's step. */
  private endStep(): void {
    this.starting.clear();
    if (this.obligations.length === 0) return;
    for (const o of this.obligations.splice(0)) {
      switch (o.kind) {
        case 'abort':
          if (!o.done && this.handlerState(o.rec) === 'running') {
            this.flag('cancel.handler-aborted', o.i, `the cancellation of request ${show(o.rec.id)} reached the ${o.rec.side} but its handler's signal was not aborted.`, this.rcvLabel(o.rec));
          }
          break;
        case 'cancel':
          if (o.rec.lastCancelStep !== this.step) {
            const msg =
              o.inv === 'timeout.sends-cancel'
                ? `${this.label(o.rec)} timed out but no cancellation was sent for it.`
                : `${this.label(o.rec)} hit its maximum total timeout but no cancellation was sent for it.`;
            this.flag(o.inv, o.i, msg, this.label(o.rec));
          }
          break;
        case 'onprogress':
          if (!o.done && !o.call.settled) {
            this.flag('progress.delivered', o.i, `a progress notification for ${o.call.call} reached the ${o.call.from} before the response but never reached the caller's onprogress.`, o.call.call);
          }
          break;
        case 'close': {
          for (const call of this.calls.values()) {
            if (call.from === o.side && (call.req?.conn ?? call.conn) === o.conn && !call.settled) {
              this.flag('lifecycle.close-settles', o.i, `connection ${o.conn} closed at the ${o.side} but call ${call.call} did not reject.`, call.call);
            }
          }
          for (const list of this.receivers.values()) {
            for (const rec of list) {
              if (rec.side === o.side && rec.conn === o.conn && this.handlerState(rec) === 'running') {
                this.flag('lifecycle.close-settles', o.i, `connection ${o.conn} closed at the ${o.side} but the handler of request ${show(rec.id)} was not aborted.`, this.rcvLabel(rec));
              }
            }
          }
          break;
        }
      }
    }
  }

  /** End-of-run checks: liveness, and leaks when an end-state snapshot is given. */
  finish(end: TraceEvent | undefined, endState: EndState | undefined): void {
    if (!this.ended) this.endStep();
    const at = end?.i ?? 0;
    const t = end?.t ?? 0;
    const outcome = end?.kind === 'end' ? end.outcome : 'quiescent';
    const quiescent = outcome === 'quiescent';
    if (!quiescent) this.flag('liveness.quiescent', at, `the run ended on its ${outcome} instead of reaching quiescence.`);
    for (const call of this.calls.values()) {
      if (call.settled) continue;
      const timeout = call.options.timeoutMs ?? SDK_DEFAULT_TIMEOUT_MS;
      const base = call.options.resetTimeoutOnProgress && call.lastProgressT !== undefined ? Math.max(call.startT, call.lastProgressT) : call.startT;
      if (quiescent || t > base + timeout) {
        this.flag('timeout.settles', at, `call ${call.call} never settled (its timeout bound was ${base + timeout} ms).`, call.call);
      }
      const max = call.options.maxTotalTimeoutMs;
      if (max !== undefined && t > call.startT + max) {
        this.flag('timeout.max-total', at, `call ${call.call} was still pending at ${t} ms, after its maximum total timeout ended at ${call.startT + max} ms.`, call.call);
      }
    }
    if (quiescent) {
      for (const list of this.receivers.values()) {
        for (const rec of list) {
          const h = this.handlerState(rec);
          if (h === 'running') {
            this.flag('liveness.handler-ends', at, `the ${rec.side}'s handler of request ${show(rec.id)} neither ended nor was aborted.`, this.rcvLabel(rec));
          }
        }
      }
    }
    if (endState) this.leaks(endState, at);
  }

  private leaks(s: EndState, at: number): void {
    const openCalls = [...this.calls.values()].filter((c) => !c.settled);
    // Client 0's endpoints, then those of every further client (several clients only).
    const instances = [{ client: 0, maps: s.maps }, ...(s.moreClients ?? [])];
    for (const { client, maps: both } of instances) for (const side of ['client', 'server'] as const) {
      const maps = both[side];
      const who = client === 0 ? side : `${side} of client ${client}`;
      const isMine = (r: ReceiverRec) => (this.connClient.get(r.conn) ?? 0) === client;
      for (const field of ['_responseHandlers', '_progressHandlers', '_timeoutInfo'] as const) {
        for (const key of maps[field].keys) {
          const rec = this.requesters.get(`${side}:${client}:${idKey(key)}`);
          if (rec?.call && !rec.call.settled) continue;
          if (rec && !rec.call && (this.wire(rec) === 'pending' || this.wire(rec) === 'progressing')) continue;
          this.flag('leak.correlation-maps', at, `the ${who}'s ${field} still holds request ${show(key)}${rec?.call ? ` (${rec.call.call}, settled)` : ''}.`, rec ? this.label(rec) : `${side}:${show(key)}`);
        }
      }
      for (const key of maps._requestHandlerAbortControllers.keys) {
        const rec = [...this.receivers.values()].flat().filter((r) => r.side === side && idKey(r.id) === idKey(key) && isMine(r)).at(-1);
        if (rec && this.handlerState(rec) !== 'ended' && this.handlerState(rec) !== 'idle') continue;
        this.flag('leak.correlation-maps', at, `the ${who}'s _requestHandlerAbortControllers still holds request ${show(key)} whose handler ended.`, rec ? this.rcvLabel(rec) : `${other(side)}:${show(key)}`);
      }
      for (const field of ['_requestResolvers', '_taskProgressTokens'] as const) {
        for (const key of maps[field].keys) {
          this.flag('leak.correlation-maps', at, `the ${who}'s ${field} still holds ${show(key)} with nothing in flight.`, `${side}:${show(key)}`);
        }
      }
    }
    const handlersRunning = [...this.receivers.values()].flat().some((r) => this.handlerState(r) === 'running' || this.handlerState(r) === 'aborted');
    for (const timer of s.timers) {
      if (timer.label === 'timeoutHandler' && openCalls.length > 0) continue;
      if (timer.label === 'handlerSleep' && handlersRunning) continue;
      this.flag('leak.timers', at, `a virtual timer "${timer.label}" (#${timer.id}, due at ${timer.atMs} ms) is still pending with nothing in flight that owns it.`, `timer:${timer.id}`);
    }
    for (const sig of s.signals) {
      if (sig.abortListeners === 0) continue;
      const users = [...this.calls.values()].filter((c) => c.options.signal === sig.name);
      if (users.some((c) => !c.settled)) continue;
      this.flag('leak.abort-listeners', at, `signal ${sig.name} still has ${sig.abortListeners} abort listener(s) after all ${users.length} call(s) using it settled.`, `signal:${sig.name}`);
    }
  }

  /** The caller's view of the session after the events fed so far. */
  view(): SessionView {
    const snap = this.sessions.get(this.conn);
    const signals = new Map<string, { anySettled: boolean; open: number }>();
    for (const c of this.calls.values()) {
      const s = c.options.signal;
      if (s === undefined) continue;
      const v = signals.get(s) ?? { anySettled: false, open: 0 };
      if (c.settled) v.anySettled = true;
      else v.open++;
      signals.set(s, v);
    }
    return {
      conn: this.conn,
      connState: snap ? sessionStepper.key(snap as never) : 'none',
      openCalls: [...this.calls.values()]
        .filter((c) => !c.settled)
        .map((c) => ({ call: c.call, from: c.from, ...(c.options.signal !== undefined && { signal: c.options.signal }) })),
      abortedSignals: [...this.abortedSignals.keys()],
      signals: [...signals].map(([name, v]) => ({ name, ...v })),
    };
  }
}

/**
 * Judges one run: every finding its trace and end-state snapshot show. Pure: the same trace
 * and snapshot give the same findings, in trace order of detection.
 */
export function judge(trace: readonly TraceEvent[], endState?: EndState): Finding[] {
  return judgeWithCoverage(trace, endState, false).findings;
}

/**
 * `judge`, also counting the model transitions and race pairs the trace took: one walk serves
 * both, so a campaign that reports coverage does not walk every trace twice.
 */
export function judgeWithCoverage(
  trace: readonly TraceEvent[],
  endState?: EndState,
  countCoverage = true,
): { findings: Finding[]; coverage: Coverage | undefined } {
  const walker = new TraceWalker({ coverage: countCoverage });
  for (const e of trace) walker.feed(e);
  walker.finish(trace.at(-1), endState);
  return {
    findings: walker.findings,
    coverage: countCoverage ? { transitions: { ...walker.transitions }, races: { ...walker.races } } : undefined,
  };
}
