import type { TraceEvent } from '../../sim/trace.ts';
import type { JsonValue } from '../../util/json.ts';
import { isJsonObject, isRequestFrame } from '../../util/jsonrpc.ts';
import { finding, type Finding } from '../finding.ts';
import { idKey } from '../ids.ts';

/** One exchange as the server sees it: when its SSE stream opened and ended there. */
interface ServerSide {
  readonly exchange: number;
  readonly conn: number;
  readonly method: string;
  readonly session: string | undefined;
  readonly resumes: boolean;
  /** Requests (id → progress token, if any) its body carried. */
  readonly requests: ReadonlyMap<string, string | undefined>;
  /** Trace index of the response head the server sent. */
  headAt?: number;
  sse?: boolean;
  /** Trace index where the server stopped writing to it: stream end, JSON body, or the client's disconnect. */
  endedAt?: number;
  endedStep?: number;
}

/**
 * The Streamable HTTP checks about which stream carries what, judged from the trace alone:
 *
 * - `http.close-ends-streams`: the server's close of a session (its `close` event) ends, in that
 *   same step, every SSE stream of the session that was open at the server.
 * - `http.get-stream`: a GET (not a resumption) answered 409 while no other GET stream of its
 *   session was open at the server: the session's only standalone stream was refused; or a GET
 *   answered 2xx with anything but an SSE stream.
 * - `http.related-on-request-stream`: a progress notification for a request whose POST was still
 *   open at the server, and whose cancel had not reached it, went out on another exchange (the
 *   standalone GET stream): once cancelled, the request no longer runs for the client.
 */
export function streamFindings(trace: readonly TraceEvent[]): Finding[] {
  const out: Finding[] = [];
  const clientFrames = new Map<number, JsonValue>();
  const serverFrames = new Map<number, JsonValue>();
  for (const e of trace) if (e.kind === 'send') (e.from === 'client' ? clientFrames : serverFrames).set(e.seq, e.frame);
  const sides = new Map<number, ServerSide>();
  /** The POST that carried each request with a progress token, and the request's id: `conn:token` → both. */
  const postOfToken = new Map<string, number>();
  const idOfToken = new Map<string, string>();
  /** Requests whose cancel reached the server: `conn:idKey`. Once cancelled a request no longer runs for the client. */
  const cancelled = new Set<string>();
  const open = (x: ServerSide) => x.endedAt === undefined;
  const openGetStreams = (session: string | undefined, except: number) =>
    [...sides.values()].filter((x) => x.exchange !== except && x.method === 'GET' && x.session === session && x.sse === true && open(x));

  for (const e of trace) {
    switch (e.kind) {
      case 'deliver': {
        const f = e.frame;
        if (e.to === 'server' && isJsonObject(f) && f.method === 'notifications/cancelled' && isJsonObject(f.params)) cancelled.add(`${e.conn}:${idKey(f.params.requestId)}`);
        break;
      }
      case 'http-request': {
        if (e.at !== 'server') break;
        const requests = new Map<string, string | undefined>();
        for (const s of e.seqs) {
          const f = clientFrames.get(s);
          if (f === undefined || !isRequestFrame(f)) continue;
          const token = progressTokenOf(f);
          requests.set(idKey(f.id), token);
          if (token !== undefined) {
            postOfToken.set(`${e.conn}:${token}`, e.exchange);
            idOfToken.set(`${e.conn}:${token}`, idKey(f.id));
          }
        }
        sides.set(e.exchange, { exchange: e.exchange, conn: e.conn, method: e.method, session: e.session, resumes: e.lastEventId !== undefined, requests });
        break;
      }
      case 'http-response': {
        if (e.at !== 'server') break;
        const x = sides.get(e.exchange);
        if (!x) break;
        x.headAt = e.i;
        x.sse = e.contentType?.startsWith('text/event-stream') ?? false;
        if (x.method === 'GET' && !x.resumes && e.status === 409 && openGetStreams(x.session, x.exchange).length === 0) {
          out.push(
            finding(
              'http.get-stream',
              e.i,
              `GET #${x.exchange} of session ${x.session ?? '(none)'} was refused with 409 although no other GET stream of that session was open: it must get an SSE stream (or 405).`,
            ),
          );
        }
        // A GET accepted (2xx) must be the SSE stream it asked for: a JSON or empty body there leaves the client without one.
        if (x.method === 'GET' && e.status >= 200 && e.status < 300 && !x.sse) {
          out.push(
            finding(
              'http.get-stream',
              e.i,
              `GET #${x.exchange} of session ${x.session ?? '(none)'} was answered ${e.status} without an SSE stream: it must get one (or 405).`,
            ),
          );
        }
        for (const s of e.seqs) checkRelated(x, s, e.i);
        if (!x.sse) end(x, e);
        break;
      }
      case 'sse-event':
        if (e.at === 'server' && e.seq !== undefined && !e.replay) {
          const x = sides.get(e.exchange);
          if (x) checkRelated(x, e.seq, e.i);
        }
        break;
      case 'sse-end':
      case 'http-disconnect':
        if (e.at === 'server') {
          const x = sides.get(e.exchange);
          if (x) end(x, e);
        }
        break;
    }
  }

  // http.close-ends-streams: a stream open at the close must end in the step of the close.
  for (const c of trace) {
    if (c.kind !== 'close' || c.side !== 'server') continue;
    for (const x of sides.values()) {
      if (x.conn !== c.conn || x.sse !== true || x.headAt === undefined || x.headAt > c.i) continue;
      if (x.endedAt !== undefined && (x.endedAt < c.i || x.endedStep === c.step)) continue;
      out.push(
        finding(
          'http.close-ends-streams',
          c.i,
          `the server closed connection ${c.conn} but its ${x.method === 'GET' ? 'standalone GET' : 'POST'} SSE stream #${x.exchange} stayed open${x.endedAt === undefined ? '' : ' past that step'}.`,
        ),
      );
    }
  }
  return out;

  function end(x: ServerSide, e: TraceEvent): void {
    if (x.endedAt !== undefined) return;
    x.endedAt = e.i;
    x.endedStep = e.step;
  }

  /** A server frame `seq` written on exchange `x`: a progress for a request whose own POST is open elsewhere. */
  function checkRelated(x: ServerSide, seq: number, at: number): void {
    const frame = serverFrames.get(seq);
    if (frame === undefined || !isJsonObject(frame) || frame.method !== 'notifications/progress' || !isJsonObject(frame.params)) return;
    const token = frame.params.progressToken;
    if (typeof token !== 'string' && typeof token !== 'number') return;
    const post = postOfToken.get(`${x.conn}:${idKey(token)}`);
    if (post === undefined || post === x.exchange || cancelled.has(`${x.conn}:${idOfToken.get(`${x.conn}:${idKey(token)}`)}`)) return;
    const own = sides.get(post);
    if (!own || !open(own)) return;
    out.push(
      finding(
        'http.related-on-request-stream',
        at,
        `progress for token ${JSON.stringify(token)} went out on ${x.method === 'GET' ? 'the standalone GET stream' : 'POST'} #${x.exchange}, while POST #${post} of its request was still open.`,
      ),
    );
  }
}

/** `idKey` of a request frame's `_meta.progressToken`, if it has a valid one. */
function progressTokenOf(frame: Record<string, unknown>): string | undefined {
  const meta = isJsonObject(frame.params) ? frame.params._meta : undefined;
  const token = isJsonObject(meta) ? meta.progressToken : undefined;
  return typeof token === 'string' || typeof token === 'number' ? idKey(token) : undefined;
}
