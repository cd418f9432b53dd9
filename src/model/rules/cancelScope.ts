import type { Side } from '../../sim/scenario.ts';
import { classifyFrame } from '../../util/jsonrpc.ts';
import { finding } from '../finding.ts';
import { idKey, show } from '../ids.ts';
import type { RuleFactory } from '../rule.ts';
import { receiverSubjects } from '../subjects.ts';

/** A cancel that reached a side in the current step. */
interface Arrived {
  readonly side: Side;
  readonly conn: number;
  readonly id: string;
  readonly i: number;
}

/**
 * `cancel.same-session`: a cancellation names a request of its own sender on its own connection
 * (one Streamable HTTP session per client): request ids are per sender, so another session's
 * request with the same id is not the one it cancels. Broken when a handler's signal aborts in
 * the step a cancel naming its id arrived on another connection, with no cancel for it on its own
 * and no close of its own in that step. A virtual clock only (it needs the step that links the
 * two; a black-box run has one connection).
 */
export const cancelScopeRule: RuleFactory = (walk) => {
  let step = -1;
  /** This step's cancels, and the `side:conn` pairs whose connection closed in it. */
  let arrived: Arrived[] = [];
  let closed = new Set<string>();
  const now = (s: number) => {
    if (s === step) return;
    step = s;
    arrived = [];
    closed = new Set();
  };
  return {
    trace(e) {
      if (walk.clock.kind !== 'virtual') return;
      now(e.step);
      if (e.kind === 'close' || e.kind === 'eof') closed.add(`${e.kind === 'close' ? e.side : e.to}:${e.conn}`);
      if (e.kind !== 'deliver') return;
      const c = classifyFrame(e.frame);
      if (c.type === 'notification' && c.method === 'notifications/cancelled') arrived.push({ side: e.to, conn: e.conn, id: idKey(c.params?.requestId), i: e.i });
    },

    handlerAborted({ e, rec }) {
      if (walk.clock.kind !== 'virtual') return;
      const id = idKey(rec.id);
      const mine = (a: Arrived) => a.side === rec.side && a.id === id;
      if (arrived.some((a) => mine(a) && a.conn === rec.conn) || closed.has(`${rec.side}:${rec.conn}`)) return;
      const foreign = arrived.find((a) => mine(a) && a.conn !== rec.conn);
      if (!foreign) return;
      walk.flag(
        finding(
          'cancel.same-session',
          e.i,
          `a cancel naming id ${show(rec.id)} arrived at the ${rec.side} on connection ${foreign.conn}, and aborted the handler of ${walk.receivedLabel(rec)}, a request of connection ${rec.conn}: a cancel reaches only its own session's request.`,
          walk.receivedLabel(rec),
          receiverSubjects(walk, rec),
        ),
      );
    },
  };
};
