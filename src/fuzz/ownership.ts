import type { InvariantId } from '../model/invariants.ts';

/**
 * Invariants that judge the server's own code when mcp-sim hosts a user's server: its handlers'
 * progress, how they answer a cancel or a timeout, whether they end, what they leave running,
 * what escapes them. A finding of another invariant is about the SDK (client or protocol layer):
 * the report lists it apart, and it never fails a fuzz campaign.
 */
export const SERVER_CONDUCT: ReadonlySet<InvariantId> = new Set<InvariantId>([
  'progress.token-requested',
  'progress.increasing',
  'progress.total-stable',
  'progress.after-response',
  'cancel.zombie-work',
  'cancel.abort-swallowed',
  'cancel.reaches-work',
  'cancel.never-ends',
  'cancel.no-response-after',
  'timeout.settles',
  'liveness.handler-ends',
  'liveness.quiescent',
  'leak.timers',
  'harness.unhandled',
  'harness.offline',
  'rpc.well-formed',
]);

/** Whose conduct a finding judges on a hosted run. */
export function ownerOf(invariant: InvariantId): 'server' | 'sdk' {
  return SERVER_CONDUCT.has(invariant) ? 'server' : 'sdk';
}
