import type { TraceEvent } from '../../sim/trace.ts';
import { isJsonObject, isRequestFrame } from '../../util/jsonrpc.ts';
import type { RealClock } from '../clock.ts';
import { finding, type Finding } from '../finding.ts';
import { idKey, show } from '../ids.ts';

/**
 * `http.exchange-completes` on a real clock, its black-box form (`http.ts` calls it): every POST
 * carrying a request ends, a JSON body or an SSE stream that closes, cancelled or not. A black-box
 * run has no end state to read open exchanges from; what it shows is a POST whose response never
 * ended `hangAfterMs` after its cancel, its answer, or (neither) its send. A POST the case itself
 * dropped (a plan's `drop`) is not a finding. A POST that ended only through the run's own
 * teardown (the session's DELETE, the server process's end) did not end: a server that closes
 * its streams at shutdown must not hide one that hung.
 */
export function openPostFindings(trace: readonly TraceEvent[], clock: RealClock): Finding[] {
  const out: Finding[] = [];
  const end = trace.at(-1);
  const endT = end?.t ?? 0;
  const endAt = end?.i ?? 0;
  const teardown = trace.find((e) => (e.kind === 'http-request' && e.at === 'client' && e.method === 'DELETE') || e.kind === 'exit' || (e.kind === 'eof' && e.to === 'server'));
  const stopT = Math.min(teardown?.t ?? endT, endT);
  const clientFrames = new Map<number, Extract<TraceEvent, { kind: 'send' }>>();
  for (const e of trace) if (e.kind === 'send' && e.from === 'client') clientFrames.set(e.seq, e);
  for (const post of trace) {
    if (post.kind !== 'http-request' || post.at !== 'client' || post.method !== 'POST') continue;
    const request = post.seqs.map((q) => clientFrames.get(q)).find((s) => s !== undefined && isRequestFrame(s.frame));
    if (!request || !isRequestFrame(request.frame)) continue;
    const id = request.frame.id;
    const before = (e: TraceEvent) => e.i > post.i && e.t <= stopT && (teardown === undefined || e.i < teardown.i);
    const head = trace.find((e) => e.kind === 'http-response' && e.at === 'client' && e.exchange === post.exchange);
    const sse = head?.kind === 'http-response' && head.contentType?.includes('text/event-stream') === true;
    const ended = head !== undefined && before(head) && (!sse || trace.some((e) => e.kind === 'sse-end' && e.at === 'client' && e.exchange === post.exchange && before(e)));
    if (ended) continue;
    const label = [...trace].reverse().find((e) => e.kind === 'call-start' && e.i < post.i && e.id !== undefined && idKey(e.id) === idKey(id));
    const call = label?.kind === 'call-start' ? label.call : undefined;
    const dropped = trace.find((e) => e.kind === 'http-disconnect' && e.at === 'client' && e.exchange === post.exchange);
    // The case gave it up by dropping the stream (`cancel … (drop its POST stream)`), not the teardown.
    const droppedByCase = dropped !== undefined && call !== undefined && trace.some((e) => e.kind === 'action' && e.i < dropped.i && /drop its POST stream/.test(e.action) && e.action.includes(` ${call} `));
    if (droppedByCase) continue;
    const cancel = trace.find((e) => e.kind === 'send' && e.from === 'client' && e.i > post.i && isJsonObject(e.frame) && e.frame.method === 'notifications/cancelled' && isJsonObject(e.frame.params) && idKey(e.frame.params.requestId) === idKey(id));
    const answer = trace.find((e) => e.kind === 'deliver' && e.to === 'client' && e.i > post.i && isJsonObject(e.frame) && ('result' in e.frame || 'error' in e.frame) && idKey(e.frame.id) === idKey(id));
    const from = cancel ?? answer;
    const waited = stopT - (from?.t ?? post.t);
    if (waited < clock.hangAfterMs) continue;
    const since = cancel ? 'its cancel' : answer ? 'its response' : 'it was sent';
    const how = head === undefined ? 'no response head' : 'the SSE stream stayed open';
    const teardownNote = teardown !== undefined && teardown.t <= endT ? ' (until the run\'s own teardown, which does not count as its end)' : '';
    out.push(
      finding('http.exchange-completes', dropped?.i ?? endAt, `POST #${post.exchange} carrying request ${show(id)}${call ? ` (${call})` : ''} never ended (${how}) ${Math.round(waited)} ms after ${since}${teardownNote} (bound --hang-after ${clock.hangAfterMs} ms): a client waiting on it hangs.`, call ?? `client:${show(id)}`, { sender: 'client', ids: [idKey(id)] }),
    );
  }
  return out;
}
