import { describeHttpDelivery, type HttpDelivery } from './http/HttpNetwork.ts';
import type { ScheduledTransport } from './memoryTransport.ts';
import type { CallerAction } from './scenario.ts';
import type { Gate } from './scriptedHandler.ts';
import { summarizeFrame } from '../util/jsonrpc.ts';
import type { PendingTimer } from './VirtualClock.ts';

/**
 * What the scheduler can do next. The world lists these in a stable natural order: deliveries
 * (oldest message first), bursts, handler steps, the next caller action, then the next timer.
 */
export type SimAction =
  /** Hand the head of `to`'s incoming link to it: one frame or the peer's end of stream. */
  | { readonly kind: 'deliver'; readonly to: ScheduledTransport }
  /** Hand every frame queued for `to` over in one synchronous turn (a pipe read of many lines). */
  | { readonly kind: 'burst'; readonly to: ScheduledTransport; readonly size: number }
  /**
   * http profile: the head of one direction of one HTTP exchange: a request reaching the server,
   * a response head, one SSE event, a stream's end, or a client's disconnect reaching the server.
   */
  | { readonly kind: 'http'; readonly delivery: HttpDelivery }
  | { readonly kind: 'step'; readonly gate: Gate }
  | { readonly kind: 'caller'; readonly index: number; readonly action: CallerAction }
  | { readonly kind: 'timer'; readonly timer: PendingTimer };

const direction = (t: ScheduledTransport) => (t.side === 'server' ? 'client→server' : 'server→client');

/** The action by meaning, as the trace and the action log print it. */
export function describeAction(a: SimAction): string {
  switch (a.kind) {
    case 'deliver': {
      const head = a.to.incoming.peek();
      const what = head?.kind === 'frame' ? `[${head.seq}] ${summarizeFrame(head.frame)}` : 'end of stream';
      return `deliver ${direction(a.to)} conn ${a.to.conn} ${what}`;
    }
    case 'burst':
      return `burst ${direction(a.to)} conn ${a.to.conn} ×${a.size}`;
    case 'http':
      return describeHttpDelivery(a.delivery);
    case 'step':
      return `step ${a.gate.side} handler id=${a.gate.id} #${a.gate.index} ${a.gate.step.kind}`;
    case 'caller':
      return `caller #${a.index} ${'client' in a.action && a.action.client ? `client ${a.action.client}: ` : ''}${describeCallerAction(a.action)}`;
    case 'timer':
      return `timer ${a.timer.label} #${a.timer.id} at ${a.timer.atMs}ms`;
  }
}

export function describeCallerAction(a: CallerAction): string {
  switch (a.kind) {
    case 'call':
      return `call ${a.call} ${a.method} → ${a.handler}`;
    case 'abort':
      return `abort signal ${a.signal}`;
    case 'close':
      return `close ${a.side}`;
    case 'reconnect':
      return a.fresh ? 'reconnect fresh client' : 'reconnect';
    case 'http-post':
      return `http-post ${summarizeFrame(a.body)}`;
    case 'http-drop':
      return 'http-drop open SSE streams';
  }
}
