/** A JSON value: what crosses a wire. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Deep copy through the wire format, as a real transport does (the SDK's in-memory one does not):
 * exactly `JSON.parse(JSON.stringify(value))`. Frames are plain data, and copying them directly
 * costs a fraction of printing and parsing them; anything JSON treats specially (a `toJSON`, a
 * class instance, a `__proto__` key, a bigint, a cycle) takes the JSON round trip itself.
 */
export function wireCopy<T>(value: T): T {
  try {
    return plainCopy(value, 0) as T;
  } catch (error) {
    if (error !== notPlain) throw error;
    return JSON.parse(JSON.stringify(value)) as T;
  }
}

/** Thrown by `plainCopy` at a value whose JSON copy it does not reproduce itself. */
const notPlain = new Error('wireCopy: not plain JSON data');
/** Deeper than this is more likely a cycle than a frame: JSON decides (and throws on a cycle). */
const MAX_DEPTH = 200;

/**
 * `JSON.parse(JSON.stringify(v))` for plain data: non-finite numbers become null, -0 becomes 0,
 * undefined, functions and symbols are dropped from objects and become null in arrays; keys keep
 * `Object.keys` order, which is the order JSON writes and reads them back in.
 */
function plainCopy(v: unknown, depth: number): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    case 'object':
      break;
    default:
      // undefined, function, symbol (the caller drops or nulls them) and bigint (JSON throws).
      throw notPlain;
  }
  if (v === null) return null;
  if (depth > MAX_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === 'function') throw notPlain;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (let k = 0; k < v.length; k++) {
      const item: unknown = v[k];
      out.push(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : plainCopy(item, depth + 1));
    }
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw notPlain;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    const item: unknown = (v as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    // JSON.parse makes `__proto__` an own property; assigning it would set the prototype.
    if (key === '__proto__') throw notPlain;
    out[key] = plainCopy(item, depth + 1);
  }
  return out;
}

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
