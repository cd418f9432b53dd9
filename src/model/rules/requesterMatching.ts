import { isJsonObject } from '../../util/jsonrpc.ts';
import { finding } from '../finding.ts';
import { show } from '../ids.ts';
import type { CallRec } from '../records.ts';
import type { RuleFactory, Walk } from '../rule.ts';
import { callSubjects } from '../subjects.ts';

/**
 * The requester's side of `rpc.response-matches-request`, whose responder's side `rpc.ts` judges:
 * JSON-RPC ids match by type and value (`1` and `"1"` are two ids), so a call resolves only with a
 * response to its own request; one that resolves while no response with its request's id reached
 * its side took another request's (or a made-up id's) response for its own (clause
 * `RESOLVED_BY_OTHER_ID`). Progress has the same rule: an onprogress given progress its request's
 * token never carried is `progress.delivered`'s clause `misrouted` (`progress.ts`).
 *
 * A virtual clock only: on a real one the client is mcp-sim's own, or an SDK client whose
 * resolved calls its side channel reports with the answer they took.
 */
export const RESOLVED_BY_OTHER_ID = 'resolved-by-other-id';

/** The call's subjects, and its side as the one whose conduct it is (`conductOf`). */
const requesterConduct = (walk: Walk, call: CallRec) => ({ ...callSubjects(walk, call), side: call.from });

export const requesterMatchingRule: RuleFactory = (walk) => {
  /** The ids of the responses each side received in the current step, for the message. */
  let stepResponses: { readonly step: number; readonly ids: string[] } = { step: -1, ids: [] };
  return {
    trace(e) {
      if (walk.clock.kind !== 'virtual' || e.kind !== 'deliver' || !isJsonObject(e.frame)) return;
      const f = e.frame;
      if (typeof f.method !== 'string' && ('result' in f || 'error' in f)) {
        if (stepResponses.step !== e.step) stepResponses = { step: e.step, ids: [] };
        stepResponses.ids.push(show(f.id));
      }
    },

    callSettled({ e, call, wire }) {
      if (walk.clock.kind !== 'virtual' || e.outcome !== 'resolved' || !call.req || (wire !== 'pending' && wire !== 'progressing')) return;
      const got = stepResponses.step === e.step && stepResponses.ids.length > 0 ? ` (what reached it: a response with id ${stepResponses.ids.join(', ')})` : '';
      const f = finding('rpc.response-matches-request', e.i, `call ${e.call} resolved though no response with its request's id ${show(call.req.id)} reached the ${call.from}${got}: ids match by type and value.`, e.call, requesterConduct(walk, call));
      walk.flag({ ...f, clause: RESOLVED_BY_OTHER_ID });
    },
  };
};
