/**
 * What the per-type generators (numbers, strings, arrays, objects) get from the dispatcher. They
 * receive it as a value rather than importing `generate.ts`, which keeps the import graph free
 * of cycles (`npm run lint:layers` forbids them).
 */
import type fc from 'fast-check';
import type { SchemaDocument } from './document.ts';
import type { JsonSchema } from './types.ts';

export interface Builder {
  readonly doc: SchemaDocument;
  /** The arbitrary of a subschema; throws `SchemaArbitraryError` (`unsatisfiable` when it has no values). */
  readonly generate: (schema: JsonSchema, pointer: string) => fc.Arbitrary<unknown>;
  /** Like `generate`, but undefined when the subschema has no values (an optional branch to drop). */
  readonly tryGenerate: (schema: JsonSchema, pointer: string) => fc.Arbitrary<unknown> | undefined;
  readonly isValid: (schema: JsonSchema, value: unknown, pointer: string) => boolean;
  readonly filter: <T>(arb: fc.Arbitrary<T>, predicate: (value: T) => boolean, pointer: string, keyword: string) => fc.Arbitrary<T>;
  /** Free JSON values: what `true` and `{}` accept. */
  readonly anyJson: fc.Arbitrary<unknown>;
}
