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

/** The surrogates, which no code point of a well-formed string is: the index of any code point above them skips them. */
const SURROGATES = { from: 0xd800, size: 0x800 };

/**
 * Any Unicode code point but a surrogate: fast-check's own `unit: 'binary'`, index for index (the
 * same draws give the same text), with an unmapper that computes the index instead of building
 * fast-check's reverse table of all 1,112,064 code points (a 90 MB map, built the first time a
 * case is shrunk; a black-box campaign's memory must stay bounded).
 */
const anyCodePoint = fc.nat({ max: 0x10ffff - SURROGATES.size }).map(
  (i) => String.fromCodePoint(i < SURROGATES.from ? i : i + SURROGATES.size),
  (v) => {
    const cp = typeof v === 'string' && [...v].length === 1 ? v.codePointAt(0)! : -1;
    if (cp < 0 || (cp >= SURROGATES.from && cp < SURROGATES.from + SURROGATES.size)) throw new Error('not one code point');
    return cp < SURROGATES.from ? cp : cp - SURROGATES.size;
  },
);

/** One code point per unit: mostly printable ASCII (readable counterexamples), sometimes any Unicode. */
const codePoint = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: anyCodePoint, minLength: 1, maxLength: 1 }) },
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
