/**
 * The variant half of a URL finding's cause, as its run showed it, told apart as a simulated one
 * is (src/campaign/cause.ts: `variantOf`); the shape half is `planShape`
 * (src/workload/planShape.ts). Two minimal plans of one invariant on two variants, or with two
 * shapes, are two causes.
 */
import type { TraceEvent } from '../../sim/trace.ts';

/**
 * Where a black-box run ran: `stdio`, or `http/<stateful|stateless>/<sse|json>` as the server
 * showed it (a session id given; a call's POST answered with an SSE stream or a JSON body). A bug
 * of one transport mode is a cause of its own, as `variantOf` says of simulated ones.
 */
export function httpVariantOf(trace: readonly TraceEvent[]): string {
  const methods = new Map<number, string>();
  let http = false;
  let stateful = false;
  let sse: boolean | undefined;
  for (const e of trace) {
    if (e.kind === 'http-request' && e.at === 'client') {
      http = true;
      methods.set(e.exchange, e.method);
    }
    if (e.kind !== 'http-response' || e.at !== 'client') continue;
    if (e.session !== undefined) stateful = true;
    // The first POST answered with a body tells the response mode (a GET stream is SSE whatever the mode).
    if (sse === undefined && methods.get(e.exchange) === 'POST' && e.status < 300 && e.contentType !== undefined) sse = e.contentType.includes('text/event-stream');
  }
  if (!http) return 'stdio';
  return `http/${stateful ? 'stateful' : 'stateless'}/${sse === false ? 'json' : 'sse'}`;
}
