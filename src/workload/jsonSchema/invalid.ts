/**
 * Values a schema rejects, for rogue inputs: each assertion keyword yields a mutation that breaks
 * it (a wrong type, a number past a bound, a string too long, a required property removed, an
 * extra property where none is allowed, a listed value changed, ...), starting from valid values
 * where there are some so that only one thing is wrong. Every candidate is checked against the
 * whole schema (a mutation another keyword forgives is skipped), and mutations that never break
 * the schema are dropped up front by a deterministic sample.
 */
import fc from 'fast-check';
import { boundedFilter } from './boundedFilter.ts';
import type { SchemaDocument } from './document.ts';
import { isUnsatisfiable } from './error.ts';
import { FORMATS } from './formats.ts';
import { arbitraryOf, freeJson } from './generate.ts';
import { jsonEqual } from './json.ts';
import { normalize } from './normalize.ts';
import { childPointer } from './pointer.ts';
import { isSchemaObject, readCount, readNumber, readSchema, readSchemaArray, readSchemaMap, readString, readStrings } from './read.ts';
import type { JsonSchema, SchemaObject, SimpleType } from './types.ts';
import { isValid, patternRegExp } from './validate.ts';

/** How deep mutations reach into properties and items. */
const MAX_DEPTH = 2;
/** Values drawn (seeded) per mutation to see whether it ever breaks the schema. */
const SCREEN_SAMPLES = 30;

const values = {
  null: fc.constant(null),
  boolean: fc.boolean(),
  integer: fc.integer({ min: -1000, max: 1000 }),
  number: fc.double({ min: -1000, max: 1000, noNaN: true }).map((x) => (Number.isInteger(x) ? x + 0.5 : x)),
  string: fc.string({ maxLength: 8 }),
  array: fc.array(fc.integer(), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }).map((o) => ({ ...o })),
} satisfies Record<SimpleType, fc.Arbitrary<unknown>>;

function tryValid(doc: SchemaDocument, schema: JsonSchema, pointer: string): fc.Arbitrary<unknown> | undefined {
  try {
    return arbitraryOf(doc, schema, pointer, new Map());
  } catch (error) {
    if (isUnsatisfiable(error)) return undefined;
    throw error;
  }
}

/** Candidate invalid values of `schema` (not yet checked against it). */
export function mutations(doc: SchemaDocument, schema: JsonSchema, pointer: string, depth: number): fc.Arbitrary<unknown>[] {
  if (schema === true) return [];
  if (schema === false) return [freeJson(doc)];
  let flatSchema: SchemaObject;
  let residuals: readonly { schema: JsonSchema; pointer: string }[];
  try {
    const flat = normalize(doc, schema, pointer, new Map());
    flatSchema = flat.schema;
    residuals = flat.residuals;
  } catch (error) {
    if (isUnsatisfiable(error)) return [freeJson(doc)];
    throw error;
  }
  const s = flatSchema;
  const out: fc.Arbitrary<unknown>[] = [];
  const at = (...tokens: (string | number)[]): string => childPointer(pointer, ...tokens);
  // Bounded: a mutation whose filter cannot be met is dropped by the screen, never hangs it.
  const bf = <T,>(arb: fc.Arbitrary<T>, predicate: (value: T) => boolean): fc.Arbitrary<T> => boundedFilter(arb, predicate, 200, pointer, 'invalid');
  const valid = depth <= MAX_DEPTH ? tryValid(doc, schema, pointer) : undefined;
  const deeper = (sub: JsonSchema, where: string): fc.Arbitrary<unknown> | undefined => {
    if (depth >= MAX_DEPTH) return undefined;
    const arbs = mutations(doc, sub, where, depth + 1);
    return arbs.length === 0 ? undefined : fc.oneof(...arbs);
  };

  const types = s.type as SimpleType[] | undefined;
  if (types !== undefined) {
    for (const t of Object.keys(values) as SimpleType[]) {
      const allowed = types.includes(t) || (t === 'integer' && types.includes('number'));
      if (!allowed) out.push(values[t]);
    }
  }
  if (Array.isArray(s.enum)) {
    const listed = s.enum as unknown[];
    const near = listed.flatMap<unknown>((v) => (typeof v === 'string' ? [`${v}_`, v.toUpperCase() === v ? v.toLowerCase() : v.toUpperCase()] : typeof v === 'number' ? [v + 1, v - 1] : typeof v === 'boolean' ? [!v] : [null]));
    const fresh = near.filter((v) => !listed.some((l) => jsonEqual(l, v)));
    if (fresh.length > 0) out.push(fc.constantFrom(...fresh));
    out.push(freeJson(doc));
  }

  // Numbers.
  const min = readNumber(s, 'minimum', pointer);
  const max = readNumber(s, 'maximum', pointer);
  const xmin = readNumber(s, 'exclusiveMinimum', pointer);
  const xmax = readNumber(s, 'exclusiveMaximum', pointer);
  const step = readNumber(s, 'multipleOf', pointer);
  const away = fc.integer({ min: 1, max: 1000 });
  if (min !== undefined) out.push(away.map((k) => Math.floor(min) - k), fc.constant(min - 0.5));
  if (max !== undefined) out.push(away.map((k) => Math.ceil(max) + k), fc.constant(max + 0.5));
  if (xmin !== undefined) out.push(fc.constant(xmin), away.map((k) => Math.floor(xmin) - k));
  if (xmax !== undefined) out.push(fc.constant(xmax), away.map((k) => Math.ceil(xmax) + k));
  if (step !== undefined) out.push(fc.integer({ min: -100, max: 100 }).map((k) => k * step + step / 2));
  if (types !== undefined && types.includes('integer') && !types.includes('number')) {
    const [lo, hi] = [min ?? xmin ?? -100, max ?? xmax ?? 100];
    out.push(fc.integer({ min: Math.ceil(Math.max(lo, -1e6)), max: Math.floor(Math.min(Math.max(hi, lo), 1e6)) }).map((k) => k + 0.5));
  }

  // Strings.
  const minLength = readCount(s, 'minLength', pointer);
  const maxLength = readCount(s, 'maxLength', pointer);
  const pattern = readString(s, 'pattern', pointer);
  const format = readString(s, 'format', pointer);
  if (minLength !== undefined && minLength > 0) out.push(fc.string({ maxLength: minLength - 1 }));
  if (maxLength !== undefined) out.push(fc.string({ minLength: maxLength + 1, maxLength: maxLength + 8 }));
  if (pattern !== undefined) {
    const regex = patternRegExp(pattern);
    out.push(bf(fc.string({ maxLength: 10 }), (v) => !regex.test(v)));
  }
  if (format !== undefined && FORMATS.has(format)) out.push(fc.constantFrom('', 'not a ' + format, '2024-13-45', '999.1.1.1', ':::1::g', 'a b'));

  // Arrays.
  const minItems = readCount(s, 'minItems', pointer);
  const maxItems = readCount(s, 'maxItems', pointer);
  const items = readSchema(s, 'items', pointer);
  const prefix = readSchemaArray(s, 'prefixItems', pointer) ?? [];
  const validItem = items === undefined ? freeJson(doc) : (tryValid(doc, items, at('items')) ?? freeJson(doc));
  if (minItems !== undefined && minItems > 0) out.push(fc.array(validItem, { maxLength: minItems - 1 }));
  if (maxItems !== undefined) out.push(fc.array(validItem, { minLength: maxItems + 1, maxLength: maxItems + 3 }));
  if (valid !== undefined) {
    const asArray = bf(valid, Array.isArray) as fc.Arbitrary<unknown[]>;
    if (s.uniqueItems === true) out.push(bf(asArray, (a) => a.length > 0).map((a) => [...a, a[0]]));
    if (items !== undefined) {
      const bad = deeper(items, at('items'));
      if (bad !== undefined) out.push(fc.tuple(asArray, bad).map(([a, x]) => [...a, x]));
    }
    for (const [i, sub] of prefix.entries()) {
      const bad = deeper(sub, at('prefixItems', i));
      if (bad !== undefined) out.push(fc.tuple(asArray, bad).map(([a, x]) => [...a.slice(0, i), ...Array<null>(Math.max(0, i - a.length)).fill(null), x, ...a.slice(i + 1)]));
    }
    const contains = readSchema(s, 'contains', pointer);
    if (contains !== undefined) out.push(asArray.map((a) => a.filter((v) => !isValid(doc, contains, v, at('contains')))));
  }

  // Objects.
  const properties = readSchemaMap(s, 'properties', pointer) ?? {};
  const required = readStrings(s, 'required', pointer) ?? [];
  const additional = readSchema(s, 'additionalProperties', pointer);
  const asObject = valid === undefined ? undefined : (bf(valid, isSchemaObject) as fc.Arbitrary<Record<string, unknown>>);
  if (required.length > 0) {
    const base = asObject ?? fc.constant({});
    out.push(fc.tuple(base, fc.constantFrom(...required)).map(([o, k]) => Object.fromEntries(Object.entries(o).filter(([key]) => key !== k))));
  }
  if (asObject !== undefined) {
    const extraKey = fc.string({ minLength: 1, maxLength: 6 }).map((k) => `x_${k}`);
    if (additional === false) out.push(fc.tuple(asObject, extraKey, fc.integer()).map(([o, k, v]) => Object.fromEntries([...Object.entries(o), [k, v]])));
    else if (additional !== undefined) {
      const bad = deeper(additional, at('additionalProperties'));
      if (bad !== undefined) out.push(fc.tuple(asObject, extraKey, bad).map(([o, k, v]) => Object.fromEntries([...Object.entries(o), [k, v]])));
    }
    for (const [key, sub] of Object.entries(properties)) {
      const bad = deeper(sub, at('properties', key));
      if (bad !== undefined) out.push(fc.tuple(asObject, bad).map(([o, v]) => Object.fromEntries([...Object.entries(o).filter(([k]) => k !== key), [key, v]])));
    }
    const maxProperties = readCount(s, 'maxProperties', pointer);
    if (maxProperties !== undefined) {
      const extras = fc.uniqueArray(extraKey, { minLength: maxProperties + 1, maxLength: maxProperties + 2 });
      out.push(fc.tuple(asObject, extras).map(([o, ks]) => Object.fromEntries([...Object.entries(o), ...ks.map((k) => [k, 0] as const)])));
    }
    const minProperties = readCount(s, 'minProperties', pointer);
    if (minProperties !== undefined && minProperties > 0) out.push(asObject.map((o) => Object.fromEntries(Object.entries(o).slice(0, minProperties - 1))));
    const names = readSchema(s, 'propertyNames', pointer);
    const badName = names === undefined ? undefined : deeper(names, at('propertyNames'));
    if (badName !== undefined) {
      const key = bf(badName, (k) => typeof k === 'string') as fc.Arbitrary<string>;
      out.push(fc.tuple(asObject, key).map(([o, k]) => Object.fromEntries([...Object.entries(o), [k, 0]])));
    }
    if (isSchemaObject(s.dependentRequired)) {
      for (const [key, needs] of Object.entries(s.dependentRequired)) {
        if (!Array.isArray(needs) || needs.length === 0) continue;
        const value = tryValid(doc, properties[key] ?? true, at('properties', key)) ?? fc.constant(0);
        out.push(fc.tuple(asObject, value).map(([o, v]) => Object.fromEntries([...Object.entries(o).filter(([k]) => !needs.includes(k)), [key, v]])));
      }
    }
  }

  // Applicators: break a member, or match a negation.
  const negated = readSchema(s, 'not', pointer);
  if (negated !== undefined) {
    const matching = tryValid(doc, negated, at('not'));
    if (matching !== undefined) out.push(matching);
  }
  for (const keyword of ['anyOf', 'oneOf']) {
    for (const [i, member] of (readSchemaArray(s, keyword, pointer) ?? []).entries()) {
      const bad = deeper(member, at(keyword, i));
      if (bad !== undefined) out.push(bad);
      if (keyword === 'oneOf') {
        const inMember = tryValid(doc, member, at(keyword, i));
        if (inMember !== undefined) out.push(inMember);
      }
    }
  }
  const condition = readSchema(s, 'if', pointer);
  if (condition !== undefined) {
    for (const [branch, test] of [['then', true], ['else', false]] as const) {
      const sub = readSchema(s, branch, pointer);
      const bad = sub === undefined ? undefined : deeper(sub, at(branch));
      if (bad !== undefined) out.push(bf(bad, (v) => isValid(doc, condition, v, at('if')) === test));
    }
  }
  for (const residual of residuals) out.push(...mutations(doc, residual.schema, residual.pointer, depth + 1));
  return out;
}

/** Keeps the mutations that break `schema` at least once in a seeded sample, each filtered to the values that do. */
export function screenedMutations(doc: SchemaDocument, schema: JsonSchema, candidates: readonly fc.Arbitrary<unknown>[]): fc.Arbitrary<unknown>[] {
  const invalid = (v: unknown): boolean => !isValid(doc, schema, v);
  return candidates.flatMap((arb, i) => {
    let samples: unknown[];
    try {
      samples = fc.sample(arb, { numRuns: SCREEN_SAMPLES, seed: 0x5eed + i });
    } catch {
      return []; // a mutation whose own filter gives up is no use here
    }
    if (!samples.some(invalid)) return [];
    return [boundedFilter(arb, invalid, doc.options.maxFilterRejections, '', 'invalid')];
  });
}
