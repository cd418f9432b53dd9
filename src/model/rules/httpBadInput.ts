import type { TraceEvent } from '../../sim/trace.ts';
import type { JsonValue } from '../../util/json.ts';
import { isJsonObject, isRequestFrame } from '../../util/jsonrpc.ts';
import { finding } from '../finding.ts';
import { show } from '../ids.ts';
import { knownRevisions } from '../protocolMethods.ts';
import type { RuleFactory } from '../rule.ts';

type HttpRequest = Extract<TraceEvent, { kind: 'http-request' }>;

/** The HTTP methods a Streamable HTTP endpoint serves. */
const SERVED = new Set(['POST', 'GET', 'DELETE']);

/**
 * Why the server cannot accept `req` (basic/transports#streamable-http), as far as its trace
 * event shows it: a method the transport does not serve; an Accept without the types the client
 * MUST list (both JSON and SSE for a POST, SSE for a GET) or a Content-Type other than JSON
 * (headers: recorded for a rogue's raw requests only); an `MCP-Protocol-Version` no revision
 * has; a POST body that is not JSON, or JSON that is no message object; a session id the server
 * never gave; an initialize inside a session the server already gave. Empty when it can.
 *
 * Not here: a POST without a session id on a server that runs sessions
 * (`http.session-required-400`), a deleted session (`http.session-deleted-404`), a batch (MCP
 * removed them; a server may take one or refuse it).
 */
export function flawsOf(req: HttpRequest, frames: readonly JsonValue[], given: ReadonlySet<string>): string[] {
  const flaws: string[] = [];
  if (!SERVED.has(req.method)) return [`method ${req.method}, which a Streamable HTTP endpoint does not serve`];
  const h = req.headers;
  if (h) {
    const accept = h['accept'] ?? '';
    if (req.method === 'POST' && !(accept.includes('application/json') && accept.includes('text/event-stream'))) flaws.push(`Accept ${show(h['accept'] ?? null)} (a POST lists application/json and text/event-stream)`);
    if (req.method === 'GET' && !accept.includes('text/event-stream')) flaws.push(`Accept ${show(h['accept'] ?? null)} (a GET lists text/event-stream)`);
    if (req.method === 'POST' && !(h['content-type'] ?? '').includes('application/json')) flaws.push(`Content-Type ${show(h['content-type'] ?? null)}, not application/json`);
    const version = h['mcp-protocol-version'];
    if (version !== undefined && !(knownRevisions as readonly string[]).includes(version)) flaws.push(`MCP-Protocol-Version ${show(version)}, which no revision has`);
  }
  if (req.method === 'POST' && req.body !== undefined) flaws.push(req.body.trim() === '' ? 'an empty body' : 'a body that is not JSON');
  if (req.method === 'POST' && frames.some((f) => !isJsonObject(f) && !Array.isArray(f))) flaws.push('a body that is no JSON-RPC message');
  if (req.session !== undefined && !given.has(req.session)) flaws.push(`session ${show(req.session)}, which the server never gave`);
  else if (req.session !== undefined && frames.some((f) => isRequestFrame(f) && f.method === 'initialize')) flaws.push(`an initialize inside session ${show(req.session)}, which is initialized already`);
  return flaws;
}

/**
 * `http.rejects-bad-input`: an HTTP request the server cannot accept (`flawsOf`) gets an HTTP
 * error status, a 4xx: never a 2xx or 3xx (taken as if it were sound), a 5xx (the server broke on
 * it) or, on a virtual clock, no answer by the end of the run. That the session stays usable after
 * it is `rpc.survives-bad-input`'s (the ping after it).
 */
export const httpBadInputRule: RuleFactory = (walk) => {
  const frames = new Map<number, JsonValue>();
  /** Session ids the server gave (on any response head). */
  const given = new Set<string>();
  /** Flawed requests awaiting their answer, by exchange. */
  const flawed = new Map<number, { readonly req: HttpRequest; readonly flaws: readonly string[] }>();
  const what = (req: HttpRequest, flaws: readonly string[]) => `${req.method} #${req.exchange} (${flaws.join('; ')})`;
  return {
    trace(e) {
      if (e.kind === 'send' && e.from === 'client') frames.set(e.seq, e.frame);
      if (e.kind === 'http-request' && e.at === 'client') {
        // Its frames are recorded right after it: judged once they are in, at its answer or the end.
        flawed.set(e.exchange, { req: e, flaws: [] });
      }
      if (e.kind !== 'http-response') return;
      const pending = flawed.get(e.exchange);
      flawed.delete(e.exchange);
      if (pending) {
        const flaws = flawsOf(pending.req, pending.req.seqs.map((q) => frames.get(q) ?? null), given);
        if (flaws.length > 0 && !(e.status >= 400 && e.status < 500)) {
          const how = e.status >= 500 ? `${e.status}, a server error` : `${e.status}, as if it were sound`;
          walk.flag(finding('http.rejects-bad-input', e.i, `the server answered ${what(pending.req, flaws)} with HTTP ${how}: a request it cannot accept gets a 4xx.`, undefined, { side: 'server', conn: e.conn }), false);
        }
      }
      if (e.session !== undefined) given.add(e.session);
    },

    finish() {
      if (walk.clock.kind !== 'virtual') return;
      for (const { req } of flawed.values()) {
        const flaws = flawsOf(req, req.seqs.map((q) => frames.get(q) ?? null), given);
        if (flaws.length > 0) walk.flag(finding('http.rejects-bad-input', req.i, `the server never answered ${what(req, flaws)}: a request it cannot accept gets a 4xx.`, undefined, { side: 'server', conn: req.conn }), false);
      }
    },
  };
};
