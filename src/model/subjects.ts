import type { Subjects } from './finding.ts';
import { idKey, other } from './ids.ts';
import type { CallRec, ReceiverRec, RequesterRec } from './records.ts';
import type { Walk } from './rule.ts';

/** The subjects of a request as its sender sent it: sender, connection, client, id, call. */
export function requesterSubjects(walk: Walk, rec: RequesterRec): Subjects {
  return {
    sender: rec.from,
    conn: rec.conn,
    client: walk.clientOf(rec.conn),
    ids: [idKey(rec.id)],
    ...(rec.call && { call: rec.call.call }),
  };
}

/** The subjects of a request as its receiver got it: the sender is the peer of the receiving side. */
export function receiverSubjects(walk: Walk, rec: ReceiverRec): Subjects {
  return { sender: other(rec.side), conn: rec.conn, client: walk.clientOf(rec.conn), ids: [idKey(rec.id)] };
}

/** The subjects of a caller's call: its request's, or the call's own when it never left. */
export function callSubjects(walk: Walk, call: CallRec): Subjects {
  if (call.req) return requesterSubjects(walk, call.req);
  return {
    sender: call.from,
    conn: call.conn,
    client: walk.clientOf(call.conn),
    ...(call.id !== undefined && { ids: [idKey(call.id)] }),
    call: call.call,
  };
}

/** `s` plus the caller signal of `rec`'s call when that signal's abort (in step `step`) is what sent the cancel. */
export function withAbortingSignal(walk: Walk, s: Subjects, rec: RequesterRec, step: number): Subjects {
  const signal = rec.call?.options.signal;
  return signal !== undefined && walk.abortStep(signal) === step ? { ...s, signal } : s;
}
