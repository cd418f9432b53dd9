/**
 * The shapes a JSON Schema takes once it crosses the wire. A tool's `inputSchema` is untrusted
 * data, so every keyword is `unknown` here and read through the checked accessors of `read.ts`.
 */

/** A schema object: keywords by name, values not yet trusted. */
export type SchemaObject = { readonly [keyword: string]: unknown };

/** A JSON Schema: an object, or `true` (accepts everything) / `false` (accepts nothing). */
export type JsonSchema = boolean | SchemaObject;

/** The simple types of JSON Schema's `type` keyword. */
export type SimpleType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

export const SIMPLE_TYPES: readonly SimpleType[] = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

/** Which spec decides keywords whose meaning changed: `$ref` siblings, tuple `items`, `dependencies`. */
export type Dialect = '2020-12' | 'draft-07';

/** Tuning of the generated values; every field has a default (see `defaults` in `options.ts`). */
export interface SchemaArbitraryOptions {
  /** The dialect when the root has no `$schema` (MCP's default is 2020-12). */
  readonly dialect?: Dialect;
  /** How many times one `$ref` target may be entered on one path before that branch is cut (default 3). */
  readonly maxRecursion?: number;
  /** Length cap for arrays without `maxItems` (default 5): fuzzing wants many small inputs. */
  readonly defaultMaxItems?: number;
  /** Most properties added beyond the declared ones where the schema allows them (default 2). */
  readonly maxExtraProperties?: number;
  /** Depth of free JSON values (items of `{}` and `true`) (default 2). */
  readonly freeDepth?: number;
  /** Candidates a filter may reject in a row before it fails with `SchemaArbitraryError` (default 1000). */
  readonly maxFilterRejections?: number;
  /** `'ignore'` (default: the spec treats unknown keywords as annotations) or `'throw'`. */
  readonly unknownKeywords?: 'ignore' | 'throw';
}
