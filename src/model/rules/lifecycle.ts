import type { Side } from '../../sim/scenario.ts';
import { finding } from '../finding.ts';
import { classifyFrame, type Classified } from '../../util/jsonrpc.ts';
import type { Subjects } from '../finding.ts';
import { idKey, other, show } from '../ids.ts';
import { handlerOf } from '../records.ts';
import type { Obligation, RuleFactory, Walk } from '../rule.ts';
import { callSubjects, receiverSubjects, requesterSubjects, withAbortingSignal } from '../subjects.ts';

/** `side` learnt that `conn` closed: by the end of the step its calls rejected and its handlers aborted. */
class CloseDue implements Obligation {
  constructor(
    readonly side: Side,
    readonly conn: number,
    readonly at: number,
  ) {}

  check(walk: Walk): void {
    const { side, conn, at } = this;
    for (const call of walk.calls()) {
      if (call.from === side && (call.req?.conn ?? call.conn) === conn && !call.settled) {
        walk.flag(finding('lifecycle.close-settles', at, `connection ${conn} closed at the ${side} but call ${call.call} did not reject.`, call.call, callSubjects(walk, call)));
      }
    }
    for (const rec of walk.receivers()) {
      if (rec.side === side && rec.conn === conn && handlerOf(rec) === 'running') {
        walk.flag(
          finding('lifecycle.close-settles', at, `connection ${conn} closed at the ${side} but the handler of request ${show(rec.id)} was not aborted.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)),
        );
      }
    }
  }
}

/**
 * The subjects of a frame sent after its connection closed: the sending side, and for a response
 * the request it answers (sent by the peer), so that a response a handler sent because nothing
 * aborted it links to why nothing did (`attribution.ts`).
 */
function sentAfterClose(from: Side, conn: number, frame: Classified): Subjects {
  if (frame.type !== 'response') return { side: from, conn };
  return { side: from, conn, sender: other(from), ids: [idKey(frame.id)] };
}

/**
 * `lifecycle.*`: on close every pending call rejects, every handler aborts and nothing more is
 * sent on that connection (no response, no progress, no frame at all); each side observes its
 * close once; a cancel never crosses to a newer connection.
 */
export const lifecycleRule: RuleFactory = (walk) => {
  /** `side:conn` pairs whose SDK observed the close (its `onclose`). */
  const sdkClosed = new Set<string>();
  return {
    trace(e) {
      if (e.kind === 'close') sdkClosed.add(`${e.side}:${e.conn}`);
      if (e.kind === 'send-failed' && sdkClosed.has(`${e.from}:${e.conn}`)) {
        const subjects = { ...sentAfterClose(e.from, e.conn, classifyFrame(e.frame)), client: walk.clientOf(e.conn) };
        walk.flag(finding('lifecycle.close-settles', e.i, `${e.from} tried to send on connection ${e.conn} after it observed that connection close.`, `${e.from}:${e.conn}`, subjects));
      }
    },

    frameSent({ e, frame }) {
      if (!sdkClosed.has(`${e.from}:${e.conn}`)) return;
      const subjects = { ...sentAfterClose(e.from, e.conn, frame), client: walk.clientOf(e.conn) };
      walk.flag(finding('lifecycle.close-settles', e.i, `the ${e.from} sent on connection ${e.conn} after it observed that connection close.`, `${e.from}:${e.conn}`, subjects));
    },

    cancelSent({ e, rec }) {
      if (!rec || rec.conn === e.conn) return;
      const subjects = withAbortingSignal(walk, requesterSubjects(walk, rec), rec, e.step);
      walk.flag(finding('lifecycle.reconnect-isolation', e.i, `the ${e.from} sent the cancel of ${walk.label(rec)}, a request of connection ${rec.conn}, on connection ${e.conn}.`, walk.label(rec), subjects));
    },

    refused(o) {
      if (o.machine === 'session' && (o.event === 'CLOSE_CLIENT' || o.event === 'CLOSE_SERVER')) {
        const side = o.event === 'CLOSE_CLIENT' ? 'client' : 'server';
        walk.flag(finding('lifecycle.close-once', o.e.i, `the ${side} observed the close of connection ${o.conn} more than once.`, `${side}:${o.conn}`));
      }
      if (o.machine !== 'receiver' || o.wire !== 'closed') return;
      const { rec } = o;
      if (o.event === 'RESPOND') {
        walk.flag(finding('lifecycle.close-settles', o.e.i, `the ${rec.side} answered request ${show(rec.id)} after its connection closed.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
      } else if (o.event === 'PROGRESS') {
        walk.flag(finding('lifecycle.close-settles', o.e.i, `the ${rec.side} sent progress for ${walk.receivedLabel(rec)} after its connection closed.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
      }
    },

    connectionClosed({ e, side, conn }) {
      walk.oblige(new CloseDue(side, conn, e.i));
    },
  };
};
