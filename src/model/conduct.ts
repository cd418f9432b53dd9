import type { Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { Finding } from './finding.ts';
import { other } from './ids.ts';
import type { InvariantId } from './invariants.ts';

/**
 * Ids whose findings judge what the receiver of a request did with it (answered it after its
 * cancel, left its handler running, worked on after the abort, sent progress for it, let another
 * session's cancel abort it): their subjects name the request's sender, so the receiver is its peer.
 */
const RECEIVER_CONDUCT: ReadonlySet<InvariantId> = new Set<InvariantId>([
  'cancel.no-response-after',
  'cancel.handler-aborted',
  'cancel.zombie-work',
  'cancel.abort-swallowed',
  'cancel.never-ends',
  'cancel.reaches-work',
  'cancel.same-session',
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
 * (`subjects.side`: a side that closed, whose handler a close left running, that answered a frame
 * it could not take), else the receiver or the sender of the request concerned, by what its
 * invariant judges. Given the trace, a finding its subjects do not place is placed by the event
 * the rule saw it at (`conductAt`). Undefined when neither says (a caller's call without the
 * trace, an escape, the run's end).
 *
 * Two uses, both in `judge()`. A real clock judges one side (`JUDGED_ON_A_REAL_CLOCK`): it keeps
 * the findings of that side's conduct, never mcp-sim's own as the other side (the scripted server
 * of a client's run answers after a cancel on purpose); it asks without the trace, keeping what
 * the subjects do not place. A rogue run (`JudgeOptions.rogue`) breaks rules on purpose on one
 * side: it asks with the trace, since everything a rogue does is a frame it sends, which the
 * event places even where a rule gives no subjects (`rpc.well-formed`, a stray response), and
 * leaves the rogue's findings out.
 */
export function conductOf(f: Pick<Finding, 'invariant' | 'subjects' | 'at'>, trace?: readonly TraceEvent[]): Side | undefined {
  const s = f.subjects;
  if (s?.side !== undefined) return s.side;
  if (s?.sender !== undefined && RECEIVER_CONDUCT.has(f.invariant)) return other(s.sender);
  if (s?.sender !== undefined && SENDER_CONDUCT.has(f.invariant)) return s.sender;
  return trace ? conductAt(trace[f.at], trace) : undefined;
}

/**
 * The side whose conduct a trace event is: a frame sent (or a send that failed) is its sender's;
 * a delivery, a drop or an end of stream its receiver's (a rule flags there what the receiver owed
 * in reply: a handler to abort, an `onprogress` to run, a close to settle); a callback, a close, a
 * handler's or a call's event the side it happened on (a call's `onprogress` its caller's;
 * `ready` the client's `connect()`); an HTTP response, SSE event or stream end the side that
 * observed it; a process's exit or stderr the server's. Undefined for what belongs to no side: an
 * escape, the run's end, an HTTP request (a rule that flags there may blame either end: a reused
 * id the client sent, a POST the server orphaned).
 */
export function conductAt(e: TraceEvent | undefined, trace: readonly TraceEvent[]): Side | undefined {
  if (!e) return undefined;
  switch (e.kind) {
    case 'send':
    case 'send-failed':
    case 'call-start':
    case 'call-settle':
      return e.from;
    case 'deliver':
    case 'drop':
    case 'eof':
      return e.to;
    case 'onerror':
    case 'close':
    case 'handler-start':
    case 'handler-step':
    case 'handler-abort':
    case 'handler-end':
    case 'handler-timer':
    case 'tool-start':
    case 'tool-end':
    case 'abort-reached':
    case 'fetch':
    case 'io-blocked':
    case 'unscripted':
    case 'leftover-work':
      return e.side;
    case 'onprogress':
      return callerOf(e.call, trace);
    case 'ready':
      return 'client';
    case 'http-response':
    case 'sse-event':
    case 'sse-end':
      return e.at;
    case 'exit':
    case 'stderr':
      return 'server';
    default:
      return undefined;
  }
}

/** The side that started call `call`. */
function callerOf(call: string, trace: readonly TraceEvent[]): Side | undefined {
  for (const e of trace) if (e.kind === 'call-start' && e.call === call) return e.from;
  return undefined;
}
