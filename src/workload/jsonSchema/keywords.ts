/**
 * Which keywords the converter understands. Anything it does not implement but that constrains
 * values must fail loudly (`UNSUPPORTED`), or a generated "valid" value could be invalid.
 */

/** Assertion and applicator keywords the converter implements (both dialects' spellings). */
export const SUPPORTED: ReadonlySet<string> = new Set([
  'type', 'enum', 'const',
  'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'format',
  'items', 'prefixItems', 'additionalItems', 'maxItems', 'minItems', 'uniqueItems', 'contains', 'maxContains', 'minContains',
  'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'required',
  'maxProperties', 'minProperties', 'dependentRequired', 'dependentSchemas', 'dependencies',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', '$ref',
]);

/** Keywords that never constrain a value (annotations, identifiers, containers of definitions). */
export const IGNORED: ReadonlySet<string> = new Set([
  '$schema', '$id', '$anchor', '$defs', 'definitions', '$comment', '$vocabulary', '$dynamicAnchor', '$recursiveAnchor',
  'title', 'description', 'default', 'examples', 'readOnly', 'writeOnly', 'deprecated',
  'contentMediaType', 'contentEncoding', 'contentSchema',
]);

/** Keywords that constrain values but are not implemented: a schema using one is refused. */
export const UNSUPPORTED: ReadonlySet<string> = new Set(['unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$recursiveRef']);
