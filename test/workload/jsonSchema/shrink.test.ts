/**
 * Shrinking: a property that fails on generated values reports a small counterexample that is
 * still valid, because the arbitraries are built from ranges and presence flags, not filters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidArbitrary, schemaArbitrary, type JsonSchema } from '../../../src/workload/jsonSchema/index.ts';
import { ajvValidator } from './ajv.ts';

function counterexample<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => boolean): T {
  const result = fc.check(fc.property(arb, predicate), { numRuns: 300, seed: 7 });
  if (!result.failed || result.counterexample === null) throw new Error('the property never failed');
  return result.counterexample[0];
}

const search = {
  type: 'object',
  properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1, maximum: 100 } },
  required: ['query'],
  additionalProperties: false,
};

describe('shrinking', () => {
  it('an MCP tool input shrinks to the smallest failing arguments', () => {
    const found = counterexample(schemaArbitrary(search), (v) => ((v as { limit?: number }).limit ?? 0) < 40);
    expect(found).toEqual({ query: expect.any(String), limit: 40 });
    expect([...(found as { query: string }).query]).toHaveLength(1);
    expect(ajvValidator(search)(found)).toBe(true);
  });

  it('a string shrinks to the shortest failing length', () => {
    const found = counterexample(schemaArbitrary(search), (v) => (v as { query: string }).query.length < 5);
    expect(found).toEqual({ query: expect.any(String) });
    expect((found as { query: string }).query).toHaveLength(5);
  });

  it('an array with minItems shrinks to the shortest failing array of smallest items', () => {
    const schema = { type: 'array', items: { type: 'integer', minimum: -10, maximum: 10 }, minItems: 1 };
    expect(counterexample(schemaArbitrary(schema), (v) => (v as number[]).length < 3)).toEqual([0, 0, 0]);
  });

  it('a recursive value shrinks to the shallowest failing tree', () => {
    const schema: JsonSchema = {
      $ref: '#/$defs/node',
      $defs: { node: { type: 'object', properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['value'], additionalProperties: false } },
    };
    const found = counterexample(schemaArbitrary(schema), (v) => ((v as { children?: unknown[] }).children ?? []).length === 0);
    expect(found).toEqual({ value: 0, children: [{ value: 0 }] });
  });

  it('values from a filtered branch (oneOf) shrink and stay valid', () => {
    const schema = { oneOf: [{ type: 'integer', multipleOf: 3 }, { type: 'integer', multipleOf: 5 }], minimum: 0, maximum: 600 };
    const found = counterexample(schemaArbitrary(schema), (v) => (v as number) < 30) as number;
    expect(ajvValidator(schema)(found)).toBe(true);
    expect(found).toBeLessThanOrEqual(35);
  });

  it('a number range shrinks to its bound nearest 0', () => {
    const schema = { type: 'number', minimum: 2.5, maximum: 1000 };
    expect(counterexample(schemaArbitrary(schema), (v) => (v as number) < 2.5)).toBe(2.5);
  });
});

describe('invalidArbitrary breaks each keyword of an MCP tool input', () => {
  it('wrong type, missing required, out of range, too short, extra property, wrong property type', () => {
    const validate = ajvValidator(search);
    const arb = invalidArbitrary(search);
    if (arb === undefined) throw new Error('expected an arbitrary');
    const samples = fc.sample(arb, { numRuns: 400, seed: 3 });
    expect(samples.every((v) => !validate(v))).toBe(true);
    const objects = samples.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));
    const kinds = {
      wrongType: samples.some((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
      missingRequired: objects.some((o) => !('query' in o)),
      outOfRange: objects.some((o) => typeof o.limit === 'number' && (o.limit < 1 || o.limit > 100)),
      notInteger: objects.some((o) => typeof o.limit === 'number' && !Number.isInteger(o.limit)),
      tooShort: objects.some((o) => o.query === ''),
      extraProperty: objects.some((o) => Object.keys(o).some((k) => k !== 'query' && k !== 'limit')),
      wrongPropertyType: objects.some((o) => 'query' in o && typeof o.query !== 'string'),
    };
    expect(kinds).toEqual(Object.fromEntries(Object.keys(kinds).map((k) => [k, true])));
  });

  it('a wrong enum value', () => {
    const schema = { type: 'object', properties: { unit: { enum: ['c', 'f'] } }, required: ['unit'] };
    const samples = fc.sample(invalidArbitrary(schema) as fc.Arbitrary<unknown>, { numRuns: 300, seed: 3 });
    expect(samples.some((v) => typeof (v as { unit?: unknown })?.unit === 'string' && !['c', 'f'].includes((v as { unit: string }).unit))).toBe(true);
  });

  it('too long strings', () => {
    const samples = fc.sample(invalidArbitrary({ type: 'string', maxLength: 3 }) as fc.Arbitrary<unknown>, { numRuns: 100, seed: 3 });
    expect(samples.some((v) => typeof v === 'string' && [...v].length > 3)).toBe(true);
  });
});
