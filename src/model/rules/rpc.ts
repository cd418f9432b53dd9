import type { Side } from '../../sim/scenario.ts';
import { classifyFrame, isJsonObject, isNotificationFrame, type Classified, type Frame } from '../../util/jsonrpc.ts';
import { finding } from '../finding.ts';
import { idKey, isValidId, other, show } from '../ids.ts';
import type { RuleFactory } from '../rule.ts';

/** What is wrong with a frame's JSON-RPC 2.0 shape, if anything. */
function wellFormed(f: Frame, c: Classified): string | undefined {
  if (c.type === 'invalid') return c.why;
  if (f.jsonrpc !== '2.0') return `jsonrpc is ${JSON.stringify(f.jsonrpc)}, not "2.0"`;
  if ('params' in f && (typeof f.params !== 'object' || f.params === null)) return 'params is not an object or array';
  if (c.type === 'response') {
    if ('result' in f && 'error' in f) return 'a response carries both result and error';
    if (!('id' in f)) return 'a response has no id';
    if (c.error) {
      const e = f.error as Record<string, unknown> | null;
      if (!e || !Number.isInteger(e.code) || typeof e.message !== 'string') return 'error lacks an integer code or a string message';
    }
  }
  return undefined;
}

/**
 * `rpc.*`: JSON-RPC framing. Every frame is well-formed; request ids are strings or integers
 * and never reused on a connection; a request carries the caller's `_meta` and exactly the
 * progress token asked for; a response answers a request its sender received, once, on the
 * connection that carried it, and never a notification. An error naming id null, or the id of a
 * frame that was no readable request, answers that frame (JSON-RPC's reply to a parse error or an
 * invalid request): not a stray response (`rpc.error-code` judges its code).
 */
export const rpcRule: RuleFactory = (walk) => {
  /** Ids each side sent per connection: `side:conn` → id keys. */
  const sentIds = new Map<string, Set<string>>();
  /** The step in which each side last received a notification. */
  const notificationStep = new Map<Side, number>();
  /**
   * Frames each side received that are no readable request, not answered yet: `side:conn` → the
   * `idKey` of each one's id (`null`'s for none). An error naming one of them, or null, answers it.
   */
  const unreadable = new Map<string, string[]>();
  const answersUnreadable = (side: Side, conn: number, id: unknown): boolean => {
    const open = unreadable.get(`${side}:${conn}`);
    const k = open ? (id === null || id === undefined ? 0 : open.indexOf(idKey(id))) : -1;
    if (!open || k < 0 || k >= open.length) return false;
    open.splice(k, 1);
    return true;
  };
  return {
    trace(e) {
      if (e.kind !== 'deliver') return;
      if (isNotificationFrame(e.frame)) notificationStep.set(e.to, e.step);
      else if (unreadableFrame(e.frame)) {
        const open = unreadable.get(`${e.to}:${e.conn}`) ?? [];
        open.push(idKey(isJsonObject(e.frame) && 'id' in e.frame ? e.frame.id : null));
        unreadable.set(`${e.to}:${e.conn}`, open);
      }
    },

    frameSent({ e, frame }) {
      const bad = wellFormed(e.frame as Frame, frame);
      if (bad) walk.flag(finding('rpc.well-formed', e.i, `the ${e.from} sent a frame that is not valid JSON-RPC 2.0: ${bad}.`, `${e.from}:${e.conn}`));
    },

    requestSent({ e, params, rec }) {
      const X = e.from;
      if (!isValidId(rec.id)) {
        walk.flag(finding('rpc.request-id-type', e.i, `the ${X} sent ${rec.method} with id ${show(rec.id)}; request ids must be strings or integers.`, `${X}:${show(rec.id)}`));
      }
      const ids = sentIds.get(`${X}:${e.conn}`) ?? new Set<string>();
      sentIds.set(`${X}:${e.conn}`, ids);
      const k = idKey(rec.id);
      if (ids.has(k)) {
        const subjects = { sender: X, conn: e.conn, client: walk.clientOf(e.conn), ids: [k] };
        walk.flag(finding('rpc.request-id-unique', e.i, `the ${X} reused request id ${show(rec.id)} on connection ${e.conn}.`, `${X}:${show(rec.id)}`, subjects));
      }
      ids.add(k);
      if (!rec.call) return;
      const meta = params?._meta as Record<string, unknown> | undefined;
      const o = rec.call.options;
      for (const [mk, mv] of Object.entries(o.meta ?? {})) {
        if (JSON.stringify(meta?.[mk]) !== JSON.stringify(mv)) {
          walk.flag(finding('rpc.params-preserved', e.i, `request ${rec.call.call} left without the caller's _meta.${mk}.`, rec.call.call));
        }
      }
      if (!!o.onprogress !== (meta?.progressToken !== undefined)) {
        const what = o.onprogress ? 'lacks the progress token the caller asked for' : 'carries a progress token nobody asked for';
        walk.flag(finding('rpc.params-preserved', e.i, `request ${rec.call.call} ${what}.`, rec.call.call));
      }
    },

    strayResponse({ e, id, elsewhere }) {
      const Y = e.from;
      if (elsewhere) {
        walk.flag(finding('rpc.routing', e.i, `the ${Y} answered request ${show(id)} of connection ${elsewhere.conn} on connection ${e.conn}.`, walk.receivedLabel(elsewhere)));
      } else if (notificationStep.get(Y) === e.step) {
        walk.flag(finding('rpc.no-reply-to-notification', e.i, `the ${Y} sent a response (id ${show(id)}) in reply to a notification.`, `${Y}:${show(id)}`));
      } else if (isJsonObject(e.frame) && 'error' in e.frame && answersUnreadable(Y, e.conn, id)) {
        // JSON-RPC's answer to a frame that is no readable request: rpc.error-code judges its code.
      } else {
        walk.flag(finding('rpc.response-matches-request', e.i, `the ${Y} sent a response for id ${show(id)}, which it never received as a request on connection ${e.conn}.`, `${other(Y)}:${show(id)}`));
      }
    },

    strayProgress({ e, token, elsewhere }) {
      if (!elsewhere) return; // progress.token-requested
      walk.flag(finding('rpc.routing', e.i, `the ${e.from} sent progress for token ${show(token)} of a request it received on connection ${elsewhere.conn} on connection ${e.conn}.`, walk.receivedLabel(elsewhere)));
    },

    refused(o) {
      if (o.machine !== 'receiver' || o.event !== 'RESPOND' || o.wire !== 'responded') return;
      walk.flag(finding('rpc.single-response', o.e.i, `the ${o.rec.side} answered request ${show(o.rec.id)} more than once.`, walk.receivedLabel(o.rec)));
    },
  };
};

/** A frame that is no readable request, notification or response: what JSON-RPC answers with an id-null error. */
function unreadableFrame(frame: unknown): boolean {
  const c = classifyFrame(frame);
  return c.type === 'invalid' || (c.type === 'request' && (wellFormed(frame as Frame, c) !== undefined || !isValidId(c.id)));
}
