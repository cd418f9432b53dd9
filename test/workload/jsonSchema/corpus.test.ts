/**
 * Every value `schemaArbitrary` generates for a corpus schema passes ajv, and every value
 * `invalidArbitrary` generates fails it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidArbitrary, schemaArbitrary, type JsonSchema } from '../../../src/workload/jsonSchema/index.ts';
import { ajvValidator } from './ajv.ts';
import { corpus } from './corpus.ts';

const seed = 20240611;

describe('schemaArbitrary over the corpus', () => {
  it('has at least 40 schemas', () => expect(corpus.length).toBeGreaterThanOrEqual(40));
  for (const c of corpus) {
    it(`valid: ${c.name}`, () => {
      const validate = ajvValidator(c.schema, c.dialect);
      fc.assert(
        fc.property(schemaArbitrary(c.schema as JsonSchema), (value) => {
          if (!validate(value)) throw new Error(`ajv rejects ${JSON.stringify(value)}`);
        }),
        { numRuns: 100, seed },
      );
    });
    it(`invalid: ${c.name}`, () => {
      const validate = ajvValidator(c.schema, c.dialect);
      const arb = invalidArbitrary(c.schema as JsonSchema);
      if (c.acceptsAll) {
        expect(arb).toBeUndefined();
        return;
      }
      expect(arb).toBeDefined();
      fc.assert(
        fc.property(arb as fc.Arbitrary<unknown>, (value) => {
          if (validate(value)) throw new Error(`ajv accepts ${JSON.stringify(value)}`);
        }),
        { numRuns: 60, seed },
      );
    });
  }
});
