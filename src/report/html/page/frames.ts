import type { ViewerEvent } from '../viewerTypes.ts';

type Frame = { id?: unknown; method?: string; params?: { requestId?: unknown; progressToken?: unknown; progress?: number }; result?: unknown; error?: { code?: number; message?: string } };

const frameOf = (e: ViewerEvent): Frame | undefined => (e.frame && typeof e.frame === 'object' ? (e.frame as Frame) : undefined);

/** A frame in a few words: `tools/call id=1`, `response id=1`, `cancelled requestId=1`. */
export function summarize(frame: unknown): string {
  const f = frame as Frame | undefined;
  if (!f || typeof f !== 'object') return String(frame);
  if (f.method) {
    const id = f.id !== undefined ? ` id=${JSON.stringify(f.id)}` : '';
    const req = f.params?.requestId !== undefined ? ` requestId=${JSON.stringify(f.params.requestId)}` : '';
    const prog = f.params?.progress !== undefined ? ` ${f.params.progress}` : '';
    return `${f.method}${id}${req}${prog}`;
  }
  if (f.error) return `error ${f.error.code ?? ''} id=${JSON.stringify(f.id)}`;
  return `result id=${JSON.stringify(f.id)}`;
}

/** The side an event happens at (lane), or `wire` / `clock`. */
export function laneOf(e: ViewerEvent): 'client' | 'wire' | 'server' | 'clock' {
  switch (e.kind) {
    case 'deliver':
    case 'drop':
    case 'http-request':
    case 'http-response':
    case 'sse-event':
    case 'sse-end':
    case 'http-disconnect':
      return 'wire';
    case 'timer':
    case 'handler-timer':
    case 'end':
      return 'clock';
    case 'action':
      return 'clock';
    default: {
      const side = (e.from ?? e.side ?? e.to ?? e.at) as string | undefined;
      return side === 'server' ? 'server' : 'client';
    }
  }
}

/** Which way a frame event goes: `client→server`, `server→client`, or undefined. */
export function directionOf(e: ViewerEvent): string | undefined {
  if (e.kind === 'send' || e.kind === 'send-failed') return e.from === 'client' ? 'client→server' : 'server→client';
  if (e.kind === 'deliver' || e.kind === 'drop') return e.to === 'server' ? 'client→server' : 'server→client';
  return undefined;
}

/** The JSON-RPC method an event concerns (the frame's, a call's, a handler's). */
export function methodOf(e: ViewerEvent): string | undefined {
  const f = frameOf(e);
  if (f?.method) return f.method;
  if (typeof e.method === 'string') return e.method;
  return undefined;
}

/** The request id an event concerns, as a string (`1`), when it has one. */
export function requestIdOf(e: ViewerEvent): string | undefined {
  const f = frameOf(e);
  if (f) {
    if (f.id !== undefined) return JSON.stringify(f.id);
    if (f.params?.requestId !== undefined) return JSON.stringify(f.params.requestId);
    return undefined;
  }
  if (e.id !== undefined) return JSON.stringify(e.id);
  return undefined;
}

/** What the lifecycle row marks for a frame: the request, progress, a cancel, a response or an error. */
export function lifecycleMark(e: ViewerEvent): 'request' | 'progress' | 'cancel' | 'response' | 'error' | undefined {
  const f = frameOf(e);
  if (!f) return undefined;
  if (f.method === 'notifications/progress') return 'progress';
  if (f.method === 'notifications/cancelled') return 'cancel';
  if (f.method) return f.id !== undefined ? 'request' : undefined;
  return f.error ? 'error' : 'response';
}

/** One line for an event, as `formatTrace` prints it, in short. */
export function describe(e: ViewerEvent): string {
  const f = e.frame !== undefined ? summarize(e.frame) : '';
  switch (e.kind) {
    case 'action':
      return `▶ ${e.action as string}`;
    case 'send':
      return `send ${directionOf(e)} [${e.seq}] ${f}`;
    case 'deliver':
      return `deliver ${directionOf(e)} [${e.seq}] ${f}`;
    case 'drop':
      return `lost in flight →${e.to as string} ${f}`;
    case 'timer':
      return `timer fires: ${e.label as string}`;
    case 'call-start':
      return `call ${e.call as string} ${e.method as string} id=${JSON.stringify(e.id) ?? '?'}`;
    case 'call-settle':
      return `call ${e.call as string} ${e.outcome as string}${e.code !== undefined ? ` code=${e.code as string}` : ''}${e.message ? ` "${e.message as string}"` : ''}`;
    case 'onprogress':
      return `onprogress ${e.call as string} ${e.progress as number}`;
    case 'abort-signal':
      return `caller aborts signal ${e.signal as string}`;
    case 'handler-start':
      return `handler starts ${e.method as string} id=${JSON.stringify(e.id)}`;
    case 'handler-end':
      return `handler ends id=${JSON.stringify(e.id)}: ${e.outcome as string}`;
    case 'handler-abort':
      return `handler aborted id=${JSON.stringify(e.id)}`;
    case 'handler-step':
      return `handler step id=${JSON.stringify(e.id)} #${e.index as number}`;
    case 'http-request':
      return `HTTP ${e.method as string} #${e.exchange as number} ${e.at === 'client' ? 'sent' : 'received'}`;
    case 'http-response':
      return `HTTP #${e.exchange as number} ${e.status as number} ${e.at === 'server' ? 'sent' : 'received'}`;
    case 'sse-event':
      return `SSE #${e.exchange as number} ${e.at === 'server' ? 'written' : 'read'}${e.seq !== undefined ? ` [${e.seq as number}]` : ''}`;
    case 'sse-end':
      return `SSE #${e.exchange as number} ends`;
    case 'http-disconnect':
      return `HTTP #${e.exchange as number} disconnected`;
    case 'close':
      return `close seen by ${e.side as string}`;
    case 'end':
      return `■ end: ${e.outcome as string}`;
    case 'onerror': {
      const message = String(e.message);
      return `onerror: ${message.length > 60 ? `${message.slice(0, 59)}…` : message}`;
    }
    default: {
      const { i: _i, step: _s, t: _t, kind, ...rest } = e;
      return `${kind} ${JSON.stringify(rest)}`.slice(0, 120);
    }
  }
}
