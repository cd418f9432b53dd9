import type { CallOptions, Side } from '../sim/scenario.ts';
import type { WireId } from '../sim/trace.ts';
import type { ReceiverSnapshot, RequesterSnapshot } from './requestMachine.ts';

/** The requester machine's `wire` region: what came back and what the requester sent after the request. */
export type RequesterWire = RequesterSnapshot['value']['wire'];
/** The receiver machine's `wire` region: open until answered, cancelled or closed. */
export type ReceiverWire = ReceiverSnapshot['value']['wire'];
/** The receiver machine's `handler` region: the scripted handler's run. */
export type HandlerState = ReceiverSnapshot['value']['handler'];

/**
 * Why a call's promise settled, as the walker reads the SDK's rejection (through `SdkFacts`):
 * the timeout kinds move the requester machine to `timedOut`.
 */
export type SettleCause = 'result' | 'timeout' | 'max-total' | 'abort' | 'other';

/** One caller's call (`call-start` … `call-settle`), and the request that carried it, once sent. */
export interface CallRec {
  readonly call: string;
  readonly from: Side;
  readonly conn: number;
  readonly id: WireId | undefined;
  readonly options: CallOptions;
  readonly startT: number;
  readonly startI: number;
  readonly req: RequesterRec | undefined;
  readonly settled: { readonly t: number; readonly i: number; readonly outcome: 'resolved' | 'rejected'; readonly why: SettleCause } | undefined;
  /** Virtual time of the last `onprogress` callback that ran before the call settled. */
  readonly lastProgressT: number | undefined;
}

/** One request as its sender sees it: the requester machine and what the walk learnt about it. */
export interface RequesterRec {
  readonly from: Side;
  readonly conn: number;
  readonly id: unknown;
  readonly method: string;
  readonly sentI: number;
  /** `idKey` of its progress token, if it carried one. */
  readonly token: string | undefined;
  readonly call: CallRec | undefined;
  readonly snap: RequesterSnapshot;
  /** Step in which the requester last sent (or tried to send) a cancel for it. */
  readonly lastCancelStep: number | undefined;
  /**
   * Revision 2026-07-28 on Streamable HTTP (`streamCloseCancels`): the step in which its POST
   * closed at the client (a cancel, or a broken stream): a closed request's stream cancels it,
   * and nothing more is owed for it after.
   */
  readonly streamClosedStep: number | undefined;
  /** Whether the request reached its receiver. */
  readonly delivered: boolean;
}

/** One delivery of a request as its receiver sees it: the receiver machine. */
export interface ReceiverRec {
  readonly side: Side;
  readonly conn: number;
  readonly id: unknown;
  readonly method: string;
  /** `idKey` of its progress token, if it carried one. */
  readonly token: string | undefined;
  readonly snap: ReceiverSnapshot;
}

/** The walker's own, writable view of a record: rules get the readonly one. */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The wire state of a request, on either side. */
export function wireOf(rec: RequesterRec): RequesterWire;
export function wireOf(rec: ReceiverRec): ReceiverWire;
export function wireOf(rec: RequesterRec | ReceiverRec): RequesterWire | ReceiverWire {
  return rec.snap.value.wire;
}

/** The state of the handler serving a received request. */
export const handlerOf = (rec: ReceiverRec): HandlerState => rec.snap.value.handler;

/** A requester whose request is still open on the wire: no response, cancel, timeout or close yet. */
export const isOpen = (rec: RequesterRec): boolean => rec.snap.value.wire === 'pending' || rec.snap.value.wire === 'progressing';
