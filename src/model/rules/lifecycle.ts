import type { Side } from '../../sim/scenario.ts';
import { finding } from '../finding.ts';
import { show } from '../ids.ts';
import { handlerOf } from '../records.ts';
import type { Obligation, RuleFactory, Walk } from '../rule.ts';

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
        walk.flag(finding('lifecycle.close-settles', at, `connection ${conn} closed at the ${side} but call ${call.call} did not reject.`, call.call));
      }
    }
    for (const rec of walk.receivers()) {
      if (rec.side === side && rec.conn === conn && handlerOf(rec) === 'running') {
        walk.flag(finding('lifecycle.close-settles', at, `connection ${conn} closed at the ${side} but the handler of request ${show(rec.id)} was not aborted.`, walk.receivedLabel(rec)));
      }
    }
  }
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
        walk.flag(finding('lifecycle.close-settles', e.i, `${e.from} tried to send on connection ${e.conn} after it observed that connection close.`, `${e.from}:${e.conn}`));
      }
    },

    frameSent({ e }) {
      if (!sdkClosed.has(`${e.from}:${e.conn}`)) return;
      walk.flag(finding('lifecycle.close-settles', e.i, `the ${e.from} sent on connection ${e.conn} after it observed that connection close.`, `${e.from}:${e.conn}`));
    },

    cancelSent({ e, rec }) {
      if (!rec || rec.conn === e.conn) return;
      walk.flag(finding('lifecycle.reconnect-isolation', e.i, `the ${e.from} sent the cancel of ${walk.label(rec)}, a request of connection ${rec.conn}, on connection ${e.conn}.`, walk.label(rec)));
    },

    refused(o) {
      if (o.machine === 'session' && (o.event === 'CLOSE_CLIENT' || o.event === 'CLOSE_SERVER')) {
        const side = o.event === 'CLOSE_CLIENT' ? 'client' : 'server';
        walk.flag(finding('lifecycle.close-once', o.e.i, `the ${side} observed the close of connection ${o.conn} more than once.`, `${side}:${o.conn}`));
      }
      if (o.machine !== 'receiver' || o.wire !== 'closed') return;
      const { rec } = o;
      if (o.event === 'RESPOND') {
        walk.flag(finding('lifecycle.close-settles', o.e.i, `the ${rec.side} answered request ${show(rec.id)} after its connection closed.`, walk.receivedLabel(rec)));
      } else if (o.event === 'PROGRESS') {
        walk.flag(finding('lifecycle.close-settles', o.e.i, `the ${rec.side} sent progress for ${walk.receivedLabel(rec)} after its connection closed.`, walk.receivedLabel(rec)));
      }
    },

    connectionClosed({ e, side, conn }) {
      walk.oblige(new CloseDue(side, conn, e.i));
    },
  };
};
