/**
 * Arrays: a prefix of `prefixItems` values cut at a generated length, then `items` values;
 * `uniqueItems` through fc.uniqueArray (JSON equality); `contains` by generating the matching
 * elements on purpose (`items` ∧ `contains`) rather than hoping for them. Lengths shrink first,
 * so failing arrays shrink toward the shortest allowed.
 */
import fc from 'fast-check';
import { SchemaArbitraryError } from './error.ts';
import { canonicalKey } from './json.ts';
import { childPointer } from './pointer.ts';
import { readCount, readSchema, readSchemaArray } from './read.ts';
import type { JsonSchema, SchemaObject } from './types.ts';
import type { Builder } from './builder.ts';

const unique = (values: readonly unknown[]): boolean => new Set(values.map(canonicalKey)).size === values.length;

export function arrayArbitrary(builder: Builder, s: SchemaObject, pointer: string): fc.Arbitrary<unknown[]> {
  const prefix = readSchemaArray(s, 'prefixItems', pointer) ?? [];
  const items = readSchema(s, 'items', pointer) ?? true;
  const minItems = readCount(s, 'minItems', pointer) ?? 0;
  const declaredMax = readCount(s, 'maxItems', pointer);
  const uniqueItems = s.uniqueItems === true;
  const contains = readSchema(s, 'contains', pointer);
  const minContains = readCount(s, 'minContains', pointer) ?? 1;
  const maxContains = readCount(s, 'maxContains', pointer);

  // Items beyond the prefix: none when `items` has no values (false, or cut by recursion).
  const itemArb = builder.tryGenerate(items, childPointer(pointer, 'items'));
  let maxItems = declaredMax ?? Math.max(minItems, prefix.length) + builder.doc.options.defaultMaxItems;
  if (itemArb === undefined) maxItems = Math.min(maxItems, prefix.length);
  // A prefix slot without values caps the length before it.
  const prefixArbs: fc.Arbitrary<unknown>[] = [];
  for (const [i, sub] of prefix.entries()) {
    const arb = builder.tryGenerate(sub, childPointer(pointer, 'prefixItems', i));
    if (arb === undefined) {
      maxItems = Math.min(maxItems, i);
      break;
    }
    prefixArbs.push(arb);
  }
  if (minItems > maxItems) {
    throw new SchemaArbitraryError('unsatisfiable', pointer, declaredMax !== undefined && minItems > declaredMax ? 'maxItems' : 'items', `at least ${minItems} items needed, at most ${maxItems} possible`);
  }

  const lengthOk = (a: readonly unknown[]): boolean => a.length >= minItems && a.length <= maxItems;
  if (contains !== undefined && (minContains > 0 || maxContains !== undefined)) {
    return containsArbitrary(builder, { prefix, items, itemArb, contains, minContains, maxContains, minItems, maxItems, uniqueItems }, pointer);
  }
  if (itemArb === undefined || prefixArbs.length >= maxItems) {
    const arb = fc.tuple(fc.integer({ min: minItems, max: Math.min(prefixArbs.length, maxItems) }), fc.tuple(...prefixArbs)).map(([cut, values]) => values.slice(0, cut));
    return uniqueItems ? builder.filter(arb, unique, pointer, 'uniqueItems') : arb;
  }
  const restMin = Math.max(0, minItems - prefixArbs.length);
  const restMax = maxItems - prefixArbs.length;
  const rest = uniqueItems
    ? fc.uniqueArray(itemArb, { minLength: restMin, maxLength: restMax, selector: canonicalKey })
    : fc.array(itemArb, { minLength: restMin, maxLength: restMax });
  if (prefixArbs.length === 0) return rest;
  const arb = fc
    .tuple(fc.integer({ min: Math.min(minItems, prefixArbs.length), max: prefixArbs.length }), fc.tuple(...prefixArbs), rest)
    .map(([cut, values, more]) => (cut < values.length ? values.slice(0, cut) : [...values, ...more]));
  return uniqueItems ? builder.filter(arb, (a) => unique(a) && lengthOk(a), pointer, 'uniqueItems') : arb;
}

interface ContainsShape {
  readonly prefix: readonly JsonSchema[];
  readonly items: JsonSchema;
  readonly itemArb: fc.Arbitrary<unknown> | undefined;
  readonly contains: JsonSchema;
  readonly minContains: number;
  readonly maxContains: number | undefined;
  readonly minItems: number;
  readonly maxItems: number;
  readonly uniqueItems: boolean;
}

/**
 * `contains` with `minContains`/`maxContains`: k matching elements (from `items` ∧ `contains`)
 * followed by elements that do not match (filtered when a maximum makes it matter). With
 * `prefixItems` the positions are fixed, so it falls back to filtering the plain array.
 */
function containsArbitrary(builder: Builder, c: ContainsShape, pointer: string): fc.Arbitrary<unknown[]> {
  const where = childPointer(pointer, 'contains');
  const matches = (v: unknown): boolean => builder.isValid(c.contains, v, where);
  const countOk = (a: readonly unknown[]): boolean => {
    const n = a.filter(matches).length;
    return n >= c.minContains && (c.maxContains === undefined || n <= c.maxContains);
  };
  if (c.maxContains !== undefined && c.minContains > c.maxContains) {
    throw new SchemaArbitraryError('unsatisfiable', pointer, 'maxContains', `minContains ${c.minContains} > maxContains ${c.maxContains}`);
  }
  if (c.minContains > c.maxItems) throw new SchemaArbitraryError('unsatisfiable', pointer, 'minContains', `minContains ${c.minContains} > ${c.maxItems} items possible`);
  if (c.prefix.length > 0) {
    const plain = arrayArbitrary(builder, { prefixItems: c.prefix, items: c.items, minItems: c.minItems, maxItems: c.maxItems, uniqueItems: c.uniqueItems }, pointer);
    return builder.filter(plain, countOk, pointer, 'contains');
  }
  const matching = builder.generate({ allOf: [c.items, c.contains] }, where);
  const maxMatching = Math.min(c.maxContains ?? c.maxItems, c.maxItems);
  const others = c.itemArb === undefined ? undefined : c.maxContains === undefined ? c.itemArb : builder.filter(c.itemArb, (v) => !matches(v), pointer, 'maxContains');
  const array = (arb: fc.Arbitrary<unknown>, minLength: number, maxLength: number): fc.Arbitrary<unknown[]> =>
    c.uniqueItems ? fc.uniqueArray(arb, { minLength, maxLength, selector: canonicalKey }) : fc.array(arb, { minLength, maxLength });
  const arb = fc
    .tuple(array(matching, c.minContains, maxMatching), others === undefined ? fc.constant([]) : array(others, 0, c.maxItems - c.minContains))
    .map(([hits, rest]) => [...hits, ...rest]);
  return builder.filter(arb, (a) => a.length >= c.minItems && a.length <= c.maxItems && (!c.uniqueItems || unique(a)) && countOk(a), pointer, 'contains');
}
