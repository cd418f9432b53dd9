import { isJsonObject } from '../../util/jsonrpc.ts';
import { finding } from '../finding.ts';
import { definesMethod, type ProtocolRevision } from '../protocolMethods.ts';
import type { Rule, RuleFactory, Walk } from '../rule.ts';

/**
 * `rpc.method-defined`: every request and notification a side sends names a method the protocol
 * revision negotiated on its connection defines for that side (before the negotiation, the
 * newest revision). And the two lifecycle notifications have their shape: a cancellation names
 * the request it cancels, a progress notification its token and a numeric progress.
 */
export const methodsRule: RuleFactory = (walk) => methodsWalk(walk, '2025-11-25');

/**
 * `rpc.method-defined` under a rule set whose revision is `revision` until a negotiation says
 * otherwise: 2026-07-28 has no initialize result to read the revision from.
 */
export function methodsRuleFor(revision: ProtocolRevision): RuleFactory {
  return (walk) => methodsWalk(walk, revision);
}

function methodsWalk(walk: Walk, defaultRevision: ProtocolRevision): Rule {
  /** The revision the server's initialize result chose, by connection. */
  const revision = new Map<number, string>();
  return {
    frameSent({ e, frame }) {
      const raw = e.frame;
      if (frame.type === 'response' && e.from === 'server' && isJsonObject(raw) && isJsonObject(raw['result'])) {
        const version = raw['result']['protocolVersion'];
        if (typeof version === 'string' && isJsonObject(raw['result']['serverInfo'])) revision.set(e.conn, version);
        return;
      }
      if (frame.type !== 'request' && frame.type !== 'notification') return;
      const negotiated = revision.get(e.conn) ?? defaultRevision;
      const where = `${e.from}:${e.conn}`;
      if (!definesMethod(negotiated, e.from, frame.method)) {
        walk.flag(
          finding('rpc.method-defined', e.i, `the ${e.from} sent ${frame.type === 'request' ? 'a request' : 'a notification'} ${JSON.stringify(frame.method)}, which protocol ${negotiated} does not define for the ${e.from} to send.`, where),
        );
        return;
      }
      const p = frame.params;
      if (frame.method === 'notifications/cancelled') {
        const id = p?.['requestId'];
        if (typeof id !== 'string' && typeof id !== 'number') {
          walk.flag({ ...finding('rpc.method-defined', e.i, `the ${e.from} sent notifications/cancelled without the requestId of the request it cancels.`, where), clause: 'shape' });
        }
      }
      if (frame.method === 'notifications/progress') {
        const token = p?.['progressToken'];
        if ((typeof token !== 'string' && typeof token !== 'number') || typeof p?.['progress'] !== 'number') {
          walk.flag({ ...finding('rpc.method-defined', e.i, `the ${e.from} sent notifications/progress without a progressToken and a numeric progress.`, where), clause: 'shape' });
        }
      }
    },
  };
}
