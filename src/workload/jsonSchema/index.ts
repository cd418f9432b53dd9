/**
 * JSON Schema → fast-check arbitraries, for fuzzing a server's tools from their `inputSchema`:
 * `schemaArbitrary` for values the schema accepts, `invalidArbitrary` for values it rejects.
 * docs/json-schema-arbitraries.md lists the keywords, the filters and their limits.
 */
import fc from 'fast-check';
import { SchemaDocument } from './document.ts';
import { SchemaArbitraryError } from './error.ts';
import { arbitraryOf, freeJson } from './generate.ts';
import { mutations, screenedMutations } from './invalid.ts';
import { isSchema } from './read.ts';
import type { JsonSchema, SchemaArbitraryOptions } from './types.ts';
import { isValid } from './validate.ts';

export { SchemaArbitraryError, type SchemaArbitraryErrorKind } from './error.ts';
export type { Dialect, JsonSchema, SchemaArbitraryOptions, SchemaObject, SimpleType } from './types.ts';

function documentOf(schema: unknown, options: SchemaArbitraryOptions | undefined): SchemaDocument {
  if (!isSchema(schema)) throw new SchemaArbitraryError('invalid-schema', '', 'schema', 'a schema is an object or a boolean');
  return new SchemaDocument(schema, options);
}

/**
 * Values valid against `schema`. Throws `SchemaArbitraryError` right away for unsupported
 * keywords and schemas it can tell are unsatisfiable; a filter that cannot find values throws
 * it while generating (`filter-exhausted`). Every value is checked against the schema before it
 * is handed out (`internal` if that ever fails), so an invalid value is never produced silently.
 */
export function schemaArbitrary(schema: JsonSchema, options?: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  const doc = documentOf(schema, options);
  return arbitraryOf(doc, schema, '', new Map()).map((value) => {
    if (!isValid(doc, schema, value)) throw new SchemaArbitraryError('internal', '', 'schema', `generated ${JSON.stringify(value)}, which the schema rejects`);
    return value;
  });
}

/**
 * Values invalid against `schema` (rogue inputs), undefined when the schema accepts every value
 * (`true`, `{}`, only annotations). Each value breaks the schema; most break one keyword of
 * an otherwise valid value.
 */
export function invalidArbitrary(schema: JsonSchema, options?: SchemaArbitraryOptions): fc.Arbitrary<unknown> | undefined {
  const doc = documentOf(schema, options);
  if (schema === true) return undefined;
  if (schema === false) return freeJson(doc);
  const candidates = screenedMutations(doc, schema, [...mutations(doc, schema, '', 0), freeJson(doc)]);
  // No mutation ever broke the schema: it accepts everything (or nearly: see the docs).
  return candidates.length === 0 ? undefined : fc.oneof(...candidates);
}
