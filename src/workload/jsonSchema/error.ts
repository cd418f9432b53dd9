/**
 * The one error of the schema converter. It names the JSON pointer of the subschema and the
 * keyword at fault, so a user can find what to fix in their tool's `inputSchema`.
 */

/**
 * - `unsupported`: a keyword (or a form of one) the converter does not implement;
 * - `unsatisfiable`: no value can satisfy the subschema (or the converter cannot find one);
 * - `invalid-schema`: the schema breaks the spec (a non-number `minimum`, a bad regex, a dangling `$ref`);
 * - `filter-exhausted`: a filter rejected too many candidates in a row while generating;
 * - `internal`: the converter built a value its own validator refuses (a bug here: please report it).
 */
export type SchemaArbitraryErrorKind = 'unsupported' | 'unsatisfiable' | 'invalid-schema' | 'filter-exhausted' | 'internal';

export class SchemaArbitraryError extends Error {
  override readonly name = 'SchemaArbitraryError';
  constructor(
    readonly kind: SchemaArbitraryErrorKind,
    /** JSON pointer (RFC 6901) of the subschema, `''` for the root. */
    readonly pointer: string,
    readonly keyword: string,
    detail: string,
  ) {
    super(`${kind} at ${pointer === '' ? '#' : `#${pointer}`} (${keyword}): ${detail}`);
  }
}

/** Whether an error only says "this branch has no values" (a caller may drop an optional branch), not "the schema is wrong". */
export function isUnsatisfiable(error: unknown): error is SchemaArbitraryError {
  return error instanceof SchemaArbitraryError && error.kind === 'unsatisfiable';
}
