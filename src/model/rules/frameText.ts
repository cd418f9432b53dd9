import type { JsonValue } from '../../sim/json.ts';

/*
 * Copies of two pure helpers of the simulator (`summarizeFrame` in src/sim/trace.ts,
 * `canonicalJson` in src/sim/json.ts) that the HTTP rule's messages and keys need: the model may
 * import only types from src/sim. test/model/frameText.test.ts keeps them equal to the originals.
 * TODO(lead): move both to src/util and delete this file.
 */

/** JSON with object keys sorted at every depth: equal values give equal text, whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  });
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
