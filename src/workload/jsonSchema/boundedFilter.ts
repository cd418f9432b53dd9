/**
 * `.filter` with a bound. fast-check 4's own `filter` retries forever (`while (true)` in
 * `FilterArbitrary.generate`), so a nearly unsatisfiable filter would hang a campaign; this one
 * gives up after `maxRejections` candidates in a row and throws `SchemaArbitraryError`
 * (`filter-exhausted`) naming the subschema and keyword that asked for the filter. Shrinking is
 * unchanged: shrunk candidates that fail the predicate are skipped, as fast-check does.
 */
import fc from 'fast-check';
import { SchemaArbitraryError } from './error.ts';

class BoundedFilterArbitrary<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly arb: fc.Arbitrary<T>,
    private readonly predicate: (value: T) => boolean,
    private readonly maxRejections: number,
    private readonly pointer: string,
    private readonly keyword: string,
  ) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    for (let rejected = 0; rejected < this.maxRejections; rejected++) {
      const candidate = this.arb.generate(mrng, biasFactor);
      if (this.predicate(candidate.value)) return candidate;
    }
    throw new SchemaArbitraryError(
      'filter-exhausted',
      this.pointer,
      this.keyword,
      `${this.maxRejections} candidates in a row failed the filter; the schema is unsatisfiable or too narrow to find values by filtering`,
    );
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arb.canShrinkWithoutContext(value) && this.predicate(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.arb.shrink(value, context).filter((candidate) => this.predicate(candidate.value));
  }
}

/** `arb` restricted to values passing `predicate`, failing loudly after `maxRejections` misses in a row. */
export function boundedFilter<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => boolean, maxRejections: number, pointer: string, keyword: string): fc.Arbitrary<T> {
  return new BoundedFilterArbitrary(arb, predicate, maxRejections, pointer, keyword);
}
