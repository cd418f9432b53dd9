/**
 * Strings: `format` first (a generator of conforming text), else `pattern` (fc.stringMatching),
 * else free text whose length fast-check controls in code points, as JSON Schema counts it.
 * Whatever the base generator does not guarantee (length with a pattern, pattern with a format,
 * a second pattern) is filtered.
 */
import fc from 'fast-check';
import { SchemaArbitraryError } from './error.ts';
import { FORMATS } from './formats.ts';
import { readCount, readString } from './read.ts';
import type { SchemaObject } from './types.ts';
import { codePointLength, patternRegExp } from './validate.ts';
import type { Builder } from './builder.ts';

/** One code point per unit: mostly printable ASCII (readable counterexamples), sometimes any Unicode. */
const codePoint = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);

function compile(pattern: string, pointer: string): RegExp {
  try {
    return patternRegExp(pattern);
  } catch (error) {
    throw new SchemaArbitraryError('invalid-schema', pointer, 'pattern', `not an ECMA-262 regular expression: ${(error as Error).message}`);
  }
}

export function stringArbitrary(builder: Builder, s: SchemaObject, pointer: string): fc.Arbitrary<string> {
  const minLength = readCount(s, 'minLength', pointer) ?? 0;
  const maxLength = readCount(s, 'maxLength', pointer);
  const pattern = readString(s, 'pattern', pointer);
  const formatName = readString(s, 'format', pointer);
  if (maxLength !== undefined && minLength > maxLength) {
    throw new SchemaArbitraryError('unsatisfiable', pointer, 'maxLength', `minLength ${minLength} > maxLength ${maxLength}`);
  }
  const regex = pattern === undefined ? undefined : compile(pattern, pointer);
  const format = formatName === undefined ? undefined : FORMATS.get(formatName);
  const lengthOk = (v: string): boolean => {
    const n = codePointLength(v);
    return n >= minLength && (maxLength === undefined || n <= maxLength);
  };
  if (format !== undefined) {
    return builder.filter(format.arbitrary, (v) => lengthOk(v) && (regex === undefined || regex.test(v)), pointer, 'format');
  }
  if (regex !== undefined) {
    let matching: fc.Arbitrary<string>;
    try {
      matching = fc.stringMatching(regex, maxLength === undefined ? {} : { maxLength });
    } catch (error) {
      throw new SchemaArbitraryError('unsupported', pointer, 'pattern', `fast-check cannot generate matches of /${pattern}/u: ${(error as Error).message}`);
    }
    return minLength === 0 && maxLength === undefined ? matching : builder.filter(matching, lengthOk, pointer, 'minLength');
  }
  return fc.string({ unit: codePoint, minLength, ...(maxLength === undefined ? {} : { maxLength }) });
}
