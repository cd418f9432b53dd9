import { isNotificationFrame, isRequestFrame, isResponseFrame } from '../util/jsonrpc.ts';
import type { JsonValue } from '../util/json.ts';
import type { ScheduledTransport } from './memoryTransport.ts';
import type { Side } from './scenario.ts';

/**
 * A deliberately broken adapter between one side's SDK and its transport, for fixtures that
 * prove an invariant fires. Each kind breaks one rule; a scenario lists the ones it wants.
 *
 * Outgoing (what the side's SDK sends): `duplicate-response`, `shift-response-id`,
 * `duplicate-request`, `fractional-request-id`, `strip-meta`, `constant-progress-token`,
 * `progress-after-response`, `swap-progress-token` (a progress names the token of another open
 * request, the oldest), `task-shaped-result`, `drop-outgoing-cancel`, `drop-outgoing-progress`, `cancel-initialize`,
 * `cancel-without-id`, `misnamed-cancel`, `malformed-notification`.
 * Incoming (what reaches the side's SDK): `reply-to-notification`, `drop-incoming-progress`,
 * `answer-cancelled`, `close-on-late-response`, `close-on-response` (any response, late or not: a
 * session that breaks with no race), `drop-incoming-cancel` (the SDK never learns of
 * cancellations, so it never aborts a handler: the regression the property suite must catch).
 * Connection: `double-close` (the SDK is told of its close twice), `hide-close` (never told).
 * Caller options (applied where the world calls `request()`): `drop-timeout-option`,
 * `drop-reset-option`, `drop-max-total-option`, `force-reset-option` (reset-on-progress on
 * though the caller left it off).
 */
export type AdapterFaultKind =
  | 'duplicate-response'
  | 'shift-response-id'
  | 'duplicate-request'
  | 'fractional-request-id'
  | 'strip-meta'
  | 'constant-progress-token'
  | 'progress-after-response'
  | 'swap-progress-token'
  | 'task-shaped-result'
  | 'drop-outgoing-cancel'
  | 'drop-outgoing-progress'
  | 'cancel-initialize'
  | 'cancel-without-id'
  | 'misnamed-cancel'
  | 'malformed-notification'
  | 'reply-to-notification'
  | 'drop-incoming-progress'
  | 'drop-incoming-cancel'
  | 'answer-cancelled'
  | 'close-on-late-response'
  | 'close-on-response'
  | 'double-close'
  | 'hide-close'
  | 'drop-timeout-option'
  | 'drop-reset-option'
  | 'drop-max-total-option'
  | 'force-reset-option';

export interface AdapterFault {
  readonly side: Side;
  readonly fault: AdapterFaultKind;
}

type Msg = Record<string, unknown> & { id?: unknown; method?: unknown; params?: Record<string, unknown> };

/** True when `faults` breaks `side` with `kind`. */
export function hasAdapterFault(faults: readonly AdapterFault[] | undefined, side: Side, kind: AdapterFaultKind): boolean {
  return !!faults?.some((f) => f.side === side && f.fault === kind);
}

/** Wraps one transport end with the faults that name its side. Without faults, nothing changes. */
export function applyAdapterFaults(faults: readonly AdapterFault[] | undefined, transport: ScheduledTransport): void {
  const mine = new Set(faults?.filter((f) => f.side === transport.side).map((f) => f.fault));
  if (mine.size === 0) return;
  const has = (k: AdapterFaultKind) => mine.has(k);
  const realSend = transport.send.bind(transport);
  /** Requests this side received and has not answered: id → progress token. */
  const open = new Map<unknown, unknown>();
  /** Ids of requests this side cancelled. */
  const cancelled = new Set<unknown>();
  /** Id of the initialize request this side sent (`close-on-response` lets its answer through). */
  let initializeId: unknown;

  const sendOut = async (m: Msg): Promise<void> => {
    const isResponse = isResponseFrame(m);
    const isRequest = isRequestFrame(m);
    const isNote = isNotificationFrame(m);
    let out: Msg = m;
    if (isRequest && m.method !== 'initialize') {
      if (has('fractional-request-id')) out = { ...out, id: (out.id as number) + 0.5 };
      if (has('strip-meta') && out.params) {
        const { _meta: _dropped, ...rest } = out.params;
        out = { ...out, params: rest };
      }
      if (has('constant-progress-token') && (out.params?._meta as Msg | undefined)?.progressToken !== undefined) {
        out = { ...out, params: { ...out.params, _meta: { ...(out.params!._meta as Msg), progressToken: 'same-token' } } };
      }
    }
    if (isNote && m.method === 'notifications/progress' && has('drop-outgoing-progress')) return;
    if (isNote && m.method === 'notifications/progress' && has('swap-progress-token')) {
      const mine = m.params?.progressToken;
      const theirs = [...open.values()].find((t) => t !== undefined && t !== mine);
      if (theirs !== undefined) out = { ...out, params: { ...out.params, progressToken: theirs } };
    }
    if (isNote && m.method === 'notifications/cancelled') {
      if (has('drop-outgoing-cancel')) return;
      cancelled.add(m.params?.requestId);
      if (has('misnamed-cancel')) out = { ...out, method: 'notifications/cancel' };
      if (has('cancel-without-id')) {
        const { requestId: _dropped, ...rest } = m.params ?? {};
        out = { ...out, params: rest };
      }
    }
    if (isNote && has('malformed-notification')) {
      const { jsonrpc: _dropped, ...rest } = out;
      out = rest;
    }
    if (isResponse) {
      if (has('shift-response-id') && typeof out.id === 'number') out = { ...out, id: out.id + 1000 };
      if (has('task-shaped-result') && out.result && typeof out.result === 'object') {
        out = { ...out, result: { ...(out.result as Msg), task: { taskId: `task-${String(m.id)}`, status: 'working' } } };
      }
    }
    if (isRequest && m.method === 'initialize') initializeId = m.id;
    await realSend(out as never);
    if (isRequest && m.method !== 'initialize' && has('duplicate-request')) await realSend(out as never);
    if (isRequest && m.method === 'initialize' && has('cancel-initialize')) {
      await realSend({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: m.id as number, reason: 'adapter fault' } } as never);
    }
    if (isResponse) {
      const token = open.get(m.id);
      open.delete(m.id);
      if (has('duplicate-response')) await realSend(out as never);
      if (has('progress-after-response') && token !== undefined) {
        await realSend({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1e6 } } as never);
      }
    }
  };
  transport.send = (message) => sendOut(message as unknown as Msg);

  let sdkOnMessage: ((m: never) => void) | undefined;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () =>
      sdkOnMessage &&
      ((message: JsonValue) => {
        const m = message as Msg;
        const isRequest = isRequestFrame(m);
        const isNote = isNotificationFrame(m);
        const isResponse = isResponseFrame(m);
        if (isRequest) open.set(m.id, (m.params?._meta as Msg | undefined)?.progressToken);
        if (isNote && m.method === 'notifications/progress' && has('drop-incoming-progress')) return;
        if (isNote && m.method === 'notifications/cancelled' && has('drop-incoming-cancel')) return;
        if (isNote && m.method === 'notifications/cancelled' && has('answer-cancelled') && open.has(m.params?.requestId)) {
          void realSend({ jsonrpc: '2.0', id: m.params!.requestId as number, result: { content: [] } } as never);
        }
        sdkOnMessage!(message as never);
        if (isNote && has('reply-to-notification')) {
          void realSend({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'adapter fault: replied to a notification' } } as never).catch(() => {});
        }
        if (isResponse && has('close-on-late-response') && cancelled.has(m.id)) void transport.close();
        else if (isResponse && has('close-on-response') && m.id !== initializeId) void transport.close();
      }),
    set: (h: ((m: never) => void) | undefined) => {
      sdkOnMessage = h;
    },
  });

  if (has('hide-close')) {
    Object.defineProperty(transport, 'onclose', { configurable: true, get: () => undefined, set: () => {} });
  }
  if (has('double-close')) {
    let sdkOnClose: (() => void) | undefined;
    Object.defineProperty(transport, 'onclose', {
      configurable: true,
      get: () =>
        sdkOnClose &&
        (() => {
          sdkOnClose!();
          sdkOnClose?.();
        }),
      set: (h: (() => void) | undefined) => {
        sdkOnClose = h;
      },
    });
  }
}
