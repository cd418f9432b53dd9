import type { Scenario } from '../sim/scenario.ts';
import type { InvariantId } from './invariants.ts';

/**
 * The spec revision whose rules the oracle applies. `2025-11-25` (the default) is the session
 * era every SDK release speaks; `2026-07-28` is the opt-in rule set of the newest revision, which
 * only the 2.x packages speak (the `http-2026` profile).
 */
export type SpecRevision = '2025-11-25' | '2026-07-28';

/** The session era's newest revision: the rule set of every profile but `http-2026`. */
export const SESSION_ERA: SpecRevision = '2025-11-25';

/** The opt-in rule set of the newest revision. */
export const MODERN_ERA: SpecRevision = '2026-07-28';

/** Every rule set, default first, as help and errors list them. */
export const SPEC_REVISIONS: readonly SpecRevision[] = [SESSION_ERA, MODERN_ERA];

/**
 * The session-era invariants the 2026-07-28 rule set does not judge, each with why: what the
 * revision removed, or the invariant that replaces it there. Reports print this list (never
 * degrade in silence), and `judge()` leaves these rules' findings out under 2026-07-28.
 */
export const notJudgedIn2026: ReadonlyMap<InvariantId, string> = new Map<InvariantId, string>([
  ['rpc.request-id-unique', 'no session: ids need only be unique among outstanding requests (rpc.request-id-outstanding replaces it)'],
  ['http.disconnect-not-cancel', 'inverted: closing a request\'s response stream is its cancellation (http.disconnect-cancels replaces it)'],
  ['lifecycle.init-first', 'no initialize: every request carries its own envelope, server/discover is an optional probe'],
  ['cancel.not-initialize', 'no initialize to cancel'],
  ['http.get-stream', 'no standalone GET stream (subscriptions/listen replaces it)'],
  ['http.close-ends-streams', 'no session whose close ends its streams: each POST is its own server instance'],
  ['cancel.handler-aborted', 'on Streamable HTTP a notifications/cancelled is not the cancellation: it arrives on its own POST at a fresh per-request server that has no request of that id (the stream close is, judged by http.disconnect-cancels)'],
  ['cancel.no-response-after', 'the same: a notifications/cancelled obliges nothing on Streamable HTTP; after the stream close no response can reach the client'],
  ['cancel.late-response-silent', 'the requester cancels by closing the request\'s stream, so no response can arrive after its cancel; a notifications/cancelled it did not send (a raw POST) cancels none of its calls'],
]);

/** The invariants `spec` does not judge, with the reason (empty for the session era). */
export function notJudgedUnder(spec: SpecRevision): ReadonlyMap<InvariantId, string> {
  return spec === MODERN_ERA ? notJudgedIn2026 : new Map();
}


/**
 * The rule set a scenario is judged by: its profile says which revision it speaks (`http-2026`
 * is 2026-07-28, every other profile the session era). A replay file carries the scenario, so a
 * replay is judged by the same rules as the campaign that wrote it.
 */
export function specOf(scenario: Pick<Scenario, 'profile'>): SpecRevision {
  return scenario.profile === 'http-2026' ? MODERN_ERA : SESSION_ERA;
}
