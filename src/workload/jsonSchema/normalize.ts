/**
 * Flattening a subschema for generation: `$ref` targets and `allOf` members are merged into one
 * canonical object (see `merge.ts`); what cannot be merged is kept as residual schemas that the
 * generated values are filtered with. `$ref` recursion is counted per target along the path, so
 * a recursive schema is cut at `maxRecursion` by an `unsatisfiable` error that optional
 * branches (an absent property, an empty array, another `anyOf` member) absorb.
 */
import type { SchemaDocument } from './document.ts';
import { SchemaArbitraryError } from './error.ts';
import { mergeSchemas } from './merge.ts';
import { childPointer } from './pointer.ts';
import { readSchemaArray, readString } from './read.ts';
import type { JsonSchema, SchemaObject } from './types.ts';

/** How many times each `$ref` target has been entered on the current path. */
export type RefCounts = ReadonlyMap<string, number>;

export interface Residual {
  readonly schema: JsonSchema;
  readonly pointer: string;
}

export interface Flat {
  /** Canonical, without `$ref` and `allOf`. */
  readonly schema: SchemaObject;
  readonly residuals: readonly Residual[];
  /** The recursion counts for the subschemas of `schema`. */
  readonly refs: RefCounts;
}

/** `schema` ∧ every `extra` member (each with its own pointer: the branch of an anyOf, ...), flattened. */
export function normalize(doc: SchemaDocument, schema: JsonSchema, pointer: string, refs: RefCounts, extra: readonly Residual[] = []): Flat {
  if (extra.length > 0) {
    const [first, ...others] = extra as [Residual, ...Residual[]];
    const base = normalize(doc, schema, pointer, refs);
    const member = normalize(doc, first.schema, first.pointer, refs, others);
    const merged = mergeSchemas(base.schema, member.schema);
    const residuals = [...base.residuals, ...member.residuals, ...(merged.residual === undefined ? [] : [{ schema: merged.residual, pointer: first.pointer }])];
    const counts = new Map(base.refs);
    for (const [target, n] of member.refs) counts.set(target, Math.max(n, counts.get(target) ?? 0));
    return { schema: merged.schema, residuals, refs: counts };
  }
  if (schema === true) return { schema: {}, residuals: [], refs };
  if (schema === false) throw new SchemaArbitraryError('unsatisfiable', pointer, 'false', 'the schema `false` accepts no value');
  const canonical = doc.canonical(schema, pointer);
  const { $ref: _ref, allOf: _allOf, ...rest } = canonical;
  let flat: SchemaObject = rest;
  const residuals: Residual[] = [];
  let counts = refs;
  const absorb = (member: Flat, where: string): void => {
    const merged = mergeSchemas(flat, member.schema);
    flat = merged.schema;
    if (merged.residual !== undefined) residuals.push({ schema: merged.residual, pointer: where });
    residuals.push(...member.residuals);
    for (const [target, n] of member.refs) if ((counts.get(target) ?? 0) < n) counts = new Map(counts).set(target, n);
  };
  const ref = readString(canonical, '$ref', pointer);
  if (ref !== undefined) {
    const target = doc.resolve(ref, pointer);
    const seen = refs.get(target.pointer) ?? 0;
    if (seen >= doc.options.maxRecursion) {
      throw new SchemaArbitraryError('unsatisfiable', pointer, '$ref', `recursion into ${JSON.stringify(ref)} cut at depth ${doc.options.maxRecursion} (maxRecursion) and no shallower value exists`);
    }
    absorb(normalize(doc, target.schema, target.pointer, new Map(refs).set(target.pointer, seen + 1)), pointer);
  }
  for (const [i, member] of (readSchemaArray(canonical, 'allOf', pointer) ?? []).entries()) {
    const where = childPointer(pointer, 'allOf', i);
    absorb(normalize(doc, member, where, refs), where);
  }
  return { schema: flat, residuals, refs: counts };
}
