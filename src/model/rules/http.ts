import type { OpenExchange } from '../../sim/http/HttpNetwork.ts';
import type { JsonValue } from '../../util/json.ts';
import type { TraceEvent, WireId } from '../../sim/trace.ts';
import { isJsonObject, isRequestFrame } from '../../util/jsonrpc.ts';
import { finding, type Finding } from '../finding.ts';
import { idKey } from '../ids.ts';
import type { Rule, RuleFactory, Walk } from '../rule.ts';
import { canonicalJson } from '../../util/json.ts';
import { summarizeFrame } from '../../util/jsonrpc.ts';
import { errorCallFindings } from './httpCallErrors.ts';
import { streamFindings } from './httpStreams.ts';
import { openPostFindings } from './openPosts.ts';

interface ExchangeView {
  readonly conn: number;
  readonly exchange: number;
  readonly method: string;
  readonly resumes: boolean;
  readonly sentAt: number;
  readonly frames: JsonValue[];
  readonly requestIds: WireId[];
  /** Trace index where the client saw it end (body, stream end, or its own disconnect). */
  endedAt?: number;
}

/** Trace events only the http profile records. */
const httpKinds: ReadonlySet<TraceEvent['kind']> = new Set(['http-request', 'http-response', 'sse-event', 'sse-end', 'http-disconnect']);

/**
 * `http.*`: the Streamable HTTP checks (`httpFindings`), judged at the end of the run from the
 * whole trace and the end state's open exchanges. A trace without HTTP events and no open
 * exchange (the memory profile) has nothing to judge. Findings are not deduplicated: each
 * names its exchange.
 */
export const httpRule: RuleFactory = (walk) => httpWalk(walk, {});

/** `httpRule` for revision 2026-07-28: every POST is served by its own server instance (`HttpCheckOptions.perRequest`). */
export const httpRule2026: RuleFactory = (walk) => httpWalk(walk, { perRequest: true });

/** How the Streamable HTTP checks read a trace. */
export interface HttpCheckOptions {
  /**
   * Revision 2026-07-28: each POST is served by its own server instance, so two equal frames
   * on two exchanges are two messages (a re-sent `server/discover` probe gets the same answer);
   * `http.single-stream` then names a message by its send, not its content. @default false
   */
  readonly perRequest?: boolean;
}

function httpWalk(walk: Walk, options: HttpCheckOptions): Rule {
  const trace: TraceEvent[] = [];
  let http = false;
  return {
    trace(e) {
      trace.push(e);
      if (httpKinds.has(e.kind)) http = true;
    },
    finish({ endState }) {
      if (walk.clock.kind === 'real') for (const f of openPostFindings(trace, walk.clock)) walk.flag(f, false);
      const open = endState?.openExchanges ?? [];
      if (!http && open.length === 0) return;
      for (const f of httpFindings(trace, open, options)) walk.flag(f, false);
    },
  };
}

/**
 * The Streamable HTTP checks, from the trace and the end-of-run list of open exchanges
 * (`World.openExchanges()`, read in `atEnd`). Pure: reads, never mutates.
 *
 * - `http.exchange-completes`: a POST that carried requests is still open although the server
 *   finished every one of them (each handler ended, by result, error or abort). A POST whose
 *   handler is still running (a `hang` program) is legitimately open and not reported.
 * - `http.accepted-202`: a POST of only notifications or responses was answered with anything
 *   but 202 without a body (an HTTP error status is allowed).
 * - `http.single-stream`: one server message written on two exchanges (resumption replays excepted).
 * - `http.duplicate-inflight-id`: a POST reused the id of a request whose POST was still in
 *   flight, and one of the two POSTs never ended.
 * - `http.disconnect-not-cancel`: a handler was aborted after the client's disconnect of its
 *   POST reached the server, with no cancel delivered for it and no server close in between.
 * - which stream carries what (`http.close-ends-streams`, `http.get-stream`,
 *   `http.related-on-request-stream`): `httpStreams.ts`; a POST's HTTP error failing its call
 *   (`http.error-fails-call`): `httpCallErrors.ts`.
 */
export function httpFindings(trace: readonly TraceEvent[], openExchanges: readonly OpenExchange[], options: HttpCheckOptions = {}): Finding[] {
  const out: Finding[] = [];
  const end = trace.at(-1);
  const endAt = end?.i ?? 0;
  const endOutcome = end?.kind === 'end' ? end.outcome : undefined;

  const clientFrames = new Map<number, JsonValue>();
  const serverFrames = new Map<number, JsonValue>();
  const callById = new Map<string, string>();
  const handlerEnded = new Set<string>();
  const exchanges = new Map<number, ExchangeView>();
  /** Which client each connection belongs to (0 unless the scenario has several). */
  const clientOf = new Map<number, number>();
  // A POST's frames are recorded just after its request event: collect every send first.
  for (const e of trace) if (e.kind === 'send') (e.from === 'client' ? clientFrames : serverFrames).set(e.seq, e.frame);
  for (const e of trace) {
    switch (e.kind) {
      case 'connect':
        clientOf.set(e.conn, e.client ?? 0);
        break;
      case 'call-start':
        if (e.from === 'client' && e.id !== undefined) callById.set(`${e.conn}:${e.id}`, e.call);
        break;
      case 'handler-end':
        if (e.side === 'server') handlerEnded.add(`${e.conn}:${e.id}`);
        break;
      case 'http-request':
        if (e.at === 'client') {
          const frames = e.seqs.map((s) => clientFrames.get(s) ?? null);
          exchanges.set(e.exchange, {
            conn: e.conn,
            exchange: e.exchange,
            method: e.method,
            resumes: e.lastEventId !== undefined,
            sentAt: e.i,
            frames,
            requestIds: requestIdsOf(frames),
          });
        }
        break;
      case 'http-response':
        if (e.at === 'client' && !e.contentType?.startsWith('text/event-stream')) markEnded(exchanges, e);
        break;
      case 'sse-end':
      case 'http-disconnect':
        if (e.at === 'client') markEnded(exchanges, e);
        break;
    }
  }
  const label = (conn: number, id: WireId) => callById.get(`${conn}:${id}`) ?? `client:${JSON.stringify(id)}`;

  // http.exchange-completes
  if (endOutcome === 'quiescent' || endOutcome === 'time-budget') {
    for (const open of openExchanges) {
      if (open.method !== 'POST' || open.requestIds.length === 0) continue;
      if (open.state !== 'at-server' && open.state !== 'streaming') continue;
      if (!open.requestIds.every((id) => handlerEnded.has(`${open.conn}:${id}`))) continue;
      const what = open.state === 'at-server' ? 'no response head (JSON body never resolved)' : 'its SSE stream never closed';
      for (const id of open.requestIds) {
        out.push(
          finding(
            'http.exchange-completes',
            endAt,
            `POST #${open.exchange} carrying request id=${JSON.stringify(id)} never ended: the server's handler finished, yet ${what}.`,
            label(open.conn, id),
          ),
        );
      }
    }
  }

  // http.accepted-202
  for (const e of trace) {
    if (e.kind !== 'http-response' || e.at !== 'server') continue;
    const x = exchanges.get(e.exchange);
    if (!x || x.method !== 'POST' || x.frames.length === 0 || x.requestIds.length > 0) continue;
    // A body is frames, or a stream of them: a content type on an empty body is none.
    const hasBody = e.seqs.length > 0 || e.contentType?.startsWith('text/event-stream') === true;
    if (e.status >= 400 || (e.status === 202 && !hasBody)) continue;
    out.push(
      finding(
        'http.accepted-202',
        e.i,
        `POST #${e.exchange} of ${x.frames.map((f) => summarizeFrame(f)).join(', ')} was answered ${e.status}${hasBody ? ' with a body' : ''}, not 202 without one.`,
      ),
    );
  }

  // http.single-stream
  const writtenOn = new Map<string, { exchanges: Set<number>; first: number; frame: JsonValue }>();
  const noteWrite = (frame: JsonValue, exchange: number, at: number, seq: number) => {
    // Each client's session has its own `Server`: equal frames of two sessions are two messages.
    // Per-request serving: every POST has its own server, so a message is one send.
    const key = options.perRequest ? `seq:${seq}` : `${clientOf.get(exchanges.get(exchange)?.conn ?? 0) ?? 0}:${canonicalJson(frame)}`;
    const seen = writtenOn.get(key) ?? { exchanges: new Set<number>(), first: at, frame };
    seen.exchanges.add(exchange);
    writtenOn.set(key, seen);
    if (seen.exchanges.size === 2) {
      const conn = exchanges.get(exchange)?.conn ?? 0;
      const id = serverRequestIdOf(frame);
      // The same request, or cancel of one, twice is the same id twice (`attribution.ts`).
      const subjects = id === undefined ? undefined : { sender: 'server' as const, conn, client: clientOf.get(conn) ?? 0, ids: [idKey(id)] };
      out.push(
        finding('http.single-stream', at, `Server message ${summarizeFrame(frame)} went out on exchanges ${[...seen.exchanges].map((x) => `#${x}`).join(' and ')}.`, undefined, subjects),
      );
    }
  };
  for (const e of trace) {
    if (e.kind === 'sse-event' && e.at === 'server' && e.seq !== undefined && !exchanges.get(e.exchange)?.resumes) {
      const frame = serverFrames.get(e.seq);
      if (frame !== undefined) noteWrite(frame, e.exchange, e.i, e.seq);
    } else if (e.kind === 'http-response' && e.at === 'server') {
      for (const s of e.seqs) {
        const frame = serverFrames.get(s);
        if (frame !== undefined) noteWrite(frame, e.exchange, e.i, s);
      }
    }
  }

  // http.duplicate-inflight-id
  const openIds = new Set(openExchanges.map((o) => o.exchange));
  const posts = [...exchanges.values()].filter((x) => x.method === 'POST' && x.requestIds.length > 0);
  for (const [k, b] of posts.entries()) {
    for (const a of posts.slice(0, k)) {
      if (a.conn !== b.conn || (a.endedAt !== undefined && a.endedAt < b.sentAt)) continue;
      const shared = a.requestIds.filter((id) => b.requestIds.includes(id));
      if (shared.length === 0 || (!openIds.has(a.exchange) && !openIds.has(b.exchange))) continue;
      const orphan = openIds.has(a.exchange) ? a : b;
      out.push(
        finding(
          'http.duplicate-inflight-id',
          b.sentAt,
          `POST #${b.exchange} reused request id ${shared.map((id) => JSON.stringify(id)).join(', ')} while POST #${a.exchange} was in flight, and POST #${orphan.exchange} never ended.`,
          label(a.conn, shared[0]!),
        ),
      );
    }
  }
  // http.disconnect-not-cancel
  for (const d of trace) {
    if (d.kind !== 'http-disconnect' || d.at !== 'server') continue;
    const x = exchanges.get(d.exchange);
    if (!x || x.method !== 'POST') continue;
    for (const id of x.requestIds) {
      const abort = trace.find((e) => e.i > d.i && e.kind === 'handler-abort' && e.side === 'server' && e.conn === x.conn && e.id === id);
      if (!abort) continue;
      const excused = trace.some(
        (e) =>
          e.i < abort.i &&
          ((e.kind === 'close' && e.side === 'server' && e.i > d.i) ||
            (e.kind === 'deliver' && e.to === 'server' && isCancelOf(e.frame, id)) ||
            (e.kind === 'handler-end' && e.side === 'server' && e.conn === x.conn && e.id === id)),
      );
      if (excused) continue;
      out.push(
        finding(
          'http.disconnect-not-cancel',
          abort.i,
          `The handler of request id=${JSON.stringify(id)} was aborted because the client dropped POST #${x.exchange}, with no cancellation sent.`,
          label(x.conn, id),
        ),
      );
    }
  }
  out.push(...streamFindings(trace), ...errorCallFindings(trace));
  return out;
}

/** The id of the server's request a server message is (a request) or names (its cancel), if any. */
function serverRequestIdOf(frame: JsonValue): unknown {
  if (isRequestFrame(frame)) return frame.id;
  if (isJsonObject(frame) && frame.method === 'notifications/cancelled' && isJsonObject(frame.params)) return frame.params.requestId;
  return undefined;
}

function isCancelOf(frame: JsonValue, id: WireId): boolean {
  return isJsonObject(frame) && frame.method === 'notifications/cancelled' && isJsonObject(frame.params) && frame.params.requestId === id;
}

function markEnded(exchanges: Map<number, ExchangeView>, e: { exchange: number; i: number }): void {
  const x = exchanges.get(e.exchange);
  if (x && x.endedAt === undefined) x.endedAt = e.i;
}

function requestIdsOf(frames: readonly JsonValue[]): WireId[] {
  const ids: WireId[] = [];
  for (const f of frames) if (isRequestFrame(f) && (typeof f.id === 'string' || typeof f.id === 'number')) ids.push(f.id);
  return ids;
}
