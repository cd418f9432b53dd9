import type { Side } from '../../sim/scenario.ts';
import type { AbortReach, TraceEvent } from '../../sim/trace.ts';
import { finding, reasonOf, type AnswerReason } from '../finding.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import { idKey, isValidId, other, show } from '../ids.ts';
import { handlerOf, isOpen, type ReceiverRec, type RequesterRec } from '../records.ts';
import type { Obligation, RuleFactory, Walk } from '../rule.ts';
import { callSubjects, receiverSubjects, requesterSubjects, withAbortingSignal } from '../subjects.ts';
import { LateDelivery } from './lateDelivery.ts';
import { callerCloseOf } from '../callerClose.ts';

/**
 * Clauses that one bug breaks apart from the rest of their invariant, while the rest is a known
 * finding of SDK 1.32.2 (a cancel after the response, an error callback for a late response): a
 * cancel of a request its sender never issued, and a cancelled call resolved by a late response.
 */
export const CANCEL_NEVER_ISSUED = 'never-issued';
export const LATE_RESPONSE_RESOLVES = 'resolves';

/** A cancel reached a handler that runs (or starts later in this step): its signal must abort in this step. */
class AbortDue implements Obligation {
  done = false;
  constructor(
    readonly rec: ReceiverRec,
    readonly at: number,
  ) {}

  check(walk: Walk): void {
    if (this.done || handlerOf(this.rec) !== 'running') return;
    const { rec } = this;
    const within = walk.clock.kind === 'real' ? ` within ${walk.clock.inFlightMs} ms` : '';
    walk.flag(
      finding('cancel.handler-aborted', this.at, `the cancellation of request ${show(rec.id)} reached the ${rec.side} but its handler's signal was not aborted${within}.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)),
    );
  }
}

/**
 * The caller aborted the signal of a call whose request was in flight: the SDK's abort listener
 * sends the cancel synchronously, so it must go out (or be attempted: `send-failed`) in this step.
 * On a real clock (no steps) it must go out after the abort, within the in-flight bound.
 */
class AbortCancelDue implements Obligation {
  constructor(
    readonly rec: RequesterRec,
    readonly at: number,
    readonly signal: string,
    /** The step of the abort. */
    readonly step: number,
  ) {}

  check(walk: Walk): void {
    const sent = walk.clock.kind === 'real' ? this.rec.lastCancelStep !== undefined && this.rec.lastCancelStep >= this.step : this.rec.lastCancelStep === walk.step;
    // 2026-07-28: a request whose stream already closed is cancelled; there is nothing left to close.
    if (sent || this.rec.streamClosedStep !== undefined) return;
    const name = walk.label(this.rec);
    const within = walk.clock.kind === 'real' ? ` within ${walk.clock.inFlightMs} ms` : '';
    walk.flag(finding('cancel.abort-sends-cancel', this.at, `the caller aborted signal ${this.signal} while ${name} was in flight, but the ${this.rec.from} sent no cancellation for it${within}.`, name, requesterSubjects(walk, this.rec)));
  }
}

/** A hosted handler's fetch, while under way. */
interface OpenFetch {
  readonly side: Side;
  readonly conn: number;
  readonly id: string | number;
  readonly url: string;
  /** Its handler's signal aborted while it was under way. */
  abortedUnder: boolean;
}

/**
 * `cancel.reaches-work`: tracks each hosted handler's fetches and tells when one that was under
 * way at its handler's abort still ended in a response (once per handler).
 */
class UnreachedWork {
  private readonly open = new Map<number, OpenFetch>();
  private readonly reported = new Set<string>();

  see(e: TraceEvent): OpenFetch | undefined {
    if (e.kind === 'fetch' && e.id !== undefined) this.open.set(e.n, { side: e.side, conn: e.conn, id: e.id, url: e.url, abortedUnder: false });
    if (e.kind === 'handler-abort') {
      for (const f of this.open.values()) if (f.side === e.side && f.conn === e.conn && f.id === e.id) f.abortedUnder = true;
    }
    if (e.kind !== 'fetch-end') return undefined;
    const f = this.open.get(e.n);
    this.open.delete(e.n);
    const key = f && `${f.side}:${f.conn}:${idKey(f.id)}`;
    if (!f || !key || !f.abortedUnder || e.outcome !== 'response' || this.reported.has(key)) return undefined;
    this.reported.add(key);
    return f;
  }
}

/**
 * Hosted tools whose callback started after their signal had aborted (`tool-start`): the SDK's
 * `tools/call` handler ran, but the user's tool never ran under the abort, so a plain result from
 * it is not a swallowed abort. Without a `tool-start` (a low-level server) the handler's own start counts.
 */
class AbortedBeforeTool {
  private readonly keys = new Set<string>();
  /** How an abort reached each hosted tool callback (`abort-reached`), and how each callback settled (`tool-end`). */
  private readonly reached = new Map<string, AbortReach>();
  private readonly settled = new Map<string, Extract<TraceEvent, { kind: 'tool-end' }>>();

  see(e: TraceEvent): void {
    if (e.kind === 'tool-start' && e.aborted) this.keys.add(`${e.side}:${e.conn}:${idKey(e.id)}`);
    if (e.kind === 'abort-reached') this.reached.set(`${e.side}:${e.conn}:${idKey(e.id)}`, e.via);
    if (e.kind === 'tool-end') this.settled.set(`${e.side}:${e.conn}:${idKey(e.id)}`, e);
  }

  /**
   * What the handler that ended with `e` did with its abort: whether it gave it to a tool that had
   * not started (and nothing reached that tool since), how it reached the callback, and whether
   * the callback returned an `isError` result. Forgets the handler.
   */
  ended(e: { readonly side: Side; readonly conn: number; readonly id: string | number }): { beforeTool: boolean; via: AbortReach | undefined; isError: boolean } {
    const key = `${e.side}:${e.conn}:${idKey(e.id)}`;
    const via = this.reached.get(key);
    const isError = this.settled.get(key)?.isError === true;
    const beforeTool = this.keys.delete(key) && via === undefined;
    this.reached.delete(key);
    this.settled.delete(key);
    return { beforeTool, via, isError };
  }
}

/** What an answer to a cancelled request was, in words (`cancel.no-response-after` on a real clock). */
const REASON_WORDS: Readonly<Record<AnswerReason['answer'], string>> = {
  error: 'with an error',
  isError: 'with a tool result marked isError',
  result: 'with a result',
};

/** How an abort reached a hosted tool callback, in words (`cancel.abort-swallowed`'s message). */
export const REACHED_BY: Readonly<Record<AbortReach, string>> = {
  fetch: 'its fetch rejected with the abort',
  sleep: 'its timers/promises sleep rejected with the abort',
  throwIfAborted: 'signal.throwIfAborted() threw',
  listener: 'an abort listener it registered ran',
};

/**
 * `cancel.*` but the race rule (`cancelRaceRule`): a cancel is well-formed, names a request
 * its sender issued and still awaits, never initialize; its receiver sends no response after
 * it, aborts the handler's signal, and the handler stops (no more steps, no progress, no normal
 * result); a response arriving after the cancel neither resolves the call nor raises an error.
 */
export const cancelRule: RuleFactory = (walk) => {
  const late = new LateDelivery();
  /** Handlers already reported for working after their abort. */
  const zombies = new Set<ReceiverRec>();
  const meet = (rec: ReceiverRec) => {
    for (const o of walk.obligations) if (o instanceof AbortDue && o.rec === rec) o.done = true;
  };
  const unreached = new UnreachedWork();
  const beforeTool = new AbortedBeforeTool();
  /** When each received request's first cancel reached its receiver, and how much progress it sent since. */
  const receipts = new Map<ReceiverRec, { readonly t: number; progress: number }>();
  /**
   * Progress the receiver sent after it had the cancel. On a virtual clock the first is work
   * after the cancel (`cancel.zombie-work`, the handler's conduct). On a real clock a send is not
   * a step: one progress right after the receipt may be a step caught between its check and its
   * send, so it counts from the second one (over stdio, where one pipe orders them) or from one
   * later than the in-flight bound (over HTTP only the time counts: two streams give no order).
   * It is `progress.after-cancel`, what reached the wire, even where a test bed's side channel
   * shows the handler: the handler's own steps after its abort are `cancel.zombie-work` (the STEP
   * clauses), and whether their progress still leaves is the SDK's doing (TypeScript drops an
   * aborted request's notifications from 1.26.0), a fact of its own.
   */
  const progressAfterCancel = (e: TraceEvent, rec: ReceiverRec) => {
    const got = receipts.get(rec);
    if (walk.clock.kind !== 'real' || e.kind !== 'send' || !got) return;
    got.progress++;
    const since = e.t - got.t;
    if (since <= walk.clock.inFlightMs && (e.stream !== undefined || got.progress < 2)) return;
    const value = isJsonObject(e.frame) && isJsonObject(e.frame.params) ? e.frame.params.progress : undefined;
    const message = `the ${rec.side} sent progress ${show(value)} for ${walk.receivedLabel(rec)} ${Math.round(since)} ms after it had read the cancellation (${got.progress} since; in-flight bound ${walk.clock.inFlightMs} ms): the cancellation does not reach the work.`;
    walk.flag(finding('progress.after-cancel', e.i, message, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
  };
  return {
    trace(e) {
      beforeTool.see(e);
      const missed = unreached.see(e);
      if (missed) {
        walk.flag(finding('cancel.reaches-work', e.i, `the ${missed.side}'s handler for request ${show(missed.id)} was aborted while its fetch ${missed.url} was under way, but that fetch went on to its response: the handler did not pass its signal to it.`, `${other(missed.side)}:${show(missed.id)}`));
      }
      if (e.kind === 'abort-signal') {
        // In flight: sent, not answered, not cancelled or timed out, its connection open at the requester.
        for (const call of walk.calls()) {
          const rec = call.req;
          if (call.options.signal !== e.signal || call.settled || !rec || rec.method === 'initialize' || !isOpen(rec)) continue;
          walk.oblige(new AbortCancelDue(rec, e.i, e.signal, e.step));
        }
        return;
      }
      if (e.kind === 'deliver') late.delivered(e.to);
      if (e.kind !== 'onerror') return;
      const rec = late.erred(e);
      if (!rec) return;
      walk.flag(finding('cancel.late-response-silent', e.i, `the ${e.side} raised an error callback for a response that arrived after the cancel of ${walk.label(rec)} ("${e.message.slice(0, 80)}") instead of dropping it silently.`, walk.label(rec)));
    },

    cancelSent({ e, requestId: id, rec }) {
      const X = e.from;
      if (!isValidId(id)) {
        walk.flag(finding('cancel.well-formed', e.i, `the ${X} sent notifications/cancelled with requestId ${show(id)}; it must name the request by its id.`, `${X}:${e.conn}`));
      } else if (!rec) {
        const f = finding('cancel.in-flight-only', e.i, `the ${X} cancelled request ${show(id)}, which it never sent.`, `${X}:${show(id)}`, { sender: X, conn: e.conn, client: walk.clientOf(e.conn), ids: [idKey(id)] });
        walk.flag({ ...f, clause: CANCEL_NEVER_ISSUED });
      } else if (rec.method === 'initialize') {
        walk.flag(finding('cancel.not-initialize', e.i, `the ${X} cancelled its initialize request (id ${show(id)}).`, walk.label(rec), requesterSubjects(walk, rec)));
      }
    },

    refused(o) {
      if (o.machine === 'requester' && o.event === 'CANCEL') {
        const why =
          o.wire === 'responded' || o.wire === 'lateResponse' ? 'whose response it already had' : o.wire === 'cancelled' ? 'a second time' : 'after the connection it was sent on closed';
        const subjects = withAbortingSignal(walk, requesterSubjects(walk, o.rec), o.rec, o.e.step);
        walk.flag(finding('cancel.in-flight-only', o.e.i, `the ${o.rec.from} cancelled ${walk.label(o.rec)} ${why}.`, walk.label(o.rec), subjects));
      }
      if (o.machine !== 'receiver') return;
      const { rec } = o;
      // A cancel of initialize is the client's violation (cancel.not-initialize); the server may ignore it.
      if (o.event === 'RESPOND' && o.wire === 'cancelRequested' && rec.method !== 'initialize') {
        if (walk.clock.kind === 'real' && o.e.kind === 'send') {
          // The spec's word is SHOULD NOT respond, whatever the answer: an error that says cancelled too. What the answer said is kept beside it.
          const reason = reasonOf(o.e.frame);
          const since = Math.round(o.e.t - (receipts.get(rec)?.t ?? o.e.t));
          const f = finding('cancel.no-response-after', o.e.i, `the ${rec.side} answered request ${show(rec.id)} (${REASON_WORDS[reason.answer]}) ${since} ms after it had read its cancellation: a cancelled request should get no response.`, walk.receivedLabel(rec), receiverSubjects(walk, rec));
          walk.flag({ ...f, reason });
        } else {
          walk.flag(finding('cancel.no-response-after', o.e.i, `the ${rec.side} answered request ${show(rec.id)} after it had received its cancellation.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
        }
      }
      if (o.event === 'PROGRESS' && o.wire === 'cancelRequested') {
        if (walk.clock.kind === 'real') progressAfterCancel(o.e, rec);
        else walk.flag(finding('cancel.zombie-work', o.e.i, `the ${rec.side} sent progress for ${walk.receivedLabel(rec)} after it had received the cancellation.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
      }
      if (o.event === 'STEP' && o.handler === 'aborted' && !zombies.has(rec) && o.e.kind === 'fetch') {
        zombies.add(rec);
        const e = o.e;
        walk.flag(finding('cancel.zombie-work', e.i, `the ${e.side}'s handler for request ${show(rec.id)} called fetch ${e.url} after its signal aborted.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
      }
      if (o.event === 'STEP' && o.handler === 'aborted' && !zombies.has(rec) && o.e.kind === 'handler-timer') {
        zombies.add(rec);
        const e = o.e;
        walk.flag(finding('cancel.zombie-work', e.i, `the ${e.side}'s handler for request ${show(rec.id)} set a ${e.ms} ms timer (${e.label}) after its signal aborted.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
      }
      if (o.event === 'STEP' && o.handler === 'aborted' && !zombies.has(rec) && o.e.kind === 'handler-step') {
        zombies.add(rec);
        const e = o.e;
        walk.flag(finding('cancel.zombie-work', e.i, `the ${e.side}'s handler for request ${show(e.id)} ran step #${e.index} (${e.op.kind}) after its signal aborted.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
      }
    },

    cancelDelivered({ e, rec }) {
      if (!receipts.has(rec)) receipts.set(rec, { t: e.t, progress: 0 });
      const h = handlerOf(rec);
      // Idle: the cancel came in the same burst as its request; the handler starts later in this step.
      if (h === 'running' || (h === 'idle' && rec.method !== 'initialize')) walk.oblige(new AbortDue(rec, e.i));
    },

    handlerAborted({ rec }) {
      meet(rec);
    },

    handlerEnded({ e, rec }) {
      const conduct = beforeTool.ended(e);
      if (e.outcome === 'swallowed' && !conduct.beforeTool) {
        const label = rec ? walk.receivedLabel(rec) : `${other(e.side)}:${show(e.id)}`;
        const message =
          conduct.via === undefined
            ? `the ${e.side}'s handler for request ${show(e.id)} caught its abort and returned a normal result.`
            : `the ${e.side}'s handler for request ${show(e.id)} was reached by its abort (${REACHED_BY[conduct.via]}) and returned ${conduct.isError ? 'an isError result' : 'a normal result'} instead of throwing.`;
        walk.flag(finding('cancel.abort-swallowed', e.i, message, label));
      }
      if (rec && e.outcome !== 'result' && e.outcome !== 'error') meet(rec);
    },

    responseDelivered({ e, rec, wire }) {
      if (wire === 'cancelled' || wire === 'timedOut') late.arrived(e, rec);
    },

    callSettled({ e, wire }) {
      if (e.outcome === 'resolved' && (wire === 'cancelled' || wire === 'lateResponse' || wire === 'timedOut')) {
        walk.flag({ ...finding('cancel.late-response-silent', e.i, `call ${e.call} resolved with a response that arrived after its cancel.`, e.call), clause: LATE_RESPONSE_RESOLVES });
      }
    },
  };
};

/**
 * `cancel.race-graceful`: every order of a response and a cancel that cross leaves the session
 * usable. Broken when a side closes the connection in the step the crossing arrived (no caller
 * asked), or a call started after it fails because the connection is gone. Its own rule: its
 * settle check comes after the timeout rule's, as the findings' order always had it.
 */
export const cancelRaceRule: RuleFactory = (walk, facts) => {
  const crossings: { readonly conn: number; readonly side: Side; readonly i: number; readonly step: number; readonly call: string | undefined }[] = [];
  /** The calls whose response crossed their cancel on `conn` before trace index `i`: the race a finding blames. */
  const raced = (conn: number, i: number): string[] => [
    ...new Set(crossings.filter((x) => x.conn === conn && x.i <= i && x.call !== undefined).map((x) => x.call!)),
  ];
  let callerCloseStep = -1;
  /** Connections a caller's close ended: a call failing on one of them failed because the caller closed it, race or not. */
  const callerClosed = new Set<number>();
  return {
    trace(e) {
      if (callerCloseOf(e) !== undefined) callerCloseStep = e.step;
      if (e.kind === 'close' && e.step === callerCloseStep) callerClosed.add(e.conn);
    },

    responseDelivered({ e, rec, wire }) {
      if (wire === 'cancelled' || wire === 'timedOut') crossings.push({ conn: e.conn, side: e.to, i: e.i, step: e.step, call: rec.call?.call });
    },

    sideClosed({ e }) {
      const crossing = crossings.find((x) => x.conn === e.conn && x.step === e.step);
      if (!crossing || callerCloseStep === e.step) return;
      walk.flag(
        finding(
          'cancel.race-graceful',
          e.i,
          `the ${crossing.side} closed connection ${e.conn} right after a response and a cancel crossed; the race must leave the session usable.`,
          `${crossing.side}:${e.conn}`,
          { side: e.side, conn: e.conn, client: walk.clientOf(e.conn), raced: raced(e.conn, e.i) },
        ),
      );
    },

    callSettled({ e, call }) {
      // `search` rather than `test`: facts are shared data, a global regex would carry state.
      if (e.outcome !== 'rejected' || (e.message ?? '').search(facts.errorText.connectionGone) === -1) return;
      const crossing = crossings.find((x) => x.conn === call.conn && x.i < call.startI);
      if (!crossing || callerCloseStep >= crossing.step || callerClosed.has(call.conn)) return;
      walk.flag(finding('cancel.race-graceful', e.i, `call ${e.call}, started after a response and a cancel crossed, failed with "${e.message}": the race broke the session.`, e.call, { ...callSubjects(walk, call), raced: raced(call.conn, call.startI) }));
    },
  };
};
