import { callerCloseAction } from '../../model/callerClose.ts';
import { idKey } from '../../model/ids.ts';
import type { CallOptions } from '../../sim/scenario.ts';
import type { TraceEvent, TraceEventBody, WireId } from '../../sim/trace.ts';
import type { JsonValue } from '../../util/json.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import type { ClientScenario } from './clientScenarios.ts';
import { callsOf, type CallAction, type CallerOption } from '../../real/clientScript.ts';
import type { ClientEvent, ClientRun, WireEntry } from './runClientScenario.ts';
import { SETTLE_WORDS } from './sideChannelFacts.ts';

/**
 * How far the two records of a client run may disagree on when something happened and still be
 * read as cause and effect: the clock offset between them is good to a few ms, and a side-channel
 * line is stamped when mcp-sim reads it from the client's stderr, tens of ms late on a loaded
 * machine. A callback more than this before the frame that would explain it has another cause.
 */
export const SIDE_CHANNEL_SLACK_MS = 100;

/** A gap smaller than any two records' times: an event placed right before (or after) what caused it. */
const EPSILON_MS = 0.001;

/** Within this much of its maximum total, a call's timeout is that maximum's (an SDK may word both alike: rmcp's `ServiceError::Timeout`). */
const MAX_TOTAL_NEAR_MS = 50;

/** A wire-log frame with the trace time it got. */
interface Wire {
  readonly t: number;
  readonly dir: 'in' | 'out';
  readonly frame: Record<string, JsonValue>;
  readonly seq: number;
}

/**
 * One run of a client scenario as the model's trace, before the model adds the client's own wire
 * events (`observedTrace` with the client under test): the near side is mcp-sim's scripted server,
 * the far side's caller view is the client's side channel.
 *
 * - The wire log is the server's: each frame it read is its `deliver`, each frame it wrote its
 *   `send`; each HTTP request it received its `http-request`; its input ending (stdin EOF, a
 *   signal, the session's DELETE) its `eof`. Times are the log's.
 * - The side channel is the client's caller view, on the log's clock (`clockOffsetMs`): each call's
 *   `call-start` (its options as the SDK got them: a caller option the client lacks is left out, so
 *   the call is judged as it ran), `onprogress`, `call-settle`; the caller's abort as its signal's
 *   `abort-signal`, its close as `caller #k close client` and the close completing as the client's
 *   `close`; its handlers of the server's requests as `handler-start`, `handler-abort` and
 *   `handler-end` (a request's id, where the SDK does not give it, is the server's request of that
 *   method the handler started for).
 * - Where the two records disagree by a few ms, what caused what wins: a call starts right before
 *   its request reaches the server; a callback (progress, a result, a handler told of a cancel)
 *   comes after the frame that explains it; the caller's abort before the cancel it sent; the
 *   side channel keeps its own order.
 * - The run ends (`end`) when the client process did.
 */
export function clientTrace(run: ClientRun, scenario: ClientScenario, options: readonly CallerOption[]): TraceEvent[] {
  const timed: { t: number; order: number; body: TraceEventBody }[] = [];
  const wire = wireOf(run.wire);
  const nearEvents = serverEvents(run, wire);
  nearEvents.forEach((e, order) => timed.push({ ...e, order }));
  const sides = sideChannel(run, scenario, options, wire);
  sides.forEach((e, k) => timed.push({ ...e, order: nearEvents.length + k }));
  timed.sort((a, b) => a.t - b.t || a.order - b.order);
  const lastT = timed.at(-1)?.t ?? 0;
  const endT = Math.max(lastT, run.exitMs + (run.clockOffsetMs ?? 0));
  timed.push({ t: endT, order: timed.length, body: { kind: 'end', outcome: run.exit.killed ? 'real-time-bound' : 'quiescent' } });
  // Times to the µs: what `EPSILON_MS` set apart stays apart, and no float noise shows.
  return timed.map((x, i) => ({ ...x.body, i, step: 0, t: Math.max(0, Math.round(x.t * 1000) / 1000) }) as TraceEvent);
}

/** The frames of the wire log, numbered. */
function wireOf(log: readonly WireEntry[]): Wire[] {
  const frames: Wire[] = [];
  for (const w of log) {
    if ((w.dir === 'in' || w.dir === 'out') && isJsonObject(w.frame)) frames.push({ t: w.t, dir: w.dir, frame: w.frame as Record<string, JsonValue>, seq: frames.length });
  }
  return frames;
}

/** The scripted server's own events: the frames it read and wrote, the HTTP requests it got, its input ending. */
function serverEvents(run: ClientRun, wire: readonly Wire[]): { t: number; body: TraceEventBody }[] {
  const out: { t: number; body: TraceEventBody }[] = [];
  let next = 0;
  let exchange = 0;
  let ended = false;
  let fuse = false;
  for (const w of run.wire) {
    if ((w.dir === 'in' || w.dir === 'out') && isJsonObject(w.frame)) {
      const f = wire[next++]!;
      out.push({ t: w.t, body: f.dir === 'in' ? { kind: 'deliver', to: 'server', conn: 0, seq: f.seq, frame: f.frame, burst: 1 } : { kind: 'send', from: 'server', conn: 0, seq: f.seq, frame: f.frame } });
      continue;
    }
    if (w.event === 'http') {
      const session = typeof w['session'] === 'string' ? w['session'] : undefined;
      out.push({ t: w.t, body: { kind: 'http-request', at: 'server', conn: 0, exchange: exchange++, method: String(w['method']), ...(session !== undefined && { session }), seqs: [] } });
    }
    if (w.event === 'fuse') fuse = true;
    // Its input ended: stdin EOF, the session's DELETE, or (over stdio) a signal from the client;
    // the fuse's exit and mcp-sim's own stop of an HTTP server are not the client's doing.
    const signalled = w.event === 'exit' && run.transport === 'stdio' && !fuse;
    if (!ended && (w.event === 'eof' || w.event === 'session-deleted' || signalled)) {
      ended = true;
      out.push({ t: w.t, body: { kind: 'eof', to: 'server', conn: 0 } });
    }
  }
  return out;
}

/** A side-channel event's place: its time on the log's clock, the bounds what caused it sets, or a pin. */
interface Placed {
  t: number;
  readonly body: TraceEventBody;
  /** Not before (the frame that explains it, plus a hair). */
  lower?: number;
  /** Not after (the frame it caused, less a hair). */
  upper?: number;
  /** Exactly here (a call's start, right before its request reached the server); outside the side channel's order. */
  pin?: number;
}

/** The client's side channel as the far side's caller view, on the wire log's clock, each event placed after its cause. */
function sideChannel(run: ClientRun, scenario: ClientScenario, options: readonly CallerOption[], wire: readonly Wire[]): { t: number; body: TraceEventBody }[] {
  const offset = run.clockOffsetMs ?? 0;
  const calls = callsOf(scenario.script);
  const closes = scenario.script.actions.flatMap((a, k) => (a.kind === 'close' ? [k] : []));
  const inbound = wire.filter((w) => w.dir === 'in');
  const outbound = wire.filter((w) => w.dir === 'out');
  /** Each call's request, as the server read it. */
  const requestOf = new Map<string, Wire>();
  for (const w of inbound) {
    const label = isJsonObject(w.frame.params) && isJsonObject(w.frame.params.arguments) ? w.frame.params.arguments.call : undefined;
    if (w.frame.method === 'tools/call' && typeof label === 'string' && !requestOf.has(label)) requestOf.set(label, w);
  }
  const tokenOf = (label: string): JsonValue | undefined => {
    const params = requestOf.get(label)?.frame.params;
    return isJsonObject(params) && isJsonObject(params._meta) ? params._meta.progressToken : undefined;
  };
  const latestOut = (t: number, matches: (f: Record<string, JsonValue>) => boolean) => outbound.filter((w) => w.t <= t + SIDE_CHANNEL_SLACK_MS && matches(w.frame)).at(-1);
  const serverRequests = new ServerRequests(outbound);
  const startedAt = new Map<string, number>();
  let closeCount = 0;
  const placed: Placed[] = [];
  for (const e of run.events) {
    const t = e.t + offset;
    const at = (body: TraceEventBody, bounds: Partial<Pick<Placed, 'lower' | 'upper' | 'pin'>> = {}) => placed.push({ t, body, ...bounds });
    const label = e.call;
    switch (e.event) {
      case 'call-start': {
        if (label === undefined) break;
        const request = requestOf.get(label);
        const action = calls.get(label);
        startedAt.set(label, t);
        at({ kind: 'call-start', call: label, from: 'client', conn: 0, method: 'tools/call', id: request?.frame.id as WireId | undefined, options: callOptions(label, action, options) as JsonValue }, request ? { pin: request.t - EPSILON_MS } : {});
        break;
      }
      case 'progress': {
        if (label === undefined || !calls.has(label) || typeof e.progress !== 'number') break;
        const token = tokenOf(label);
        const cause = latestOut(t, (f) => f.method === 'notifications/progress' && isJsonObject(f.params) && idKey(f.params.progressToken) === idKey(token) && f.params.progress === e.progress);
        at({ kind: 'onprogress', call: label, progress: e.progress, ...(typeof e.total === 'number' && { total: e.total }) }, cause ? { lower: cause.t + EPSILON_MS } : {});
        break;
      }
      case 'call-end': {
        if (label === undefined || !calls.has(label)) break;
        const id = requestOf.get(label)?.frame.id;
        const answered = e.outcome === 'result' || e.outcome === 'error';
        const cause = answered && id !== undefined ? latestOut(t, (f) => ('result' in f || 'error' in f) && idKey(f.id) === idKey(id)) : undefined;
        at(settleOf(label, e, calls.get(label)?.maxTotalTimeoutMs !== undefined && options.includes('maxTotalTimeout') ? { max: calls.get(label)!.maxTotalTimeoutMs!, elapsed: t - (startedAt.get(label) ?? t) } : undefined), cause ? { lower: cause.t + EPSILON_MS } : {});
        break;
      }
      case 'abort': {
        if (label === undefined) break;
        const id = requestOf.get(label)?.frame.id;
        const sent = id === undefined ? undefined : inbound.find((w) => w.t >= t - SIDE_CHANNEL_SLACK_MS && w.frame.method === 'notifications/cancelled' && isJsonObject(w.frame.params) && idKey(w.frame.params.requestId) === idKey(id));
        at({ kind: 'abort-signal', signal: label }, sent ? { upper: sent.t - EPSILON_MS } : {});
        break;
      }
      case 'close':
        at({ kind: 'action', action: callerCloseAction(closes[closeCount++] ?? scenario.script.actions.length, 'client'), choice: 0, enabled: 0 });
        break;
      case 'closed':
        at({ kind: 'close', side: 'client', conn: 0 });
        break;
      case 'server-request': {
        const request = serverRequests.started(e, t);
        if (request) at({ kind: 'handler-start', side: 'client', conn: 0, id: request.id, method: request.method }, { lower: request.t + EPSILON_MS });
        break;
      }
      case 'server-request-cancelled': {
        const id = serverRequests.running(e);
        if (id === undefined) break;
        const cancel = latestOut(t, (f) => f.method === 'notifications/cancelled' && isJsonObject(f.params) && idKey(f.params.requestId) === idKey(id));
        at({ kind: 'handler-abort', side: 'client', conn: 0, id, reason: 'cancelled' }, cancel ? { lower: cancel.t + EPSILON_MS } : {});
        break;
      }
      case 'server-request-end': {
        const id = serverRequests.ended(e);
        if (id !== undefined) at({ kind: 'handler-end', side: 'client', conn: 0, id, outcome: e.outcome === 'result' ? 'result' : e.outcome === 'aborted' ? 'aborted' : 'error' });
        break;
      }
      default:
        break;
    }
  }
  return inCausalOrder(placed);
}

/** A call's options as its SDK got them: a caller option the client lacks was not given (CLIENT.md: it is ignored). */
function callOptions(label: string, action: CallAction | undefined, options: readonly CallerOption[]): CallOptions {
  return {
    ...(action?.timeoutMs !== undefined && { timeoutMs: action.timeoutMs }),
    ...(action?.resetTimeoutOnProgress !== undefined && options.includes('resetTimeoutOnProgress') && { resetTimeoutOnProgress: action.resetTimeoutOnProgress }),
    ...(action?.maxTotalTimeoutMs !== undefined && options.includes('maxTotalTimeout') && { maxTotalTimeoutMs: action.maxTotalTimeoutMs }),
    ...(action?.progress === true && { onprogress: true }),
    signal: label,
  };
}

/**
 * A call's end as the trace words it (`SETTLE_WORDS`, the facts the walker reads): a result
 * resolves; a server's error rejects with its code; the SDK's timeout is the maximum total's when
 * the side channel says so, or it came within `MAX_TOTAL_NEAR_MS` of that maximum.
 */
function settleOf(label: string, e: ClientEvent, maxTotal: { readonly max: number; readonly elapsed: number } | undefined): TraceEventBody {
  const base = { kind: 'call-settle', call: label, from: 'client' } as const;
  switch (e.outcome) {
    case 'result':
      return { ...base, outcome: 'resolved' };
    case 'error':
      return { ...base, outcome: 'rejected', ...(e.code !== undefined && { code: e.code }), message: e.message ?? 'error' };
    case 'timeout': {
      const max = /max(imum)?[\s_-]*total/i.test(e.message ?? '') || (maxTotal !== undefined && maxTotal.elapsed >= maxTotal.max - MAX_TOTAL_NEAR_MS);
      return { ...base, outcome: 'rejected', code: SETTLE_WORDS.timeoutCode, message: max ? SETTLE_WORDS.maxTotal : SETTLE_WORDS.timeout };
    }
    case 'aborted':
      return { ...base, outcome: 'rejected', message: SETTLE_WORDS.aborted };
    case 'closed':
      return { ...base, outcome: 'rejected', message: SETTLE_WORDS.closed };
    default:
      return { ...base, outcome: 'rejected', message: e.message ?? String(e.outcome ?? 'other') };
  }
}

/**
 * The server's requests to the client, and which one each handler event of the side channel is
 * about: its `id` where the SDK gives it, else the server's request of that method the handler
 * started for (the earliest one no handler took yet), and for a cancel or an end the running
 * handler of that method.
 */
class ServerRequests {
  private readonly taken = new Set<string>();
  private readonly open = new Map<string, WireId[]>();

  constructor(private readonly outbound: readonly Wire[]) {}

  started(e: ClientEvent, t: number): { readonly id: WireId; readonly method: string; readonly t: number } | undefined {
    const method = typeof e.method === 'string' ? e.method : undefined;
    const open = (w: Wire) => typeof w.frame.method === 'string' && 'id' in w.frame && !this.taken.has(idKey(w.frame.id));
    // By its id where the SDK gives it (as the wire wrote it, else as its text: an SDK may hand a
    // handler the id as a string), else by its method.
    const request =
      e.id !== undefined
        ? (this.outbound.find((w) => open(w) && idKey(w.frame.id) === idKey(e.id)) ?? this.outbound.find((w) => open(w) && String(w.frame.id) === String(e.id)))
        : this.outbound.find((w) => open(w) && w.frame.method === method && w.t <= t + SIDE_CHANNEL_SLACK_MS);
    if (!request) return undefined;
    const id = request.frame.id as WireId;
    this.taken.add(idKey(id));
    const name = String(request.frame.method);
    this.open.set(name, [...(this.open.get(name) ?? []), id]);
    return { id, method: name, t: request.t };
  }

  running(e: ClientEvent): WireId | undefined {
    const running = typeof e.method === 'string' ? this.open.get(e.method) : undefined;
    if (e.id === undefined) return running?.[0];
    // The id the handler started with (the wire's), however the side channel writes it.
    return running?.find((id) => String(id) === String(e.id)) ?? e.id;
  }

  ended(e: ClientEvent): WireId | undefined {
    const id = this.running(e);
    if (id !== undefined && typeof e.method === 'string') this.open.set(e.method, (this.open.get(e.method) ?? []).filter((x) => idKey(x) !== idKey(id)));
    return id;
  }
}

/**
 * The side channel's events at the times their causes allow: each after what explains it and
 * before what it caused, in the side channel's own order (one pipe), a call's start pinned right
 * before its request. Bounds first raise the times in order, then lower them in reverse; where
 * the records disagree by more than that, the later bound (before what it caused) wins.
 */
function inCausalOrder(placed: Placed[]): { t: number; body: TraceEventBody }[] {
  let floor = Number.NEGATIVE_INFINITY;
  for (const p of placed) {
    if (p.pin !== undefined) continue;
    p.t = Math.max(p.t, p.lower ?? Number.NEGATIVE_INFINITY, floor);
    floor = p.t;
  }
  let ceiling = Number.POSITIVE_INFINITY;
  for (let k = placed.length - 1; k >= 0; k--) {
    const p = placed[k]!;
    if (p.pin !== undefined) continue;
    p.t = Math.min(p.t, p.upper ?? Number.POSITIVE_INFINITY, ceiling);
    ceiling = p.t;
  }
  return placed.map((p) => ({ t: p.pin ?? p.t, body: p.body }));
}
