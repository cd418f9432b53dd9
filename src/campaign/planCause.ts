/**
 * The cause of a black-box finding, told apart as a simulated one is (`cause.ts`: `variantOf`,
 * `shapeOf`, `covers`): the transport variant its run was on and the features of its real-time
 * plan. Two minimal plans of one invariant with different shapes are two causes, so a campaign
 * shrinks and reports each (`fuzzProcess`'s `shrinkAndRate`).
 */
import type { Plan } from '../real/plan.ts';
import type { TraceEvent } from '../sim/trace.ts';

/**
 * Where a black-box run ran: `stdio`, or `http/<stateful|stateless>/<sse|json>` as the server
 * showed it (a session id given; a call's POST answered with an SSE stream or a JSON body). A bug
 * of one transport mode is a cause of its own, as `variantOf` says of simulated ones.
 */
export function realVariantOf(trace: readonly TraceEvent[]): string {
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

/**
 * The features a real-time plan uses: how a call is given up (`cancel`, `drop`, `timeout`,
 * `reset-on-progress`, `cancel-after-progress`), whether it asks for progress (`progress-token`),
 * how the client answers the server's requests (`server-request-late`, `server-request-error`),
 * an early `close`, several calls at once (`concurrent`) and a reused id in flight
 * (`duplicate-id`). A plan that lacks some feature of every known minimal shape of an invariant
 * is a new cause of it (`covers`).
 */
export function planShapeOf(plan: Plan): Set<string> {
  const f = new Set<string>();
  for (const c of plan.calls) {
    if (c.cancel) {
      const how = c.cancelHow ?? 'notify';
      if (how !== 'drop') f.add('cancel');
      if (how !== 'notify') f.add('drop');
      if (c.cancel.kind === 'progress') f.add('cancel-after-progress');
    }
    if (c.timeout) {
      f.add('timeout');
      if (c.timeout.resetOnProgress) f.add('reset-on-progress');
    }
    if (c.progressToken !== undefined) f.add('progress-token');
    if (c.sameIdAs !== undefined) f.add('duplicate-id');
  }
  if (plan.calls.length > 1) f.add('concurrent');
  if (plan.serverRequests !== 'answer') f.add(`server-request-${plan.serverRequests}`);
  if (plan.close) f.add('close');
  return f;
}
