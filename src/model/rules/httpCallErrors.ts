import type { TraceEvent } from '../../sim/trace.ts';
import type { JsonValue } from '../../util/json.ts';
import { isRequestFrame } from '../../util/jsonrpc.ts';
import { finding, type Finding } from '../finding.ts';
import { idKey } from '../ids.ts';

/** A client call as far as this check needs it. */
interface CallView {
  readonly call: string;
  settledAt?: number;
  settledStep?: number;
}

/**
 * `http.error-fails-call`: a POST of the SDK client carrying a request, answered with an HTTP
 * error status, means the request was not accepted and no response will come: the call must
 * reject in the step the error reached the client, not wait for its timeout. A call that had
 * settled before is not judged; a caller's raw POST (`http-post`) has no call.
 */
export function errorCallFindings(trace: readonly TraceEvent[]): Finding[] {
  const out: Finding[] = [];
  const clientFrames = new Map<number, JsonValue>();
  for (const e of trace) if (e.kind === 'send' && e.from === 'client') clientFrames.set(e.seq, e.frame);
  const calls = new Map<string, CallView>();
  const byLabel = new Map<string, CallView>();
  /** Client POSTs (not raw) → the `conn:id` keys of the requests they carried. */
  const posts = new Map<number, string[]>();
  for (const e of trace) {
    if (e.kind === 'call-start' && e.from === 'client' && e.id !== undefined) {
      const view: CallView = { call: e.call };
      calls.set(`${e.conn}:${idKey(e.id)}`, view);
      byLabel.set(e.call, view);
    } else if (e.kind === 'call-settle') {
      const view = byLabel.get(e.call);
      if (view && view.settledAt === undefined) {
        view.settledAt = e.i;
        view.settledStep = e.step;
      }
    } else if (e.kind === 'http-request' && e.at === 'client' && e.method === 'POST' && !e.raw) {
      const keys: string[] = [];
      for (const s of e.seqs) {
        const f = clientFrames.get(s);
        if (f !== undefined && isRequestFrame(f)) keys.push(`${e.conn}:${idKey(f.id)}`);
      }
      if (keys.length > 0) posts.set(e.exchange, keys);
    }
  }
  for (const e of trace) {
    if (e.kind !== 'http-response' || e.at !== 'client' || e.status < 400) continue;
    for (const key of posts.get(e.exchange) ?? []) {
      const view = calls.get(key);
      if (!view || (view.settledAt !== undefined && view.settledAt < e.i)) continue;
      if (view.settledAt !== undefined && view.settledStep === e.step) continue;
      out.push(
        finding(
          'http.error-fails-call',
          e.i,
          `POST #${e.exchange} carrying ${view.call} was answered ${e.status}, yet ${view.call} ${view.settledAt === undefined ? 'never settled' : 'did not reject in that step'}.`,
          view.call,
        ),
      );
    }
  }
  return out;
}
