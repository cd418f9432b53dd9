import type { TraceEvent, TraceEventBody } from '../sim/trace.ts';
import { barrierPingId } from '../util/barrierPing.ts';
import type { JsonValue } from '../util/json.ts';
import { isJsonObject } from '../util/jsonrpc.ts';
import type { Side } from '../sim/scenario.ts';
import { callerCloseOf } from './callerClose.ts';
import { underTestOf, type RealClock } from './clock.ts';
import { idKey, other } from './ids.ts';

/**
 * The model's view of a one-sided run. A black-box run records only what mcp-sim's side (the
 * near one) wrote and read, and what the far side, the one under test, told on its side channel;
 * the walker needs both sides' frames to move its requester *and* receiver machines. This adds
 * the far side's wire events, so that the rules that judge simulated traces judge this one too.
 * The far side is `clock.underTest`: a server (a process over stdio, a URL over Streamable HTTP,
 * an SDK test bed), mcp-sim being its client; or an SDK's test-bed client, mcp-sim being its
 * scripted server (`src/targets/client/clientTrace.ts` makes its raw trace: the server's wire log
 * and the client's side channel, the caller's view, on one clock).
 *
 * - each frame the near side read gets the far side's `send` right before it (same `t`); when
 *   the near side is an HTTP client it names the exchange it was read on (`stream`), since the
 *   read order of two streams is not the order the server wrote them. Each HTTP response head,
 *   SSE event and stream end read gets the server's own right before it, and each exchange its
 *   `http-request` at the server when its first frame arrives there (or right before its head);
 * - each frame the near side wrote gets the far side's `deliver` at its *receipt point*: the
 *   latest point the observations allow (least blame), that is right before the earliest of
 *   (a) the first far-side event that proves it had read it: an answer or progress for that
 *       request (or its token), or a side-channel event for it (a handler's start; the caller's
 *       settle that reports that answer, its onprogress for that token and value); for a frame
 *       that is no request, notification or answer (a rogue's), an answer naming its id or none;
 *       for a request with id null (a rogue's), an answer with id null; for a cancel,
 *       the answer to its barrier ping (`barrierPingId`), the handler's abort (before the far
 *       side's own close, which aborts every handler anyway), or an answer to it that says it
 *       was cancelled; over one pipe (stdio, read in order) any proof that a later frame was
 *       read; over HTTP the response head of the POST that carried it;
 *   (b) the counterfactual (`durations`): a result read within the in-flight bound of the cancel
 *       of a call that without the cancel takes longer than (cancel − sent + bound) proves the
 *       cancel was read first: the cancellation was turned into a result;
 *   (c) otherwise, when nothing proves it read, `t + inFlightMs`, the clock's stated allowance
 *   (or the end of the trace); a receipt never comes before its send. The near side's close
 *   (stdin EOF, the session's DELETE) is placed the same way, as the far side's `eof`;
 * - every event gets its own scheduler step (real time has none), so that what a rule reads as
 *   "the same step" is one event.
 *
 * Side-channel events (a test bed's `handler-start` … `handler-end`, a test-bed client's calls)
 * already are the model's and keep their place. Pure: the same trace and options give the same
 * observed trace.
 */
export interface ObserveOptions {
  readonly clock: RealClock;
  /**
   * The counterfactual: how long each call (by label) took in the same case without any cancel.
   * Without it, a result read within the in-flight bound of its cancel with nothing else to
   * place the cancel's receipt is taken as having crossed it, and its call is `undecided`.
   */
  readonly durations?: ReadonlyMap<string, number>;
}

export interface ObservedRun {
  /** The run with the server's side added, numbered from 0, one step per event. */
  readonly trace: TraceEvent[];
  /**
   * Calls whose result was read within the in-flight bound of their cancel, with nothing to tell
   * whether the server had read the cancel first: running the case without cancels (`durations`)
   * decides.
   */
  readonly undecided: readonly string[];
}

type Ev<K extends TraceEvent['kind']> = Extract<TraceEvent, { kind: K }>;

/** A client frame, or the client's close, and where its receipt goes. */
interface Written {
  readonly k: number;
  readonly what: { readonly kind: 'frame'; readonly e: Ev<'send'> } | { readonly kind: 'close' };
  /** Raw index its receipt is placed before (`raw.length`: after the last event; `Infinity` until placed). */
  at: number;
}

/** A frame a side read, when it is a JSON object (a line that is not JSON says nothing of what was read). */
const frameOf = (e: TraceEvent): Record<string, JsonValue> | undefined => (e.kind === 'deliver' && isJsonObject(e.frame) ? (e.frame as Record<string, JsonValue>) : undefined);
const isAnswer = (f: Record<string, JsonValue>) => 'result' in f || 'error' in f;

/**
 * Whether an answer says the request was cancelled: an error that says so, or a tool result
 * marked `isError` that does (the Go SDK turns a handler's `ctx.Err()` into one). A server writes
 * such an answer because it read the cancel.
 */
export function answersCancel(f: Record<string, JsonValue>): boolean {
  if (isJsonObject(f.error)) return /cancel/i.test(String(f.error.message));
  return isJsonObject(f.result) && f.result.isError === true && /cancel/i.test(JSON.stringify(f.result.content ?? ''));
}

/** The first index of `list` (ascending) after `k`, or `Infinity`. */
function firstAfter(list: readonly number[] | undefined, k: number): number {
  if (!list) return Infinity;
  for (const j of list) if (j > k) return j;
  return Infinity;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A black-box trace as the model sees it (see `ObserveOptions`). */
export function observedTrace(raw: readonly TraceEvent[], options: ObserveOptions): ObservedRun {
  const { inFlightMs } = options.clock;
  const far = underTestOf(options.clock);
  const near = other(far);
  const http = raw.some((e) => e.kind === 'http-request');
  // The HTTP exchanges as an HTTP client reads them: mcp-sim is one when the server is under test.
  const nearIsHttpClient = http && near === 'client';
  const endAt = raw.at(-1)?.kind === 'end' ? raw.length - 1 : raw.length;

  // What the far side's events say: answers, progress and handler events, by request id or token.
  const answers = new Map<string, number[]>();
  /** Answers with id null (or none): JSON-RPC's reply to a frame whose id could not be read. */
  const nullAnswers: number[] = [];
  const cancelAnswers = new Map<string, number[]>();
  const progress = new Map<string, number[]>();
  const handler = new Map<string, number[]>();
  const aborts = new Map<string, number[]>();
  /** The far caller's settles that report an answer (by the call's request id and what it reports), and its onprogress (by token and value). */
  const settles = new Map<string, number[]>();
  const onprogress = new Map<string, number[]>();
  /** The far side's `notifications/initialized` as the near side read it: its client got the answer to its initialize. */
  const initialized: number[] = [];
  /** The method of each request the far side sent, by id. */
  const farRequests = new Map<string, string>();
  const exits: number[] = [];
  /** HTTP: the exchange each server frame was read on, the POST of each client frame, each exchange's head and request. */
  const streamOfSeq = new Map<number, number>();
  const postOfSeq = new Map<number, number>();
  const headOf = new Map<number, number>();
  const requestOf = new Map<number, Ev<'http-request'>>();
  const { idOfCall, tokenOfCall } = farCalls(raw, far, near);
  /** The far side's own close (its `close`, or its caller's): what aborts a handler from then on is the close, not a cancel. */
  let farClosed = false;
  raw.forEach((e, k) => {
    const f = frameOf(e);
    if (f && e.kind === 'deliver' && e.to === near) {
      if (isAnswer(f) && f.id !== undefined && f.id !== null) {
        push(answers, idKey(f.id), k);
        if (answersCancel(f)) push(cancelAnswers, idKey(f.id), k);
      } else if (isAnswer(f)) nullAnswers.push(k);
      if (f.method === 'notifications/progress' && isJsonObject(f.params)) push(progress, idKey(f.params.progressToken), k);
      if (f.method === 'notifications/initialized') initialized.push(k);
      if (typeof f.method === 'string' && 'id' in f && !farRequests.has(idKey(f.id))) farRequests.set(idKey(f.id), f.method);
    }
    if ((e.kind === 'close' && e.side === far) || callerCloseOf(e) === far) farClosed = true;
    if ((e.kind === 'handler-start' || e.kind === 'handler-step' || e.kind === 'handler-abort' || e.kind === 'handler-end') && e.side === far) {
      push(handler, idKey(e.id), k);
      if (e.kind === 'handler-abort' && !farClosed) push(aborts, idKey(e.id), k);
    }
    if (e.kind === 'call-settle' && e.from === far && idOfCall.has(e.call)) push(settles, reportKey(idOfCall.get(e.call)!, e.outcome === 'resolved' ? undefined : e.code), k);
    if (e.kind === 'onprogress' && tokenOfCall.has(e.call)) push(onprogress, `${tokenOfCall.get(e.call)}:${e.progress}`, k);
    if (e.kind === 'exit') exits.push(k);
    if (!nearIsHttpClient) return;
    if (e.kind === 'sse-event' && e.at === 'client' && e.seq !== undefined) streamOfSeq.set(e.seq, e.exchange);
    if (e.kind === 'http-response' && e.at === 'client') {
      for (const q of e.seqs) streamOfSeq.set(q, e.exchange);
      if (!headOf.has(e.exchange)) headOf.set(e.exchange, k);
    }
    if (e.kind === 'http-request' && e.at === 'client') {
      requestOf.set(e.exchange, e);
      for (const q of e.seqs) postOfSeq.set(q, e.exchange);
    }
  });
  /** The first event later than `t` + the in-flight bound after index `k` (else the end). */
  const allowance = (k: number): number => {
    const t = raw[k]!.t + inFlightMs;
    for (let j = k + 1; j < endAt; j++) if (raw[j]!.t > t) return j;
    return endAt;
  };

  /** HTTP (mcp-sim the client): the response head of the POST that carried near frame `e`, after it (else `Infinity`). */
  const postHead = (e: Ev<'send'>): number => {
    const post = postOfSeq.get(e.seq);
    return post === undefined || !headOf.has(post) ? Infinity : firstAfter([headOf.get(post)!], e.i);
  };

  // The near side's frames and its close, in the order written.
  const written: Written[] = [];
  raw.forEach((e, k) => {
    if (e.kind === 'send' && e.from === near) written.push({ k, what: { kind: 'frame', e }, at: Infinity });
    else if ((e.kind === 'eof' && e.to === far) || (nearIsHttpClient && e.kind === 'http-request' && e.at === 'client' && e.method === 'DELETE')) written.push({ k, what: { kind: 'close' }, at: Infinity });
  });

  const undecided: string[] = [];
  const pendingUndecided: { readonly w: Written; readonly result: number; readonly label: string }[] = [];
  for (const w of written) {
    const { k } = w;
    let proof = Infinity;
    if (w.what.kind === 'close') {
      // The DELETE was answered: the close was read. Stdin EOF has no answer: the in-flight
      // allowance, or the process's end if it came first (a process that exited read no more).
      const e = raw[k]!;
      proof = e.kind === 'http-request' ? firstAfter(headOf.has(e.exchange) ? [headOf.get(e.exchange)!] : [], k) : Math.min(firstAfter(exits, k), allowance(k));
    } else {
      const { e } = w.what;
      const f = isJsonObject(e.frame) ? (e.frame as Record<string, JsonValue>) : {};
      if (typeof f.method !== 'string' && !isAnswer(f)) {
        // No request, notification or answer (a rogue's frame): its answer, if any, names its id or none.
        proof = Math.min(firstAfter(nullAnswers, k), 'id' in f ? firstAfter(answers.get(idKey(f.id)), k) : Infinity);
      } else if (typeof f.method === 'string' && 'id' in f) {
        const id = idKey(f.id);
        const meta = isJsonObject(f.params) && isJsonObject(f.params._meta) ? f.params._meta : undefined;
        // A request with id null (a rogue's) is answered with id null.
        proof = Math.min(firstAfter(f.id === null ? nullAnswers : answers.get(id), k), firstAfter(handler.get(id), k), meta?.progressToken === undefined ? Infinity : firstAfter(progress.get(idKey(meta.progressToken)), k), postHead(e));
      } else if (f.method === 'notifications/cancelled' && isJsonObject(f.params)) {
        const requestId = f.params.requestId ?? null;
        const id = idKey(requestId);
        proof = Math.min(firstAfter(answers.get(idKey(barrierPingId(requestId))), k), firstAfter(aborts.get(id), k), firstAfter(cancelAnswers.get(id), k));
        proof = Math.min(proof, postHead(e));
        // The request's answer may have crossed the cancel: read before anything proved the cancel
        // read, within the in-flight bound of the cancel; or, over HTTP, read on another stream
        // within the bound of that proof (two streams give no order). Only the counterfactual can
        // tell then: without it the answer is taken as written first (least blame).
        // (An answer that says it was cancelled was written after the cancel was read: it proves, it never crossed.)
        const result = firstAfter(answers.get(id), k);
        const saysCancelled = cancelAnswers.get(id)?.includes(result) === true;
        const crossing = result < Infinity && !saysCancelled && (result < proof ? raw[result]!.t - e.t <= inFlightMs : http && raw[result]!.t - raw[proof]!.t <= inFlightMs);
        if (crossing) {
          const call = callOf(raw, k, requestId, near);
          const due = call && options.durations?.get(call.label);
          if (call && due !== undefined && e.t - call.sentT + inFlightMs < due) proof = result;
          else {
            if (call && due === undefined) pendingUndecided.push({ w, result, label: call.label });
            proof = Math.max(proof, result + 1);
          }
        }
      } else if (isAnswer(f) && f.id !== undefined && f.id !== null) {
        // The far caller's settle that reports this answer (a result resolves, an error rejects
        // with its code); for initialize, the far client's `notifications/initialized`, sent once it had it.
        const id = idKey(f.id);
        const settled = firstAfter(settles.get(reportKey(id, isJsonObject(f.error) ? (f.error.code as number | string | undefined) : undefined)), k);
        proof = Math.min(settled, farRequests.get(id) === 'initialize' ? firstAfter(initialized, k) : Infinity, postHead(e));
      } else if (f.method === 'notifications/progress' && isJsonObject(f.params)) {
        proof = Math.min(firstAfter(onprogress.get(`${idKey(f.params.progressToken)}:${String(f.params.progress)}`), k), postHead(e));
      } else proof = postHead(e);
    }
    w.at = proof;
  }
  // One pipe, read in order: a frame was read no later than any frame written after it was. (The
  // close is no frame: that the process ended after stdin EOF says nothing of when it read the rest.)
  if (!http) {
    let later = Infinity;
    for (let j = written.length - 1; j >= 0; j--) {
      const w = written[j]!;
      if (w.what.kind !== 'frame') continue;
      w.at = Math.min(w.at, later);
      later = w.at;
    }
  }
  // Nothing proves it read: the clock's stated allowance.
  for (const w of written) if (w.at === Infinity) w.at = allowance(w.k);
  for (const u of pendingUndecided) if (u.w.at > u.result) undecided.push(u.label);

  // Place everything.
  const receipts = new Map<number, Written[]>();
  for (const w of written) push(receipts, w.at, w);
  const out: TraceEventBody[] = [];
  const at: number[] = [];
  const serverHeard = new Set<number>();
  const emit = (body: TraceEventBody, t: number) => {
    out.push(body);
    at.push(t);
  };
  const requestAtServer = (exchange: number, t: number) => {
    const req = requestOf.get(exchange);
    if (!req || serverHeard.has(exchange)) return;
    serverHeard.add(exchange);
    emit(atServer(req), t);
  };
  for (let p = 0; p <= raw.length; p++) {
    const e = raw[p];
    const t = e?.t ?? raw.at(-1)?.t ?? 0;
    for (const w of receipts.get(p) ?? []) {
      // Right before what proves it (same time), or at the allowance's end when nothing does.
      const tr = Math.min(raw[w.k]!.t + inFlightMs, t);
      if (w.what.kind === 'close') {
        emit({ kind: 'eof', to: far, conn: 0 }, tr);
        continue;
      }
      const sent = w.what.e;
      const post = postOfSeq.get(sent.seq);
      if (post !== undefined) requestAtServer(post, tr);
      emit({ kind: 'deliver', to: far, conn: sent.conn, seq: sent.seq, frame: sent.frame, burst: 1 }, tr);
    }
    if (!e) break;
    if (e.kind === 'deliver' && e.to === near) {
      const stream = streamOfSeq.get(e.seq);
      emit({ kind: 'send', from: far, conn: e.conn, seq: e.seq, frame: e.frame, ...(stream !== undefined && { stream }) }, t);
    } else if (nearIsHttpClient && e.kind === 'http-response' && e.at === 'client') {
      requestAtServer(e.exchange, t);
      emit(atServer(e), t);
    } else if (nearIsHttpClient && (e.kind === 'sse-event' || e.kind === 'sse-end') && e.at === 'client') {
      requestAtServer(e.exchange, t);
      emit(atServer(e), t);
    }
    // The near side's close (its stdin EOF to a server) is placed at its receipt, not here.
    if (e.kind === 'eof' && e.to === far) continue;
    emit(strip(e), t);
  }
  return { trace: out.map((body, i) => ({ ...body, i, step: i + 1, t: at[i]! }) as TraceEvent), undecided };
}

/** The key of an answer a far caller's settle reports: its request's id, and the error code it rejected with (none: a result). */
const reportKey = (id: string, code: number | string | undefined): string => `${id}|${code === undefined ? 'result' : String(code)}`;

/**
 * The far side's calls as its side channel tells them: each call's request id (its `call-start`),
 * and the progress token that request carried (the frame the near side read with that id).
 */
function farCalls(raw: readonly TraceEvent[], far: Side, near: Side): { idOfCall: Map<string, string>; tokenOfCall: Map<string, string> } {
  const idOfCall = new Map<string, string>();
  const tokens = new Map<string, string>();
  for (const e of raw) {
    if (e.kind === 'call-start' && e.from === far && e.id !== undefined) idOfCall.set(e.call, idKey(e.id));
    const f = frameOf(e);
    if (!f || e.kind !== 'deliver' || e.to !== near || typeof f.method !== 'string' || !('id' in f) || !isJsonObject(f.params) || !isJsonObject(f.params._meta)) continue;
    const token = f.params._meta.progressToken;
    if (token !== undefined && !tokens.has(idKey(f.id))) tokens.set(idKey(f.id), idKey(token));
  }
  const tokenOfCall = new Map<string, string>();
  for (const [call, id] of idOfCall) if (tokens.has(id)) tokenOfCall.set(call, tokens.get(id)!);
  return { idOfCall, tokenOfCall };
}

/** An event's body, without its place in the raw trace. */
function strip(e: TraceEvent): TraceEventBody {
  const { i: _i, step: _step, t: _t, ...body } = e;
  return body as unknown as TraceEventBody;
}

/** The server's side of an HTTP event the client observed (the request it received, the head, event or end it wrote). */
function atServer(e: Ev<'http-request' | 'http-response' | 'sse-event' | 'sse-end'>): TraceEventBody {
  return { ...strip(e), at: 'server' } as TraceEventBody;
}

/** The near side's call whose request `requestId` the cancel at `k` names: its label and when its request was written. */
function callOf(raw: readonly TraceEvent[], k: number, requestId: JsonValue, near: Side): { readonly label: string; readonly sentT: number } | undefined {
  for (let j = k - 1; j >= 0; j--) {
    const e = raw[j]!;
    if (e.kind === 'send' && e.from === near && isJsonObject(e.frame) && typeof e.frame.method === 'string' && 'id' in e.frame && idKey(e.frame.id) === idKey(requestId)) {
      for (let s = j; s >= 0; s--) {
        const c = raw[s]!;
        if (c.kind === 'call-start' && c.from === near && c.id !== undefined && idKey(c.id) === idKey(requestId)) return { label: c.call, sentT: e.t };
      }
      return undefined;
    }
  }
  return undefined;
}
