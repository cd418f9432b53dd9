/**
 * Objects: every key the schema names (`properties`, `required`, `dependentRequired`) gets a
 * value generator and, unless required, a presence flag that shrinks to "absent"; presence is
 * closed under `dependentRequired` constructively. Extra keys come from `patternProperties`
 * (fc.stringMatching) and, where `additionalProperties` allows, from `propertyNames` or free
 * text. Only the property counts (`minProperties`/`maxProperties`) are filtered.
 */
import fc from 'fast-check';
import { SchemaArbitraryError } from './error.ts';
import { childPointer } from './pointer.ts';
import { readCount, readSchema, readSchemaMap, readStrings, isSchemaObject } from './read.ts';
import type { JsonSchema, SchemaObject } from './types.ts';
import { patternRegExp } from './validate.ts';
import type { Builder } from './builder.ts';

type Entry = readonly [string, unknown];

const own = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

export function objectArbitrary(builder: Builder, s: SchemaObject, pointer: string): fc.Arbitrary<Record<string, unknown>> {
  const properties = readSchemaMap(s, 'properties', pointer) ?? {};
  const patterns = Object.entries(readSchemaMap(s, 'patternProperties', pointer) ?? {});
  const additional = readSchema(s, 'additionalProperties', pointer) ?? true;
  const propertyNames = readSchema(s, 'propertyNames', pointer);
  const required = readStrings(s, 'required', pointer) ?? [];
  const minProperties = readCount(s, 'minProperties', pointer) ?? 0;
  const maxProperties = readCount(s, 'maxProperties', pointer);
  const dependentRequired: Record<string, readonly string[]> = {};
  if (s.dependentRequired !== undefined) {
    if (!isSchemaObject(s.dependentRequired)) throw new SchemaArbitraryError('invalid-schema', pointer, 'dependentRequired', 'expected an object');
    for (const key of Object.keys(s.dependentRequired)) dependentRequired[key] = readStrings(s.dependentRequired, key, childPointer(pointer, 'dependentRequired')) ?? [];
  }
  const nameOk = (key: string): boolean => propertyNames === undefined || builder.isValid(propertyNames, key, childPointer(pointer, 'propertyNames'));
  const matchingPatterns = (key: string): [string, JsonSchema][] => patterns.filter(([p]) => patternRegExp(p).test(key));
  /** Every subschema a key's value must satisfy, and where the first of them lives. */
  const valueSchema = (key: string): [JsonSchema, string] => {
    const all: JsonSchema[] = [];
    let where = childPointer(pointer, 'additionalProperties');
    if (own(properties, key)) {
      all.push(properties[key] as JsonSchema);
      where = childPointer(pointer, 'properties', key);
    }
    for (const [p, sub] of matchingPatterns(key)) {
      if (all.length === 0) where = childPointer(pointer, 'patternProperties', p);
      all.push(sub);
    }
    if (all.length === 0) all.push(additional);
    return [all.length === 1 ? (all[0] as JsonSchema) : { allOf: all }, where];
  };

  // Named keys: declared, required, or named by dependentRequired.
  const named = [...new Set([...Object.keys(properties), ...required, ...Object.entries(dependentRequired).flatMap(([k, v]) => [k, ...v])])];
  const available = new Map<string, fc.Arbitrary<unknown>>();
  for (const key of named) {
    const isRequired = required.includes(key);
    if (!nameOk(key)) {
      if (isRequired) throw new SchemaArbitraryError('unsatisfiable', pointer, 'propertyNames', `required property ${JSON.stringify(key)} is not a valid name`);
      continue;
    }
    const [schema, where] = valueSchema(key);
    const arb = isRequired ? builder.generate(schema, where) : builder.tryGenerate(schema, where);
    if (arb !== undefined) available.set(key, arb);
  }
  // A key whose dependencies cannot be present cannot be present either.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [key, needs] of Object.entries(dependentRequired)) {
      if (available.has(key) && needs.some((k) => !available.has(k))) {
        if (required.includes(key)) throw new SchemaArbitraryError('unsatisfiable', pointer, 'dependentRequired', `required ${JSON.stringify(key)} depends on a property that cannot be present`);
        available.delete(key);
        changed = true;
      }
    }
  }
  const keys = [...available.keys()];
  const optional = keys.filter((k) => !required.includes(k));
  if (maxProperties !== undefined && required.length > maxProperties) {
    throw new SchemaArbitraryError('unsatisfiable', pointer, 'maxProperties', `${required.length} required properties > maxProperties ${maxProperties}`);
  }

  // Extra keys: from patternProperties, then from additionalProperties.
  const isNamed = (key: string): boolean => named.includes(key);
  const sources: fc.Arbitrary<Entry>[] = [];
  for (const [p, sub] of patterns) {
    let keyArb: fc.Arbitrary<string>;
    try {
      keyArb = fc.stringMatching(patternRegExp(p));
    } catch {
      continue; // a pattern fast-check cannot generate only loses extra keys, which are optional
    }
    const where = childPointer(pointer, 'patternProperties', p);
    const valueArb = builder.tryGenerate(sub, where);
    if (valueArb === undefined) continue;
    const entry = fc.tuple(keyArb, valueArb);
    sources.push(builder.filter(entry, ([k, v]) => !isNamed(k) && nameOk(k) && builder.isValid(valueSchema(k)[0], v, where), where, 'patternProperties'));
  }
  const additionalArb = builder.tryGenerate(additional, childPointer(pointer, 'additionalProperties'));
  if (additionalArb !== undefined) {
    const names = propertyNames === undefined ? fc.string({ maxLength: 8 }) : builder.tryGenerate({ allOf: [{ type: 'string' }, propertyNames] }, childPointer(pointer, 'propertyNames'));
    if (names !== undefined) {
      const entry = fc.tuple(names as fc.Arbitrary<string>, additionalArb);
      sources.push(builder.filter(entry, ([k]) => !isNamed(k) && nameOk(k) && matchingPatterns(k).length === 0, childPointer(pointer, 'additionalProperties'), 'additionalProperties'));
    }
  }
  const extrasNeeded = Math.max(0, minProperties - keys.length);
  if (extrasNeeded > 0 && sources.length === 0) {
    throw new SchemaArbitraryError('unsatisfiable', pointer, 'minProperties', `minProperties ${minProperties} but at most ${keys.length} properties are allowed`);
  }
  const maxExtra = Math.max(extrasNeeded, Math.min(builder.doc.options.maxExtraProperties, maxProperties ?? Infinity));
  const extras: fc.Arbitrary<Entry[]> =
    sources.length === 0 || maxExtra === 0 ? fc.constant([]) : fc.uniqueArray(fc.oneof(...sources), { minLength: extrasNeeded, maxLength: maxExtra, selector: ([k]) => k });

  const arb = fc
    .tuple(fc.tuple(...keys.map((k) => available.get(k) as fc.Arbitrary<unknown>)), fc.tuple(...optional.map(() => fc.boolean())), extras)
    .map(([values, flags, more]) => {
      const present = new Set([...required, ...optional.filter((_, i) => flags[i])]);
      for (let changed = true; changed; ) {
        changed = false;
        for (const key of [...present]) for (const need of dependentRequired[key] ?? []) if (!present.has(need)) { present.add(need); changed = true; }
      }
      const entries: Entry[] = keys.flatMap((k, i) => (present.has(k) ? [[k, values[i]] as const] : []));
      return Object.fromEntries([...entries, ...more]) as Record<string, unknown>;
    });
  const countOk = (o: object): boolean => {
    const n = Object.keys(o).length;
    return n >= minProperties && (maxProperties === undefined || n <= maxProperties);
  };
  return minProperties > required.length || maxProperties !== undefined ? builder.filter(arb, countOk, pointer, 'minProperties') : arb;
}
