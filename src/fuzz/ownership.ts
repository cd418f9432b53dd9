import type { InvariantId } from '../model/invariants.ts';
import type { Finding } from '../model/finding.ts';

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

/**
 * Whose a black-box finding is on a user's server (a process or URL target, `fuzz --stdio|--url`):
 * an answer to a cancelled request that is an error, or a tool result marked `isError` that says
 * it was cancelled, is how the server's SDK ends a cancelled call (the Python SDK's `-32800
 * Request cancelled`, go-sdk's `context canceled`), not what the author wrote. Such a finding
 * (`Finding.reason` tells) is listed apart and never fails the user's campaign; on an SDK test bed
 * it is the SDK's finding and counts.
 */
export function answerOwnerOf(f: Pick<Finding, 'invariant' | 'reason'>): 'server' | 'sdk' {
  if (f.invariant !== 'cancel.no-response-after' || !f.reason) return 'server';
  if (f.reason.answer === 'error') return 'sdk';
  return f.reason.answer === 'isError' && /cancel/i.test(f.reason.text) ? 'sdk' : 'server';
}
