/** Unsupported and unsatisfiable schemas fail with `SchemaArbitraryError` naming the pointer and keyword. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SchemaArbitraryError, schemaArbitrary, type JsonSchema } from '../../../src/workload/jsonSchema/index.ts';

function errorOf(run: () => unknown): SchemaArbitraryError {
  try {
    run();
  } catch (error) {
    if (error instanceof SchemaArbitraryError) return error;
    throw error;
  }
  throw new Error('expected a SchemaArbitraryError, nothing was thrown');
}

const cases: readonly [string, unknown, SchemaArbitraryError['kind'], string, string][] = [
  ['unevaluatedProperties', { type: 'object', properties: { a: { type: 'object', unevaluatedProperties: false } } }, 'unsupported', '/properties/a', 'unevaluatedProperties'],
  ['$dynamicRef', { anyOf: [{ $dynamicRef: '#meta' }] }, 'unsupported', '/anyOf/0', '$dynamicRef'],
  ['external $ref', { properties: { a: { $ref: 'https://example.com/s.json' } }, required: ['a'] }, 'unsupported', '/properties/a', '$ref'],
  ['dangling $ref', { $ref: '#/$defs/missing' }, 'invalid-schema', '', '$ref'],
  ['boolean exclusiveMinimum (draft-04)', { type: 'number', minimum: 0, exclusiveMinimum: true }, 'unsupported', '', 'exclusiveMinimum'],
  ['bad regex', { type: 'string', pattern: '([a-z' }, 'invalid-schema', '', 'pattern'],
  ['false', false, 'unsatisfiable', '', 'false'],
  ['empty integer range', { type: 'integer', minimum: 5, maximum: 3 }, 'unsatisfiable', '', 'minimum'],
  ['nested string lengths', { type: 'object', properties: { name: { type: 'string', minLength: 5, maxLength: 2 } }, required: ['name'] }, 'unsatisfiable', '/properties/name', 'maxLength'],
  ['no multiple in range', { type: 'integer', multipleOf: 10, minimum: 1, maximum: 9 }, 'unsatisfiable', '', 'multipleOf'],
  ['enum against type', { type: 'string', enum: [1, 2] }, 'unsatisfiable', '', 'enum'],
  ['required but closed', { type: 'object', required: ['x'], additionalProperties: false }, 'unsatisfiable', '/additionalProperties', 'false'],
  ['maxProperties below required', { type: 'object', required: ['a', 'b'], maxProperties: 1 }, 'unsatisfiable', '', 'maxProperties'],
  ['minItems above maxItems', { type: 'array', minItems: 3, maxItems: 2 }, 'unsatisfiable', '', 'maxItems'],
  ['all anyOf members empty', { type: 'string', anyOf: [{ type: 'integer' }, { type: 'boolean' }] }, 'unsatisfiable', '', 'anyOf'],
  [
    'recursion without a base case',
    { $ref: '#/$defs/a', $defs: { a: { type: 'object', properties: { next: { $ref: '#/$defs/a' } }, required: ['next'] } } },
    'unsatisfiable',
    // the evaluation path: cut at the default maxRecursion of 3
    '/properties/next/properties/next/properties/next',
    '$ref',
  ],
];

describe('SchemaArbitraryError', () => {
  for (const [name, schema, kind, pointer, keyword] of cases) {
    it(`${name}: ${kind} at #${pointer} (${keyword})`, () => {
      const error = errorOf(() => schemaArbitrary(schema as JsonSchema));
      expect({ kind: error.kind, pointer: error.pointer, keyword: error.keyword }).toEqual({ kind, pointer, keyword });
      expect(error.message).toContain(keyword);
    });
  }

  it('refuses unknown keywords when asked to', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', 'x-secret': true } } };
    expect(() => schemaArbitrary(schema)).not.toThrow();
    const error = errorOf(() => schemaArbitrary(schema, { unknownKeywords: 'throw' }));
    expect([error.kind, error.pointer, error.keyword]).toEqual(['unsupported', '/properties/a', 'x-secret']);
  });

  it('a filter that finds nothing fails clearly instead of hanging', () => {
    const schema = { type: 'string', pattern: '^a', not: { pattern: '^a' } };
    const arb = schemaArbitrary(schema, { maxFilterRejections: 50 });
    const started = Date.now();
    const error = errorOf(() => fc.sample(arb, { numRuns: 1, seed: 1 }));
    expect([error.kind, error.pointer, error.keyword]).toEqual(['filter-exhausted', '', 'not']);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('is deterministic: the same seed gives the same values', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' }, n: { type: 'number' } } };
    expect(fc.sample(schemaArbitrary(schema), { numRuns: 20, seed: 42 })).toEqual(fc.sample(schemaArbitrary(schema), { numRuns: 20, seed: 42 }));
  });
});
