import type { Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { Finding } from './finding.ts';

/**
 * The side whose conduct a finding blames, when the trace says so: its `subjects.side` when the
 * rule set one, otherwise the side of the event the rule saw the breach at (`Finding.at`):
 *
 * - a frame sent (or a send that failed) is its sender's doing;
 * - a delivery, a drop or an end of stream is its receiver's: a rule flags there what the
 *   receiver owed in reply (a handler to abort, an `onprogress` to run, a close to settle);
 * - a callback, a close, a handler's or a call's event is the side it happened on (a call's
 *   `onprogress` is its caller's); `ready` is the client's `connect()`;
 * - an HTTP response, SSE event or stream end is the side that observed it; a process's exit or
 *   stderr is the server's.
 *
 * `undefined` for what belongs to no side: an escape, the run's end, an HTTP request (a rule that
 * flags there may blame either end: a reused id the client sent, a POST the server orphaned).
 *
 * What it is for: a rogue run (`JudgeOptions.rogue`) breaks rules on purpose on one side, and only
 * the other side's conduct is the finding. Everything a rogue peer does is a frame it sends, so
 * its breaches are always attributed; a finding of unknown side is kept.
 */
export function culpritOf(f: Finding, trace: readonly TraceEvent[]): Side | undefined {
  if (f.subjects?.side !== undefined) return f.subjects.side;
  const e = trace[f.at];
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
