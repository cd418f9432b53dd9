/**
 * The corpus of the converter's property tests: every supported keyword at least once, alone
 * and in realistic MCP tool input schemas (as zod-to-json-schema, pydantic and hand-written
 * servers emit them), in 2020-12 and draft-07.
 */
export interface Case {
  readonly name: string;
  readonly schema: unknown;
  readonly dialect?: '2020-12' | 'draft-07';
  /** Whether the schema accepts every value (invalidArbitrary must return undefined). */
  readonly acceptsAll?: boolean;
}

const D7 = 'http://json-schema.org/draft-07/schema#';

export const corpus: readonly Case[] = [
  // Booleans and trivial schemas.
  { name: 'true', schema: true, acceptsAll: true },
  { name: 'empty', schema: {}, acceptsAll: true },
  { name: 'annotations only', schema: { title: 'x', description: 'y', default: 3 }, acceptsAll: true },
  // Types.
  { name: 'null', schema: { type: 'null' } },
  { name: 'boolean', schema: { type: 'boolean' } },
  { name: 'type array', schema: { type: ['string', 'null'] } },
  { name: 'integer range', schema: { type: 'integer', minimum: -5, maximum: 5 } },
  { name: 'integer exclusive', schema: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 } },
  { name: 'integer multipleOf', schema: { type: 'integer', multipleOf: 7, minimum: 10, maximum: 100 } },
  { name: 'number fraction bounds', schema: { type: 'number', exclusiveMinimum: 0.5, maximum: 2.25 } },
  { name: 'number multipleOf decimal', schema: { type: 'number', multipleOf: 0.01, minimum: 0, maximum: 10 } },
  { name: 'number unbounded', schema: { type: 'number' } },
  { name: 'integer fractional multipleOf', schema: { type: 'integer', multipleOf: 2.5 } },
  // Strings.
  { name: 'string lengths', schema: { type: 'string', minLength: 2, maxLength: 4 } },
  { name: 'string pattern', schema: { type: 'string', pattern: '^[a-z]{3}-\\d{2}$' } },
  { name: 'string unanchored pattern + length', schema: { type: 'string', pattern: 'ab+c', maxLength: 10 } },
  { name: 'format date-time', schema: { type: 'string', format: 'date-time' } },
  { name: 'format date', schema: { type: 'string', format: 'date' } },
  { name: 'format time', schema: { type: 'string', format: 'time' } },
  { name: 'format email', schema: { type: 'string', format: 'email' } },
  { name: 'format uri', schema: { type: 'string', format: 'uri' } },
  { name: 'format uuid', schema: { type: 'string', format: 'uuid' } },
  { name: 'format ipv4', schema: { type: 'string', format: 'ipv4' } },
  { name: 'format ipv6', schema: { type: 'string', format: 'ipv6' } },
  { name: 'format hostname', schema: { type: 'string', format: 'hostname', maxLength: 40 } },
  { name: 'unknown format', schema: { type: 'string', format: 'x-custom', minLength: 1 } },
  // const and enum.
  { name: 'const', schema: { const: { a: [1, 'b'] } } },
  { name: 'enum mixed', schema: { enum: ['red', 'green', 3, null] } },
  { name: 'enum typed', schema: { type: 'string', enum: ['a', 'b', 7] } },
  // Arrays.
  { name: 'array items bounds', schema: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 4 } },
  { name: 'array unique', schema: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 9 }, uniqueItems: true, minItems: 3 } },
  { name: 'prefixItems closed', schema: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
  { name: 'prefixItems open', schema: { type: 'array', prefixItems: [{ const: 'op' }], items: { type: 'boolean' }, minItems: 1 } },
  { name: 'contains', schema: { type: 'array', items: { type: 'integer' }, contains: { minimum: 10 }, minContains: 2, maxContains: 3 } },
  { name: 'contains alone', schema: { type: 'array', contains: { type: 'string' } } },
  { name: 'draft-07 tuple items', schema: { $schema: D7, type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false }, dialect: 'draft-07' },
  // Objects.
  {
    name: 'MCP search tool',
    schema: { type: 'object', properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['query'], additionalProperties: false },
  },
  {
    name: 'MCP zod output (draft-07)',
    schema: {
      $schema: D7,
      type: 'object',
      properties: {
        path: { type: 'string', description: 'file path' },
        encoding: { type: 'string', enum: ['utf8', 'base64'], default: 'utf8' },
        tail: { type: 'number' },
        head: { type: 'number' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    dialect: 'draft-07',
  },
  {
    name: 'MCP pydantic output',
    schema: {
      type: 'object',
      title: 'fetchArguments',
      properties: {
        url: { type: 'string', format: 'uri', title: 'Url', minLength: 1 },
        max_length: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 1000000, default: 5000, title: 'Max Length' },
        raw: { type: 'boolean', default: false, title: 'Raw' },
        headers: { anyOf: [{ type: 'object', additionalProperties: { type: 'string' } }, { type: 'null' }], default: null },
      },
      required: ['url'],
    },
  },
  { name: 'additionalProperties schema', schema: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: { type: 'string', maxLength: 3 } } },
  { name: 'patternProperties closed', schema: { type: 'object', patternProperties: { '^x-[a-z]+$': { type: 'integer' } }, additionalProperties: false, minProperties: 1 } },
  { name: 'propertyNames', schema: { type: 'object', propertyNames: { pattern: '^[a-z]{1,5}$' }, minProperties: 1, maxProperties: 3 } },
  { name: 'dependentRequired', schema: { type: 'object', properties: { card: { type: 'string' }, cvv: { type: 'string', pattern: '^\\d{3}$' } }, dependentRequired: { card: ['cvv'] } } },
  { name: 'draft-07 dependencies', schema: { $schema: D7, type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, dependencies: { a: ['b'], b: { properties: { a: { minimum: 0 } } } } }, dialect: 'draft-07' },
  { name: 'required not declared', schema: { type: 'object', required: ['token'], properties: {} } },
  // Applicators.
  { name: 'allOf merge', schema: { allOf: [{ type: 'integer', minimum: 0 }, { maximum: 50 }, { multipleOf: 5 }] } },
  { name: 'allOf objects', schema: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'boolean' } }, required: ['b'] }] } },
  { name: 'allOf unmergeable patterns', schema: { type: 'string', allOf: [{ pattern: '^a' }, { pattern: 'z$' }], maxLength: 6 } },
  { name: 'anyOf', schema: { anyOf: [{ type: 'string', maxLength: 2 }, { type: 'integer', minimum: 100 }] } },
  { name: 'oneOf overlapping', schema: { oneOf: [{ type: 'integer', multipleOf: 3 }, { type: 'integer', multipleOf: 5 }], minimum: 0, maximum: 60 } },
  {
    name: 'oneOf discriminated (MCP action tool)',
    schema: {
      type: 'object',
      oneOf: [
        { properties: { action: { const: 'get' }, id: { type: 'string', format: 'uuid' } }, required: ['action', 'id'], additionalProperties: false },
        { properties: { action: { const: 'list' }, page: { type: 'integer', minimum: 1 } }, required: ['action'], additionalProperties: false },
      ],
    },
  },
  { name: 'not type', schema: { not: { type: ['string', 'object', 'array'] } } },
  { name: 'not enum', schema: { type: 'string', maxLength: 1, not: { enum: ['a', 'b'] } } },
  { name: 'if/then/else', schema: { type: 'object', properties: { kind: { enum: ['n', 's'] } }, required: ['kind'], if: { properties: { kind: { const: 'n' } } }, then: { properties: { v: { type: 'number' } }, required: ['v'] }, else: { properties: { v: { type: 'string' } } } } },
  // References.
  { name: '$defs ref', schema: { type: 'object', properties: { when: { $ref: '#/$defs/stamp' } }, required: ['when'], $defs: { stamp: { type: 'string', format: 'date' } } } },
  { name: 'ref with siblings (2020)', schema: { $ref: '#/$defs/n', maximum: 3, $defs: { n: { type: 'integer', minimum: 1 } } } },
  { name: 'draft-07 definitions', schema: { $schema: D7, type: 'array', items: { $ref: '#/definitions/pt' }, definitions: { pt: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } } }, dialect: 'draft-07' },
  {
    name: 'recursive tree',
    schema: { $ref: '#/$defs/node', $defs: { node: { type: 'object', properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['value'], additionalProperties: false } } },
  },
  { name: 'recursive linked list via anyOf', schema: { $defs: { list: { anyOf: [{ type: 'null' }, { type: 'object', properties: { head: { type: 'string' }, tail: { $ref: '#/$defs/list' } }, required: ['head', 'tail'] }] } }, $ref: '#/$defs/list' } },
  { name: 'anchor ref', schema: { type: 'array', items: { $ref: '#item' }, maxItems: 3, $defs: { i: { $anchor: 'item', type: 'string', enum: ['x', 'y'] } } } },
];
