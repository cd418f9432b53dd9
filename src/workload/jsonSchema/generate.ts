/**
 * The dispatcher: a subschema → its arbitrary. After flattening (`normalize.ts`) it takes, in
 * order: `enum` (the listed values that pass the rest of the schema), the applicators that
 * need a choice or a filter (`anyOf`, `oneOf`, `if`, `not`, `dependentSchemas`: each is
 * removed and the rest regenerated per branch), then one generator per allowed type.
 */
import fc from 'fast-check';
import { arrayArbitrary } from './arrays.ts';
import { boundedFilter } from './boundedFilter.ts';
import type { Builder } from './builder.ts';
import type { SchemaDocument } from './document.ts';
import { SchemaArbitraryError, isUnsatisfiable } from './error.ts';
import { normalize, type RefCounts, type Residual } from './normalize.ts';
import { integerArbitrary, numberArbitrary } from './numbers.ts';
import { objectArbitrary } from './objects.ts';
import { childPointer } from './pointer.ts';
import { isSchemaObject, readSchema, readSchemaArray, readSchemaMap } from './read.ts';
import { stringArbitrary } from './strings.ts';
import { SIMPLE_TYPES, type JsonSchema, type SchemaObject, type SimpleType } from './types.ts';
import { isValid } from './validate.ts';

/** The arbitrary of `schema` (a subschema of `doc` at `pointer`), with `refs` recursion counts on the path. */
export function arbitraryOf(doc: SchemaDocument, schema: JsonSchema, pointer: string, refs: RefCounts, extra: readonly Residual[] = []): fc.Arbitrary<unknown> {
  const flat = normalize(doc, schema, pointer, refs, extra);
  const arb = flatArbitrary(doc, flat.schema, pointer, flat.refs);
  if (flat.residuals.length === 0) return arb;
  const ok = (v: unknown): boolean => flat.residuals.every((r) => isValid(doc, r.schema, v, r.pointer));
  return boundedFilter(arb, ok, doc.options.maxFilterRejections, pointer, 'allOf');
}

function tryArbitraryOf(doc: SchemaDocument, schema: JsonSchema, pointer: string, refs: RefCounts, extra: readonly Residual[] = []): fc.Arbitrary<unknown> | undefined {
  try {
    return arbitraryOf(doc, schema, pointer, refs, extra);
  } catch (error) {
    if (isUnsatisfiable(error)) return undefined;
    throw error;
  }
}

export function freeJson(doc: SchemaDocument): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: doc.options.freeDepth });
}

function builderFor(doc: SchemaDocument, refs: RefCounts): Builder {
  return {
    doc,
    generate: (schema, pointer) => arbitraryOf(doc, schema, pointer, refs),
    tryGenerate: (schema, pointer) => tryArbitraryOf(doc, schema, pointer, refs),
    isValid: (schema, value, pointer) => isValid(doc, schema, value, pointer),
    filter: (arb, predicate, pointer, keyword) => boundedFilter(arb, predicate, doc.options.maxFilterRejections, pointer, keyword),
    anyJson: freeJson(doc),
  };
}

function without(s: SchemaObject, ...keywords: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...s };
  for (const k of keywords) delete out[k];
  return out;
}

function flatArbitrary(doc: SchemaDocument, s: SchemaObject, pointer: string, refs: RefCounts): fc.Arbitrary<unknown> {
  const b = builderFor(doc, refs);
  const at = (...tokens: (string | number)[]): string => childPointer(pointer, ...tokens);
  if (Object.keys(s).length === 0) return b.anyJson;

  if (Array.isArray(s.enum)) {
    const rest = without(s, 'enum');
    const values = s.enum.filter((v) => isValid(doc, rest, v, pointer));
    if (values.length === 0) throw new SchemaArbitraryError('unsatisfiable', pointer, 'enum', 'no listed value satisfies the rest of the schema');
    return fc.constantFrom(...values);
  }

  const anyOf = readSchemaArray(s, 'anyOf', pointer);
  if (anyOf !== undefined) {
    const rest = without(s, 'anyOf');
    const branches = anyOf.flatMap((branch, i) => tryArbitraryOf(doc, rest, pointer, refs, [{ schema: branch, pointer: at('anyOf', i) }]) ?? []);
    if (branches.length === 0) throw new SchemaArbitraryError('unsatisfiable', pointer, 'anyOf', 'no member is satisfiable together with the rest of the schema');
    return fc.oneof(...branches);
  }

  const oneOf = readSchemaArray(s, 'oneOf', pointer);
  if (oneOf !== undefined) {
    const rest = without(s, 'oneOf');
    const branches = oneOf.flatMap((branch, i) => {
      const arb = tryArbitraryOf(doc, rest, pointer, refs, [{ schema: branch, pointer: at('oneOf', i) }]);
      if (arb === undefined) return [];
      const onlyThis = (v: unknown): boolean => oneOf.every((other, j) => j === i || !isValid(doc, other, v, at('oneOf', j)));
      return [b.filter(arb, onlyThis, at('oneOf', i), 'oneOf')];
    });
    if (branches.length === 0) throw new SchemaArbitraryError('unsatisfiable', pointer, 'oneOf', 'no member is satisfiable together with the rest of the schema');
    return fc.oneof(...branches);
  }

  const condition = readSchema(s, 'if', pointer);
  if (condition !== undefined) {
    const rest = without(s, 'if', 'then', 'else');
    const then = readSchema(s, 'then', pointer) ?? true;
    const otherwise = readSchema(s, 'else', pointer) ?? true;
    const whenTrue = tryArbitraryOf(doc, rest, pointer, refs, [{ schema: condition, pointer: at('if') }, { schema: then, pointer: at('then') }]);
    const elseArb = tryArbitraryOf(doc, rest, pointer, refs, [{ schema: otherwise, pointer: at('else') }]);
    const whenFalse = elseArb && b.filter(elseArb, (v) => !isValid(doc, condition, v, at('if')), at('else'), 'if');
    const branches = [whenTrue, whenFalse].filter((x): x is fc.Arbitrary<unknown> => x !== undefined);
    if (branches.length === 0) throw new SchemaArbitraryError('unsatisfiable', pointer, 'if', 'neither the then nor the else branch is satisfiable');
    return branches.length === 1 ? (branches[0] as fc.Arbitrary<unknown>) : fc.oneof(...branches);
  }

  const negated = readSchema(s, 'not', pointer);
  if (negated !== undefined) {
    const rest = without(s, 'not');
    // `not: {type: ...}` narrows the types constructively; the filter still decides.
    if (isSchemaObject(negated) && Object.keys(negated).length === 1 && negated.type !== undefined) {
      const banned = typeof negated.type === 'string' ? [negated.type] : Array.isArray(negated.type) ? (negated.type as string[]) : [];
      const allowed = ((rest.type as SimpleType[] | undefined) ?? SIMPLE_TYPES).filter((t) => !banned.includes(t) && !(t === 'integer' && banned.includes('number')));
      rest.type = allowed;
    }
    const arb = arbitraryOf(doc, rest, pointer, refs);
    return b.filter(arb, (v) => !isValid(doc, negated, v, at('not')), pointer, 'not');
  }

  const dependentSchemas = readSchemaMap(s, 'dependentSchemas', pointer);
  if (dependentSchemas !== undefined) {
    const arb = arbitraryOf(doc, without(s, 'dependentSchemas'), pointer, refs);
    return b.filter(arb, (v) => isValid(doc, { dependentSchemas }, v, pointer), pointer, 'dependentSchemas');
  }

  return typedArbitrary(b, s, pointer);
}

/** One generator per type the schema allows (all of them when it has no `type`), unsatisfiable ones dropped. */
function typedArbitrary(b: Builder, s: SchemaObject, pointer: string): fc.Arbitrary<unknown> {
  let types = (s.type as SimpleType[] | undefined) ?? SIMPLE_TYPES;
  if (types.includes('number')) types = types.filter((t) => t !== 'integer');
  if (types.length === 0) throw new SchemaArbitraryError('unsatisfiable', pointer, 'type', 'no type is allowed');
  const arbs: fc.Arbitrary<unknown>[] = [];
  const errors: SchemaArbitraryError[] = [];
  for (const type of types) {
    try {
      arbs.push(typeArbitrary(b, s, type, pointer));
    } catch (error) {
      if (!isUnsatisfiable(error)) throw error;
      errors.push(error);
    }
  }
  if (arbs.length === 0) {
    if (errors.length === 1) throw errors[0];
    throw new SchemaArbitraryError('unsatisfiable', pointer, 'type', `no allowed type has values: ${errors.map((e) => e.message).join('; ')}`);
  }
  return arbs.length === 1 ? (arbs[0] as fc.Arbitrary<unknown>) : fc.oneof(...arbs);
}

function typeArbitrary(b: Builder, s: SchemaObject, type: SimpleType, pointer: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArbitrary(b, s, pointer);
    case 'number':
      return numberArbitrary(b, s, pointer);
    case 'string':
      return stringArbitrary(b, s, pointer);
    case 'array':
      return arrayArbitrary(b, s, pointer);
    case 'object':
      return objectArbitrary(b, s, pointer);
  }
}
