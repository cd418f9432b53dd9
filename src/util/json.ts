/** A JSON value: what crosses a wire. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Deep copy through the wire format, as a real transport does (the SDK's in-memory one does not). */
export function wireCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
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
