import type { Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { Classified } from '../util/jsonrpc.ts';
import type { CallRec, HandlerState, ReceiverRec, ReceiverWire, RequesterRec, RequesterWire } from './records.ts';
import type { ReceiverEvent, RequesterEvent } from './requestMachine.ts';
import type { SessionEvent } from './sessionMachine.ts';

type Ev<K extends TraceEvent['kind']> = Extract<TraceEvent, { kind: K }>;
type Params = Record<string, unknown> | undefined;

/**
 * What the walker made of a trace event, for the rules: a frame matched to its request, a model
 * transition refused, a call settled. Emitted in trace order; for one trace event, in the order
 * the walker meets them (each kind's comment says whether before or after the machines moved).
 * Records are the walker's: rules read them, never write them.
 */
export type WalkEvent =
  /** Any frame a side sent, classified, before the walker matched it. */
  | { readonly kind: 'frameSent'; readonly e: Ev<'send'>; readonly frame: Classified }
  /**
   * A request left; `rec` is its new record, bound to the call that sent it if any.
   * `tokenHolder`: the request of the same sender and connection that used its progress token before.
   */
  | { readonly kind: 'requestSent'; readonly e: Ev<'send'>; readonly params: Params; readonly rec: RequesterRec; readonly tokenHolder: RequesterRec | undefined }
  /** A response for no request its sender received on that connection; `elsewhere`: one it received with that id on another. */
  | { readonly kind: 'strayResponse'; readonly e: Ev<'send'>; readonly id: unknown; readonly elsewhere: ReceiverRec | undefined }
  /** A cancel left, before the requester machine took it; `rec` is the request it names (none when the id is invalid or unknown). */
  | { readonly kind: 'cancelSent'; readonly e: Ev<'send'>; readonly requestId: unknown; readonly rec: RequesterRec | undefined }
  /** A progress naming a token no request its sender received on that connection carried; `elsewhere`: one received on another connection. */
  | { readonly kind: 'strayProgress'; readonly e: Ev<'send'>; readonly token: unknown; readonly elsewhere: ReceiverRec | undefined }
  /** A progress for a received request, after the receiver machine took (or refused) it. */
  | { readonly kind: 'progressSent'; readonly e: Ev<'send'>; readonly params: Params; readonly rec: ReceiverRec }
  /** A cancel reached the receiver of `rec`, before its machine took it. */
  | { readonly kind: 'cancelDelivered'; readonly e: Ev<'deliver'>; readonly rec: ReceiverRec }
  /** A progress reached the requester of `rec`; `wire` is the state it found, the machine has moved since. */
  | { readonly kind: 'progressDelivered'; readonly e: Ev<'deliver'>; readonly rec: RequesterRec; readonly wire: RequesterWire }
  /** A response reached the requester of `rec`; `wire` is the state it found, the machine has moved since. */
  | { readonly kind: 'responseDelivered'; readonly e: Ev<'deliver'>; readonly rec: RequesterRec; readonly wire: RequesterWire }
  /** A call settled for the first time (`call.settled` is set, the machines moved); `wire`: its request's state before. */
  | { readonly kind: 'callSettled'; readonly e: Ev<'call-settle'>; readonly call: CallRec; readonly wire: RequesterWire | undefined }
  /** A call that had settled settled again. */
  | { readonly kind: 'callSettledAgain'; readonly e: Ev<'call-settle'>; readonly call: CallRec }
  /** The caller's onprogress ran; `late` when the call had settled already (the machine refused it). */
  | { readonly kind: 'onprogress'; readonly e: Ev<'onprogress'>; readonly call: CallRec; readonly late: boolean }
  /** The handler of `rec` saw its signal abort (after the machine moved). */
  | { readonly kind: 'handlerAborted'; readonly e: Ev<'handler-abort'>; readonly rec: ReceiverRec }
  /** A handler ended (after the machine moved); `rec` is missing for a request the walk never saw arrive. */
  | { readonly kind: 'handlerEnded'; readonly e: Ev<'handler-end'>; readonly rec: ReceiverRec | undefined }
  /** One side observed its connection close (after the session machine took or refused it). */
  | { readonly kind: 'sideClosed'; readonly e: Ev<'close'> }
  /**
   * `side` learnt, for the first time, that connection `conn` closed (its own close or the peer's
   * end of stream): every request of that side and connection took CLOSE.
   */
  | { readonly kind: 'connectionClosed'; readonly e: Ev<'close' | 'eof'>; readonly side: Side; readonly conn: number }
  /** A model transition refused: the event is one the lifecycle forbids in that state. */
  | Refusal;

/** A machine refused an event: `wire` (and `handler`) are the states that refused it. */
export type Refusal =
  | { readonly kind: 'refused'; readonly machine: 'requester'; readonly e: TraceEvent; readonly event: RequesterEvent['type']; readonly rec: RequesterRec; readonly wire: RequesterWire }
  | {
      readonly kind: 'refused';
      readonly machine: 'receiver';
      readonly e: TraceEvent;
      readonly event: ReceiverEvent['type'];
      readonly rec: ReceiverRec;
      readonly wire: ReceiverWire;
      readonly handler: HandlerState;
    }
  | { readonly kind: 'refused'; readonly machine: 'session'; readonly e: TraceEvent; readonly event: SessionEvent['type']; readonly conn: number };
