import type { JsonValue } from './json.ts';

/**
 * JSON-RPC 2.0 frame shapes, for every part that reads frames off the wire (the oracle, the
 * HTTP exchanges, adapter faults, rogue judges). Classification only: no MCP semantics.
 */

/** A frame as an object with optional params. */
export type Frame = Record<string, unknown> & { params?: Record<string, unknown> };

/** What a frame is; `invalid` says why it is none of the four. */
export type Classified =
  | { type: 'request'; id: unknown; method: string; params: Record<string, unknown> | undefined }
  | { type: 'notification'; method: string; params: Record<string, unknown> | undefined }
  | { type: 'response'; id: unknown; error: boolean }
  | { type: 'invalid'; why: string };

/** A plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Shape of one JSON-RPC 2.0 frame; `invalid` says what is wrong. */
export function classifyFrame(frame: unknown): Classified {
  if (!isJsonObject(frame)) return { type: 'invalid', why: 'not an object' };
  const f = frame as Frame;
  const params = f.params && typeof f.params === 'object' ? f.params : undefined;
  if (typeof f.method === 'string') {
    if ('id' in f) return { type: 'request', id: f.id, method: f.method, params };
    return { type: 'notification', method: f.method, params };
  }
  if ('result' in f || 'error' in f) return { type: 'response', id: f.id, error: 'error' in f };
  return { type: 'invalid', why: 'neither request, notification nor response' };
}

/** A request: an object with a string `method` and an `id` member (of any value). */
export function isRequestFrame(frame: unknown): frame is Frame & { method: string; id: unknown } {
  return isJsonObject(frame) && typeof frame.method === 'string' && 'id' in frame;
}

/** A notification: an object with a string `method` and no `id` member. */
export function isNotificationFrame(frame: unknown): frame is Frame & { method: string } {
  return isJsonObject(frame) && typeof frame.method === 'string' && !('id' in frame);
}

/** A response: an object without `method` that carries `result` or `error`. */
export function isResponseFrame(frame: unknown): frame is Frame & { id: unknown } {
  return isJsonObject(frame) && !('method' in frame) && ('result' in frame || 'error' in frame);
}

/** `tools/call id=1 token=1`, `result id=1`, `notifications/progress token=1 2/5`. */
export function summarizeFrame(frame: JsonValue): string {
  if (!frame || typeof frame !== 'object' || Array.isArray(frame)) return JSON.stringify(frame);
  const f = frame as Record<string, JsonValue>;
  const params = (f.params && typeof f.params === 'object' ? f.params : {}) as Record<string, JsonValue>;
  const meta = (params._meta && typeof params._meta === 'object' ? params._meta : {}) as Record<string, JsonValue>;
  if (typeof f.method === 'string') {
    const parts = [f.method];
    if ('id' in f) parts.push(`id=${JSON.stringify(f.id)}`);
    if (f.method === 'notifications/progress') {
      parts.push(`token=${JSON.stringify(params.progressToken)}`, `${params.progress}${params.total !== undefined ? `/${params.total}` : ''}`);
    } else if (f.method === 'notifications/cancelled') {
      parts.push(`requestId=${JSON.stringify(params.requestId)}`);
    } else if (meta.progressToken !== undefined) {
      parts.push(`token=${JSON.stringify(meta.progressToken)}`);
    }
    return parts.join(' ');
  }
  if ('result' in f) return `result id=${JSON.stringify(f.id)}`;
  if ('error' in f) {
    const err = f.error as Record<string, JsonValue> | null;
    return `error id=${JSON.stringify(f.id)} code=${err?.code}`;
  }
  return JSON.stringify(frame);
}
