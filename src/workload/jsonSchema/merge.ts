/**
 * Merging two canonical schema objects into one whose values satisfy both (the core of `allOf`
 * and of `$ref` with siblings). Merging keeps generation constructive: `{minimum: 1}` and
 * `{maximum: 9}` become one range rather than a filter. What cannot be merged exactly (two
 * patterns, two `contains`, `additionalProperties` meeting the other side's properties, ...) is
 * returned as a residual schema the generator filters with.
 */
import { jsonEqual } from './json.ts';
import type { JsonSchema, SchemaObject } from './types.ts';

export interface Merged {
  readonly schema: SchemaObject;
  /** Keywords of the second schema that could not be merged: values must also satisfy this. */
  readonly residual: SchemaObject | undefined;
}

const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const OBJECT_SHAPE = ['properties', 'patternProperties', 'additionalProperties'];
const ARRAY_SHAPE = ['prefixItems', 'items'];
/** Applicators kept whole: when both sides have one, the second goes to the residual. */
const SINGLE = ['pattern', 'format', 'anyOf', 'oneOf', 'not', 'propertyNames', 'dependentSchemas'];

const both = (a: JsonSchema, b: JsonSchema): JsonSchema => (a === true ? b : b === true ? a : { allOf: [a, b] });

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** `a` ∧ `b`, both canonical, neither holding `$ref` or `allOf` (the caller flattens those first). */
export function mergeSchemas(a: SchemaObject, b: SchemaObject): Merged {
  const out: Record<string, unknown> = { ...a };
  const residual: Record<string, unknown> = {};
  const has = (s: SchemaObject, k: string): boolean => s[k] !== undefined;

  if (Array.isArray(b.type)) {
    const bt = b.type as string[];
    if (!Array.isArray(a.type)) out.type = bt;
    else {
      const at = a.type as string[];
      const inBoth = (t: string, other: string[]): boolean => other.includes(t) || (t === 'integer' && other.includes('number'));
      out.type = [...new Set([...at.filter((t) => inBoth(t, bt)), ...bt.filter((t) => inBoth(t, at))])];
    }
  }
  if (Array.isArray(b.enum)) out.enum = Array.isArray(a.enum) ? (a.enum as unknown[]).filter((x) => (b.enum as unknown[]).some((y) => jsonEqual(x, y))) : b.enum;
  for (const k of LOWER) if (typeof b[k] === 'number') out[k] = typeof a[k] === 'number' ? Math.max(a[k] as number, b[k] as number) : b[k];
  for (const k of UPPER) if (typeof b[k] === 'number') out[k] = typeof a[k] === 'number' ? Math.min(a[k] as number, b[k] as number) : b[k];
  if (typeof b.multipleOf === 'number') {
    const [x, y] = [a.multipleOf, b.multipleOf];
    if (typeof x !== 'number') out.multipleOf = y;
    else if (Number.isInteger(x) && Number.isInteger(y)) out.multipleOf = (x / gcd(x, y)) * y;
    else if (x !== y) residual.multipleOf = y;
  }
  if (b.uniqueItems === true) out.uniqueItems = true;
  if (Array.isArray(b.required)) out.required = [...new Set([...((a.required as string[] | undefined) ?? []), ...(b.required as string[])])];
  if (typeof b.dependentRequired === 'object' && b.dependentRequired !== null) {
    const merged: Record<string, string[]> = { ...((a.dependentRequired as Record<string, string[]> | undefined) ?? {}) };
    for (const [k, v] of Object.entries(b.dependentRequired as Record<string, string[]>)) merged[k] = [...new Set([...(merged[k] ?? []), ...v])];
    out.dependentRequired = merged;
  }
  for (const k of SINGLE) {
    if (!has(b, k)) continue;
    if (!has(a, k) || jsonEqual(a[k], b[k])) out[k] = b[k];
    else if (k === 'propertyNames') out[k] = both(a[k] as JsonSchema, b[k] as JsonSchema);
    else residual[k] = b[k];
  }
  // if/then/else travel together: a `then` without its `if` would mean nothing.
  if (has(b, 'if')) {
    const group = ['if', 'then', 'else'];
    const target = !has(a, 'if') ? out : group.every((k) => jsonEqual(a[k], b[k])) ? undefined : residual;
    if (target !== undefined) for (const k of group) if (has(b, k)) target[k] = b[k];
  }
  if (has(b, 'contains')) {
    const keys = ['contains', 'minContains', 'maxContains'];
    if (!has(a, 'contains')) for (const k of keys) out[k] = b[k];
    else for (const k of keys) if (has(b, k)) residual[k] = b[k];
  }

  // Object shape: properties merge key by key, unless additionalProperties of one side would see the other's keys.
  if (OBJECT_SHAPE.some((k) => has(b, k))) {
    const closes = (s: SchemaObject): boolean => has(s, 'additionalProperties') && s.additionalProperties !== true;
    const shaped = (s: SchemaObject): boolean => OBJECT_SHAPE.some((k) => has(s, k));
    if (shaped(a) && (closes(a) || closes(b))) for (const k of OBJECT_SHAPE) { if (has(b, k)) residual[k] = b[k]; }
    else {
      for (const k of ['properties', 'patternProperties']) {
        if (!has(b, k)) continue;
        const merged: Record<string, JsonSchema> = { ...((a[k] as Record<string, JsonSchema> | undefined) ?? {}) };
        for (const [key, sub] of Object.entries(b[k] as Record<string, JsonSchema>)) merged[key] = key in merged ? both(merged[key] as JsonSchema, sub) : sub;
        out[k] = merged;
      }
      if (has(b, 'additionalProperties')) out.additionalProperties = b.additionalProperties;
    }
  }
  // Array shape: `items` ∧ `items` merges; anything with prefixItems on both sides is filtered.
  if (ARRAY_SHAPE.some((k) => has(b, k))) {
    const tuple = (s: SchemaObject): boolean => has(s, 'prefixItems');
    const shaped = (s: SchemaObject): boolean => ARRAY_SHAPE.some((k) => has(s, k));
    if (!shaped(a)) for (const k of ARRAY_SHAPE) { if (has(b, k)) out[k] = b[k]; }
    else if (!tuple(a) && !tuple(b)) out.items = both(a.items as JsonSchema, b.items as JsonSchema);
    else for (const k of ARRAY_SHAPE) { if (has(b, k)) residual[k] = b[k]; }
  }
  return { schema: out, residual: Object.keys(residual).length > 0 ? residual : undefined };
}
