/** Deep equality and a canonical key for JSON values, as `enum`, `const` and `uniqueItems` compare them. */

/** JSON equality: numbers by value (so 1 and 1.0 are one), objects regardless of key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A string equal for JSON-equal values (keys sorted): the selector of unique arrays. */
export function canonicalKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalKey).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalKey((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return Object.is(value, -0) ? '0' : JSON.stringify(value) ?? 'undefined';
}

/** The JSON type name of a value, `integer` for whole numbers. */
export function jsonTypeOf(value: unknown): 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object' | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : Number.isFinite(value) ? 'number' : 'other';
    case 'string':
      return 'string';
    case 'object':
      return 'object';
    default:
      return 'other';
  }
}
