import type { TraceEvent, WireId } from '../../sim/trace.ts';
import { isRequestFrame, isResponseFrame } from '../../util/jsonrpc.ts';
import { finding } from '../finding.ts';
import { idKey, show } from '../ids.ts';
import type { RuleFactory } from '../rule.ts';

/**
 * The clauses only revision 2026-07-28 has (`--spec 2026-07-28`), judged from the trace:
 *
 * - `rpc.request-id-outstanding`: there is no session, so an id must only be unique among the
 *   sender's outstanding requests on its connection: sent, not answered, and (Streamable HTTP)
 *   its POST not closed by the sender. Reusing an id after its request settled is fine.
 * - `http.disconnect-cancels`: closing a request's response stream is its cancellation. When a
 *   client's disconnect of a POST reaches the server, each request of that POST whose handler
 *   is still running has its signal aborted in that same step; no `notifications/cancelled` is
 *   needed (the session-era `http.disconnect-not-cancel`, inverted).
 * - `http.stream-loss-fails-call`: there is no resumability, so when a POST's stream ends or
 *   breaks at the client before the response of a request it carried, that request's call
 *   fails in the same step (a cancel by the client settles it in that step too).
 */
export const modernRule: RuleFactory = (walk) => {
  /** Outstanding request ids by `sender:conn`. */
  const outstanding = new Map<string, Set<string>>();
  /** Request ids of each client exchange, from its frames. */
  const exchangeIds = new Map<number, WireId[]>();
  /** The seqs of each client exchange's frames, until the frames are seen. */
  const exchangeSeqs = new Map<number, { conn: number; seqs: number[] }>();
  /** Server handlers running, by `conn:id` key. */
  const running = new Set<string>();
  /** The client's calls by `conn:id` key, and those settled or answered. */
  const callOf = new Map<string, string>();
  const settled = new Set<string>();
  const answered = new Set<string>();
  const handlerKey = (conn: number, id: WireId) => `${conn}:${idKey(id)}`;
  const setOf = (key: string) => {
    let set = outstanding.get(key);
    if (!set) outstanding.set(key, (set = new Set()));
    return set;
  };

  const onEvent = (e: TraceEvent) => {
    switch (e.kind) {
      case 'send':
        if (isRequestFrame(e.frame)) {
          const ids = setOf(`${e.from}:${e.conn}`);
          const k = idKey(e.frame.id);
          if (ids.has(k)) {
            const subjects = { sender: e.from, conn: e.conn, client: walk.clientOf(e.conn), ids: [k] };
            walk.flag(
              finding('rpc.request-id-outstanding', e.i, `the ${e.from} reused request id ${show(e.frame.id)} while its earlier request of that id was still outstanding.`, `${e.from}:${show(e.frame.id)}`, subjects),
            );
          }
          ids.add(k);
        }
        for (const [exchange, pending] of exchangeSeqs) {
          if (pending.conn !== e.conn || !pending.seqs.includes(e.seq) || !isRequestFrame(e.frame)) continue;
          const ids = exchangeIds.get(exchange) ?? [];
          ids.push(e.frame.id as WireId);
          exchangeIds.set(exchange, ids);
        }
        return;
      case 'deliver':
        // The response reached its requester: the request is no longer outstanding.
        if (isResponseFrame(e.frame)) {
          outstanding.get(`${e.to}:${e.conn}`)?.delete(idKey(e.frame.id));
          if (e.to === 'client') answered.add(handlerKey(e.conn, e.frame.id as WireId));
        }
        return;
      case 'call-start':
        if (e.from === 'client' && e.id !== undefined) callOf.set(handlerKey(e.conn, e.id), e.call);
        return;
      case 'call-settle':
        settled.add(e.call);
        return;
      case 'sse-end':
        if (e.at === 'client') streamLost(e.exchange, e.conn, e.i, 'ended');
        return;
      case 'http-request':
        if (e.at === 'client') exchangeSeqs.set(e.exchange, { conn: e.conn, seqs: [...e.seqs] });
        return;
      case 'handler-start':
        if (e.side === 'server') running.add(handlerKey(e.conn, e.id));
        return;
      case 'handler-end':
      case 'handler-abort':
        if (e.side === 'server') running.delete(handlerKey(e.conn, e.id));
        return;
      case 'http-disconnect': {
        const ids = exchangeIds.get(e.exchange) ?? [];
        if (e.at === 'client') {
          // The client closed the request's stream (it cancelled those requests), or the network broke it.
          for (const id of ids) outstanding.get(`client:${e.conn}`)?.delete(idKey(id));
          streamLost(e.exchange, e.conn, e.i, 'was closed or broke');
          return;
        }
        const step = e.step;
        for (const id of ids) {
          if (!running.has(handlerKey(e.conn, id))) continue;
          const at = e.i;
          const exchange = e.exchange;
          walk.oblige({
            check(w) {
              if (!running.has(handlerKey(e.conn, id))) return;
              w.flag(
                finding(
                  'http.disconnect-cancels',
                  at,
                  `the client closed POST #${exchange} in step ${step}, yet the handler of request id=${show(id)} kept running with its signal not aborted: on 2026-07-28 the disconnect is the cancellation.`,
                  `client:${show(id)}`,
                ),
              );
            },
          });
        }
        return;
      }
      default:
        return;
    }
  };
  /** The POST's stream is gone at the client: every call of it still unanswered must fail in this step. */
  function streamLost(exchange: number, conn: number, at: number, how: string): void {
    for (const id of exchangeIds.get(exchange) ?? []) {
      const key = handlerKey(conn, id);
      const call = callOf.get(key);
      if (call === undefined || settled.has(call) || answered.has(key)) continue;
      walk.oblige({
        check(w) {
          if (settled.has(call) || answered.has(key)) return;
          w.flag(
            finding(
              'http.stream-loss-fails-call',
              at,
              `the stream of POST #${exchange} ${how} before the response of ${call} (id=${show(id)}), yet ${call} did not fail: on 2026-07-28 nothing can bring that response any more (no resumability), so it waits for its timeout.`,
              call,
            ),
          );
        },
      });
    }
  }

  return { trace: onEvent };
};
