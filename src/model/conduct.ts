import type { Side } from '../sim/scenario.ts';
import type { Finding } from './finding.ts';
import { other } from './ids.ts';
import type { InvariantId } from './invariants.ts';

/**
 * Ids whose findings judge what the receiver of a request did with it (answered it after its
 * cancel, left its handler running, worked on after the abort, sent progress for it): their
 * subjects name the request's sender, so the receiver is its peer.
 */
const RECEIVER_CONDUCT: ReadonlySet<InvariantId> = new Set<InvariantId>([
  'cancel.no-response-after',
  'cancel.handler-aborted',
  'cancel.zombie-work',
  'cancel.abort-swallowed',
  'cancel.never-ends',
  'cancel.reaches-work',
  'liveness.handler-ends',
  'progress.after-cancel',
  'progress.increasing',
  'progress.token-requested',
  'progress.reaches-requester',
]);

/** Ids whose findings judge what the sender of a request did (its cancel, its progress token): their subjects name it. */
const SENDER_CONDUCT: ReadonlySet<InvariantId> = new Set<InvariantId>(['cancel.abort-sends-cancel', 'cancel.in-flight-only', 'cancel.not-initialize', 'progress.token-unique', 'rpc.request-id-unique']);

/**
 * The side whose conduct a finding shows, as its subjects tell: a side named outright
 * (`subjects.side`: a side that closed, or whose handler a close left running), else the
 * receiver or the sender of the request concerned, by what its invariant judges. Undefined when
 * the finding names no side (a caller's call: on a black-box run only the side under test has a
 * caller's view). A real clock judges one side (`JUDGED_ON_A_REAL_CLOCK`): `judge()` keeps the
 * findings of that side's conduct, never mcp-sim's own as the other side (the scripted server of
 * a client's run answers after a cancel on purpose).
 */
export function conductOf(f: Pick<Finding, 'invariant' | 'subjects'>): Side | undefined {
  const s = f.subjects;
  if (s?.side !== undefined) return s.side;
  if (s?.sender === undefined) return undefined;
  if (RECEIVER_CONDUCT.has(f.invariant)) return other(s.sender);
  return SENDER_CONDUCT.has(f.invariant) ? s.sender : undefined;
}
