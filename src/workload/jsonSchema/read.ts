/**
 * Checked reads of keyword values. A tool's schema is untrusted input: a keyword of the wrong
 * shape is an `invalid-schema` error naming it, never a silent default.
 */
import { SchemaArbitraryError } from './error.ts';
import type { JsonSchema, SchemaObject } from './types.ts';

export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'boolean' || isSchemaObject(value);
}

function bad(pointer: string, keyword: string, expected: string): never {
  throw new SchemaArbitraryError('invalid-schema', pointer, keyword, `expected ${expected}`);
}

export function readNumber(schema: SchemaObject, keyword: string, pointer: string): number | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) bad(pointer, keyword, 'a finite number');
  return value;
}

export function readCount(schema: SchemaObject, keyword: string, pointer: string): number | undefined {
  const value = readNumber(schema, keyword, pointer);
  if (value !== undefined && (!Number.isInteger(value) || value < 0)) bad(pointer, keyword, 'a non-negative integer');
  return value;
}

export function readString(schema: SchemaObject, keyword: string, pointer: string): string | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') bad(pointer, keyword, 'a string');
  return value;
}

export function readStrings(schema: SchemaObject, keyword: string, pointer: string): readonly string[] | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) bad(pointer, keyword, 'an array of strings');
  return value as string[];
}

export function readSchema(schema: SchemaObject, keyword: string, pointer: string): JsonSchema | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (!isSchema(value)) bad(pointer, keyword, 'a schema (object or boolean)');
  return value;
}

export function readSchemaArray(schema: SchemaObject, keyword: string, pointer: string): readonly JsonSchema[] | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every(isSchema)) bad(pointer, keyword, 'an array of schemas');
  return value as JsonSchema[];
}

export function readSchemaMap(schema: SchemaObject, keyword: string, pointer: string): Readonly<Record<string, JsonSchema>> | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (!isSchemaObject(value) || !Object.values(value).every(isSchema)) bad(pointer, keyword, 'an object of schemas');
  return value as Record<string, JsonSchema>;
}

export function readBoolean(schema: SchemaObject, keyword: string, pointer: string): boolean | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') bad(pointer, keyword, 'a boolean');
  return value;
}
