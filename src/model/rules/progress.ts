import type { Side } from '../../sim/scenario.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import { finding } from '../finding.ts';
import { idKey, other, show } from '../ids.ts';
import { handlerOf, isOpen, wireOf, type CallRec, type ReceiverRec, type RequesterRec } from '../records.ts';
import type { Obligation, RuleFactory, Walk } from '../rule.ts';
import { receiverSubjects, requesterSubjects } from '../subjects.ts';
import { LateDelivery } from './lateDelivery.ts';

/**
 * A clause of `progress.delivered` that one bug breaks apart from the rest: a call's onprogress
 * was given progress its own request's token never carried (another request's, or a token no
 * request chose), so a caller's bar moves for work that is not its call's.
 */
export const PROGRESS_MISROUTED = 'misrouted';

/** A progress reached the requester before the response: the caller's onprogress must run in this step. */
class OnprogressDue implements Obligation {
  done = false;
  constructor(
    readonly call: CallRec,
    readonly at: number,
  ) {}

  check(walk: Walk): void {
    if (this.done || this.call.settled) return;
    const { call } = this;
    walk.flag(finding('progress.delivered', this.at, `a progress notification for ${call.call} reached the ${call.from} before the response but never reached the caller's onprogress.`, call.call));
  }
}

/**
 * `progress.*`: a sender's progress names a token of a request it received and still serves
 * (never after the response, never another request's than the handler's that sent it), values strictly increase and the total stays put; a requester
 * keeps its open tokens distinct, hands every timely progress to the caller's onprogress, and
 * drops a late one silently.
 */
export const progressRule: RuleFactory = (walk) => {
  /**
   * The last progress and total each received request sent, per stream it went on (the one key
   * `undefined` in a simulated trace; a black-box HTTP run's exchange otherwise): the order two
   * streams were read in is not the order they were written in, so order is judged within one.
   */
  const counters = new Map<ReceiverRec, Map<number | undefined, { progress?: number; total?: number }>>();
  const late = new LateDelivery();
  /** Progress each request's requester read and its caller's onprogress has not had yet, by value: what an onprogress may be given. */
  const unhanded = new Map<RequesterRec, Map<string, number>>();
  /**
   * `progress.reaches-requester`: progress a running handler emitted for an open request with a
   * token, not yet delivered to the requester: `to:conn:token:progress` → oldest first.
   */
  const emitted = new Map<string, { readonly i: number; readonly rec: ReceiverRec; readonly progress: number }[]>();
  const closedConns = new Set<number>();
  /**
   * Real clock: progress the requester read before the side channel told of its step (stderr and
   * stdout are two pipes, so a step's line may come after its frame), by key: the step, when it
   * comes, was delivered already.
   */
  const early = new Map<string, number>();
  let http = false;
  /** A Streamable HTTP JSON response mode answers a POST with one JSON body: a progress has no way to the client there. */
  let jsonResponses = false;
  /**
   * The handler whose progress step each side ran last, with its step and value: the progress the
   * side sends in that step with that value is that handler's, and must name its own request's token.
   */
  const stepping = new Map<Side, { readonly step: number; readonly rec: ReceiverRec; readonly progress: number }>();
  const keyOf = (to: string, conn: number, token: string, progress: unknown) => `${to}:${conn}:${token}:${String(progress)}`;
  /**
   * `progress.reaches-requester` on a real clock (a test bed's side channel shows the handler's
   * progress steps): a real run has no quiescence, and its connection always closes at the end.
   * What it shows is a request the requester got its answer to, whose handler ended, and a
   * progress step of that handler the requester never read: a progress is written before the
   * answer, so it was lost, not late. Not judged in a JSON response mode (no stream for it).
   */
  const lostBeforeAnswer = () => {
    if (jsonResponses) return;
    for (const list of emitted.values()) {
      for (const { i, rec, progress } of list) {
        const req = walk.requester(other(rec.side), rec.conn, rec.id);
        if (req === undefined || wireOf(req) !== 'responded' || handlerOf(rec) !== 'ended') continue;
        walk.flag(finding('progress.reaches-requester', i, `the ${rec.side}'s handler emitted progress ${progress} for ${walk.receivedLabel(rec)}, but the ${other(rec.side)} got the response without it: the progress was lost.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
      }
    }
  };
  return {
    trace(e) {
      if (e.kind === 'http-request') http = true;
      if (e.kind === 'http-response' && e.at === 'client' && e.status === 200 && e.contentType?.includes('application/json') === true) jsonResponses = true;
      if (e.kind === 'close' || e.kind === 'eof' || e.kind === 'drop') closedConns.add(e.conn);
      if (e.kind === 'handler-step' && e.op.kind === 'progress') {
        let rec: ReceiverRec | undefined;
        for (const r of walk.receivers()) if (r.side === e.side && r.conn === e.conn && idKey(r.id) === idKey(e.id)) rec = r;
        if (rec) stepping.set(e.side, { step: e.step, rec, progress: e.op.progress });
        const wire = rec && wireOf(rec);
        if (rec?.token !== undefined && (wire === 'open' || wire === 'progressing') && handlerOf(rec) === 'running') {
          const k = keyOf(other(e.side), e.conn, rec.token, e.op.progress);
          const read = early.get(k) ?? 0;
          if (read > 0) early.set(k, read - 1);
          else {
            const list = emitted.get(k) ?? [];
            list.push({ i: e.i, rec, progress: e.op.progress });
            emitted.set(k, list);
          }
        }
      }
      if (e.kind === 'deliver') {
        const frame = e.frame as { method?: unknown; params?: { progressToken?: unknown; progress?: unknown } } | null;
        if (frame && typeof frame === 'object' && frame.method === 'notifications/progress') {
          const k = keyOf(e.to, e.conn, idKey(frame.params?.progressToken), frame.params?.progress);
          const list = emitted.get(k);
          if (list?.length) list.shift();
          else if (walk.clock.kind === 'real') early.set(k, (early.get(k) ?? 0) + 1);
        }
      }
      if (e.kind === 'deliver') late.delivered(e.to);
      if (e.kind !== 'onerror') return;
      const rec = late.erred(e);
      if (!rec) return;
      walk.flag(finding('progress.race-silent', e.i, `the ${e.side} raised an error callback for a late progress notification of ${walk.label(rec)} ("${e.message.slice(0, 80)}") instead of dropping it silently.`, walk.label(rec)));
    },

    requestSent({ e, params, rec, tokenHolder }) {
      if (!tokenHolder || !isOpen(tokenHolder)) return;
      const token = (params?._meta as Record<string, unknown> | undefined)?.progressToken;
      walk.flag(finding('progress.token-unique', e.i, `the ${e.from} sent progress token ${show(token)} for ${walk.label(rec)} while ${walk.label(tokenHolder)} still uses it.`, walk.label(rec), requesterSubjects(walk, rec)));
    },

    strayProgress({ e, token, elsewhere }) {
      if (elsewhere) return; // rpc.routing
      walk.flag(finding('progress.token-requested', e.i, `the ${e.from} sent progress for token ${show(token)}, which no request it is processing carried.`, `${e.from}:${show(token)}`));
    },

    refused(o) {
      if (o.machine !== 'receiver' || o.event !== 'PROGRESS' || o.wire !== 'responded') return;
      walk.flag(finding('progress.after-response', o.e.i, `the ${o.rec.side} sent progress for ${walk.receivedLabel(o.rec)} after it had sent the response.`, walk.receivedLabel(o.rec)));
    },

    progressSent({ e, params, rec }) {
      const own = stepping.get(e.from);
      if (own && own.step === e.step && own.rec !== rec && own.progress === params?.progress) {
        walk.flag(finding('progress.token-requested', e.i, `the ${e.from}'s handler of ${walk.receivedLabel(own.rec)} sent progress naming the token of ${walk.receivedLabel(rec)}, another request.`, walk.receivedLabel(own.rec), receiverSubjects(walk, own.rec)));
      }
      let streams = counters.get(rec);
      if (!streams) counters.set(rec, (streams = new Map()));
      const seen = streams.get(e.stream) ?? {};
      streams.set(e.stream, seen);
      const p = params?.progress;
      if (typeof p === 'number') {
        if (seen.progress !== undefined && !(p > seen.progress)) {
          walk.flag(finding('progress.increasing', e.i, `progress for ${walk.receivedLabel(rec)} went from ${seen.progress} to ${p}; it must strictly increase.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
        }
        seen.progress = p;
      }
      const total = params?.total;
      if (typeof total === 'number') {
        if (seen.total !== undefined && total !== seen.total) {
          walk.flag(finding('progress.total-stable', e.i, `total for ${walk.receivedLabel(rec)} changed from ${seen.total} to ${total}.`, walk.receivedLabel(rec)));
        }
        seen.total = total;
      }
    },

    progressDelivered({ e, rec, wire }) {
      const value = String((e.frame as { params?: { progress?: unknown } }).params?.progress);
      const byValue = unhanded.get(rec) ?? new Map<string, number>();
      byValue.set(value, (byValue.get(value) ?? 0) + 1);
      unhanded.set(rec, byValue);
      if (wire !== 'pending' && wire !== 'progressing') return late.arrived(e, rec);
      // Only a progress with its numeric `progress` is owed to onprogress: one without is no
      // progress notification (`rpc.method-defined`'s shape), and the requester may refuse it.
      if (rec.call?.options.onprogress && !rec.call.settled && hasProgressValue(e.frame)) walk.oblige(new OnprogressDue(rec.call, e.i));
    },

    finish({ outcome }) {
      if (walk.clock.kind === 'real') return lostBeforeAnswer();
      // Streamable HTTP states its own drops (JSON response mode, a disconnected SSE stream): judged on the memory link only.
      // Before quiescence a progress may still be on its way.
      if (http || outcome !== 'quiescent') return;
      for (const list of emitted.values()) {
        for (const { i, rec, progress } of list) {
          if (closedConns.has(rec.conn) || wireOf(rec) === 'cancelRequested' || wireOf(rec) === 'closed') continue;
          const req = walk.requester(other(rec.side), rec.conn, rec.id);
          const gaveUp = req !== undefined && ['cancelled', 'lateResponse', 'timedOut', 'closed'].includes(wireOf(req));
          if (gaveUp) continue;
          walk.flag(finding('progress.reaches-requester', i, `the ${rec.side}'s handler emitted progress ${progress} for ${walk.receivedLabel(rec)}, but it never reached the ${other(rec.side)} though the connection stayed open.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
        }
      }
    },

    onprogress({ e, call, late: afterSettle }) {
      if (afterSettle) return; // timeout.quiet-after-settle
      const byValue = call.req && unhanded.get(call.req);
      const left = byValue?.get(String(e.progress)) ?? 0;
      if (byValue && left > 0) byValue.set(String(e.progress), left - 1);
      else if (call.req) {
        const token = call.req.token === undefined ? 'no progress token' : `progress token ${call.req.token.slice(1)}`;
        const f = finding('progress.delivered', e.i, `onprogress of call ${e.call} was given progress ${e.progress}, which no progress notification for its request (${token}) carried: it was another request's, or a token no request chose.`, e.call);
        walk.flag({ ...f, clause: PROGRESS_MISROUTED });
      }
      for (const o of walk.obligations) if (o instanceof OnprogressDue && o.call === call) o.done = true;
    },
  };
};

/** A progress notification carrying its numeric `progress`. */
function hasProgressValue(frame: unknown): boolean {
  return isJsonObject(frame) && isJsonObject(frame.params) && typeof frame.params.progress === 'number';
}
