/**
 * A validator of the keywords the converter implements. Filters (oneOf, not, if/else, merged
 * allOf leftovers, enum members) and `invalidArbitrary` need to ask "is this value valid?" at
 * run time, and ajv is only a test dependency. The tests hold it to ajv on every generated value.
 */
import type { SchemaDocument } from './document.ts';
import { FORMATS } from './formats.ts';
import { jsonEqual, canonicalKey } from './json.ts';
import { childPointer } from './pointer.ts';
import type { JsonSchema, SchemaObject } from './types.ts';

const regexCache = new Map<string, RegExp>();

/** `pattern` as JSON Schema means it: ECMA-262 with the `u` flag, unanchored. */
export function patternRegExp(pattern: string): RegExp {
  let regex = regexCache.get(pattern);
  if (regex === undefined) {
    regex = new RegExp(pattern, 'u');
    regexCache.set(pattern, regex);
  }
  return regex;
}

/** String length in code points, as JSON Schema counts it. */
export function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** `value` is a multiple of `divisor` the way ajv decides it (the quotient is an integer). */
export function isMultipleOf(value: number, divisor: number): boolean {
  return Number.isInteger(value / divisor);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` is valid against `schema` (a subschema of `doc`, at `pointer`). */
export function isValid(doc: SchemaDocument, schema: JsonSchema, value: unknown, pointer = ''): boolean {
  if (typeof schema === 'boolean') return schema;
  const s = doc.canonical(schema, pointer);
  const sub = (keyword: string, ...rest: (string | number)[]): string => childPointer(pointer, keyword, ...rest);
  if (typeof s.$ref === 'string') {
    const target = doc.resolve(s.$ref, pointer);
    if (!isValid(doc, target.schema, value, target.pointer)) return false;
  }
  if (Array.isArray(s.type) && !s.type.some((t) => hasType(value, t as string))) return false;
  if (Array.isArray(s.enum) && !s.enum.some((e) => jsonEqual(e, value))) return false;
  if (typeof value === 'number' && !checkNumber(s, value)) return false;
  if (typeof value === 'string' && !checkString(s, value)) return false;
  if (Array.isArray(value) && !checkArray(doc, s, value, pointer)) return false;
  if (isObject(value) && !checkObject(doc, s, value, pointer)) return false;
  if (Array.isArray(s.allOf) && !s.allOf.every((x: JsonSchema, i) => isValid(doc, x, value, sub('allOf', i)))) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some((x: JsonSchema, i) => isValid(doc, x, value, sub('anyOf', i)))) return false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter((x: JsonSchema, i) => isValid(doc, x, value, sub('oneOf', i))).length !== 1) return false;
  if (s.not !== undefined && isValid(doc, s.not as JsonSchema, value, sub('not'))) return false;
  if (s.if !== undefined) {
    const branch = isValid(doc, s.if as JsonSchema, value, sub('if')) ? 'then' : 'else';
    if (s[branch] !== undefined && !isValid(doc, s[branch] as JsonSchema, value, sub(branch))) return false;
  }
  return true;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return false;
  }
}

function checkNumber(s: SchemaObject, value: number): boolean {
  const n = (k: string): number | undefined => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const [min, max, xmin, xmax, step] = [n('minimum'), n('maximum'), n('exclusiveMinimum'), n('exclusiveMaximum'), n('multipleOf')];
  return (
    (min === undefined || value >= min) &&
    (max === undefined || value <= max) &&
    (xmin === undefined || value > xmin) &&
    (xmax === undefined || value < xmax) &&
    (step === undefined || isMultipleOf(value, step))
  );
}

function checkString(s: SchemaObject, value: string): boolean {
  const length = typeof s.minLength === 'number' || typeof s.maxLength === 'number' ? codePointLength(value) : 0;
  if (typeof s.minLength === 'number' && length < s.minLength) return false;
  if (typeof s.maxLength === 'number' && length > s.maxLength) return false;
  if (typeof s.pattern === 'string' && !patternRegExp(s.pattern).test(value)) return false;
  const format = typeof s.format === 'string' ? FORMATS.get(s.format) : undefined;
  return format === undefined || format.check(value);
}

function checkArray(doc: SchemaDocument, s: SchemaObject, value: readonly unknown[], pointer: string): boolean {
  if (typeof s.minItems === 'number' && value.length < s.minItems) return false;
  if (typeof s.maxItems === 'number' && value.length > s.maxItems) return false;
  const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as JsonSchema[]) : [];
  for (let i = 0; i < value.length; i++) {
    const item = i < prefix.length ? prefix[i] : (s.items as JsonSchema | undefined);
    const where = i < prefix.length ? childPointer(pointer, 'prefixItems', i) : childPointer(pointer, 'items');
    if (item !== undefined && !isValid(doc, item, value[i], where)) return false;
  }
  if (s.uniqueItems === true && new Set(value.map(canonicalKey)).size !== value.length) return false;
  if (s.contains !== undefined) {
    const count = value.filter((v) => isValid(doc, s.contains as JsonSchema, v, childPointer(pointer, 'contains'))).length;
    const min = typeof s.minContains === 'number' ? s.minContains : 1;
    if (count < min) return false;
    if (typeof s.maxContains === 'number' && count > s.maxContains) return false;
  }
  return true;
}

function checkObject(doc: SchemaDocument, s: SchemaObject, value: Record<string, unknown>, pointer: string): boolean {
  const keys = Object.keys(value);
  if (typeof s.minProperties === 'number' && keys.length < s.minProperties) return false;
  if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) return false;
  if (Array.isArray(s.required) && !s.required.every((k) => Object.prototype.hasOwnProperty.call(value, k as string))) return false;
  const properties = isObject(s.properties) ? (s.properties as Record<string, JsonSchema>) : {};
  const patterns = isObject(s.patternProperties) ? Object.entries(s.patternProperties as Record<string, JsonSchema>) : [];
  for (const key of keys) {
    let declared = false;
    if (Object.prototype.hasOwnProperty.call(properties, key)) {
      declared = true;
      if (!isValid(doc, properties[key] as JsonSchema, value[key], childPointer(pointer, 'properties', key))) return false;
    }
    for (const [pattern, sub] of patterns) {
      if (!patternRegExp(pattern).test(key)) continue;
      declared = true;
      if (!isValid(doc, sub, value[key], childPointer(pointer, 'patternProperties', pattern))) return false;
    }
    if (!declared && s.additionalProperties !== undefined && !isValid(doc, s.additionalProperties as JsonSchema, value[key], childPointer(pointer, 'additionalProperties'))) return false;
    if (s.propertyNames !== undefined && !isValid(doc, s.propertyNames as JsonSchema, key, childPointer(pointer, 'propertyNames'))) return false;
  }
  if (isObject(s.dependentRequired)) {
    for (const [key, needed] of Object.entries(s.dependentRequired)) {
      if (Object.prototype.hasOwnProperty.call(value, key) && Array.isArray(needed) && !needed.every((k) => Object.prototype.hasOwnProperty.call(value, k as string))) return false;
    }
  }
  if (isObject(s.dependentSchemas)) {
    for (const [key, sub] of Object.entries(s.dependentSchemas)) {
      if (Object.prototype.hasOwnProperty.call(value, key) && !isValid(doc, sub as JsonSchema, value, childPointer(pointer, 'dependentSchemas', key))) return false;
    }
  }
  return true;
}
