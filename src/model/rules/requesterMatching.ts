import { isJsonObject } from '../../util/jsonrpc.ts';
import { finding } from '../finding.ts';
import { idKey, show } from '../ids.ts';
import type { RuleFactory } from '../rule.ts';
import { callSubjects } from '../subjects.ts';

/**
 * The requester's side of two matching rules, whose sender's side `rpc.ts` and `progress.ts`
 * judge: JSON-RPC ids and progress tokens match by type and value (`1` and `"1"` are two ids), so
 *
 * - `rpc.response-matches-request` (clause `RESOLVED_BY_OTHER_ID`): a call resolves only with a
 *   response to its own request; one that resolves while no response with its request's id
 *   reached its side took another request's (or a made-up id's) response for its own;
 * - `progress.token-requested` (clause `ONPROGRESS_BY_OTHER_TOKEN`): a call's `onprogress` runs
 *   only for a progress notification naming its request's token, delivered in that step.
 *
 * A virtual clock only: on a real one the client is mcp-sim's own, not the target.
 */
export const RESOLVED_BY_OTHER_ID = 'resolved-by-other-id';
export const ONPROGRESS_BY_OTHER_TOKEN = 'onprogress-by-other-token';

export const requesterMatchingRule: RuleFactory = (walk) => {
  /** The step in which a progress naming each token last reached each side: `side:conn:tokenKey`. */
  const progressStep = new Map<string, number>();
  /** The ids of the responses each side received in the current step, for the message. */
  let stepResponses: { readonly step: number; readonly ids: string[] } = { step: -1, ids: [] };
  return {
    trace(e) {
      if (walk.clock.kind !== 'virtual' || e.kind !== 'deliver' || !isJsonObject(e.frame)) return;
      const f = e.frame;
      if (f.method === 'notifications/progress' && isJsonObject(f.params)) progressStep.set(`${e.to}:${e.conn}:${idKey(f.params.progressToken)}`, e.step);
      if (typeof f.method !== 'string' && ('result' in f || 'error' in f)) {
        if (stepResponses.step !== e.step) stepResponses = { step: e.step, ids: [] };
        stepResponses.ids.push(show(f.id));
      }
    },

    callSettled({ e, call, wire }) {
      if (walk.clock.kind !== 'virtual' || e.outcome !== 'resolved' || !call.req || (wire !== 'pending' && wire !== 'progressing')) return;
      const got = stepResponses.step === e.step && stepResponses.ids.length > 0 ? ` (what reached it: a response with id ${stepResponses.ids.join(', ')})` : '';
      const f = finding('rpc.response-matches-request', e.i, `call ${e.call} resolved though no response with its request's id ${show(call.req.id)} reached the ${call.from}${got}: ids match by type and value.`, e.call, callSubjects(walk, call));
      walk.flag({ ...f, clause: RESOLVED_BY_OTHER_ID });
    },

    onprogress({ e, call, late }) {
      const rec = call.req;
      if (walk.clock.kind !== 'virtual' || late || !rec || rec.token === undefined) return;
      if (progressStep.get(`${rec.from}:${rec.conn}:${rec.token}`) === e.step) return;
      const f = finding('progress.token-requested', e.i, `the ${call.from} ran the onprogress of call ${e.call} though no progress naming its token reached it in that step: tokens match by type and value.`, e.call, callSubjects(walk, call));
      walk.flag({ ...f, clause: ONPROGRESS_BY_OTHER_TOKEN });
    },
  };
};
