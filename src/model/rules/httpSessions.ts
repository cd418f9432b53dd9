import type { TraceEvent } from '../../sim/trace.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import { finding } from '../finding.ts';
import type { RuleFactory } from '../rule.ts';

/** Both findings blame the server's answer, which the client's `http-response` shows. */
const SERVER = { side: 'server' } as const;

/**
 * Session errors of Streamable HTTP (basic/transports#session-management), judged where a
 * client's requests show them: the black-box client probes them at the end of a stateful run, a
 * rogue HTTP client sends such requests on purpose (a simulated SDK client never does):
 *
 * - `http.session-deleted-404` (MUST): once the server accepted the client's DELETE of its
 *   session (2xx; 405 is its right and not judged), a POST with that `Mcp-Session-Id` gets 404;
 * - `http.session-required-400` (SHOULD): a server that runs sessions (it gave this client one)
 *   answers a POST without the header, other than initialize, with 400. Served 2xx *outside* any
 *   session (no `Mcp-Session-Id` on the answer: go-sdk v1.8.0 opens an ephemeral one), it does not
 *   require a session for such a request, which the SHOULD is not about: not a finding.
 */
export const httpSessionsRule: RuleFactory = (walk) => {
  let sessionGiven: string | undefined;
  const deleted = new Map<string, number>();
  const initializeSeqs = new Set<number>();
  const requests = new Map<number, Extract<TraceEvent, { kind: 'http-request' }>>();
  return {
    trace(e) {
      if (e.kind === 'send' && e.from === 'client' && isJsonObject(e.frame) && e.frame.method === 'initialize') initializeSeqs.add(e.seq);
      if (e.kind === 'http-request' && e.at === 'client') requests.set(e.exchange, e);
      if (e.kind !== 'http-response' || e.at !== 'client') return;
      const req = requests.get(e.exchange);
      if (req) judge(req, e);
      if (e.session !== undefined) sessionGiven ??= e.session;
    },
  };

  function judge(req: Extract<TraceEvent, { kind: 'http-request' }>, res: Extract<TraceEvent, { kind: 'http-response' }>): void {
    if (req.method === 'DELETE' && req.session !== undefined && res.status >= 200 && res.status < 300) {
      deleted.set(req.session, res.status);
      return;
    }
    if (req.method !== 'POST') return;
    if (req.session !== undefined && deleted.has(req.session) && res.status !== 404) {
      walk.flag(finding('http.session-deleted-404', res.i, `after the client's DELETE of session ${JSON.stringify(req.session)} was answered ${deleted.get(req.session)}, a POST with that Mcp-Session-Id was answered ${res.status}, not 404 Not Found: a terminated session must be gone (404 is how a client knows to start a new one).`, undefined, SERVER), false);
    }
    const initializes = req.seqs.some((q) => initializeSeqs.has(q));
    if (req.session !== undefined || sessionGiven === undefined || initializes || res.status === 400) return;
    if (res.status < 300 && res.session === undefined) return;
    walk.flag(
      finding('http.session-required-400', res.i, `a POST without an Mcp-Session-Id header (not an initialize) was answered ${res.status}${res.status < 300 ? ` inside session ${JSON.stringify(res.session)}` : ''}, although this server runs sessions (it gave this client ${JSON.stringify(sessionGiven)}): a server that requires a session should answer 400 Bad Request${res.status < 300 ? ', not serve the request in a session the client did not name' : ''}.`, undefined, SERVER),
      false,
    );
  }
};
