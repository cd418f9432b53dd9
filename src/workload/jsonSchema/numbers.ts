/**
 * Integers and numbers within `minimum`/`maximum`/`exclusive*`/`multipleOf`, built as ranges
 * (and multiples `k × multipleOf`) so they shrink toward 0 or the bound nearest it. Unbounded
 * sides stop at ±2^31 for integers (fast-check's default) and stay within safe integers.
 */
import fc from 'fast-check';
import { SchemaArbitraryError } from './error.ts';
import { readNumber } from './read.ts';
import type { SchemaObject } from './types.ts';
import { isMultipleOf } from './validate.ts';
import type { Builder } from './builder.ts';

const SPAN = 2 ** 31;
const clampSafe = (n: number): number => Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, n));

interface Bounds {
  readonly low: number | undefined;
  readonly lowExcluded: boolean;
  readonly high: number | undefined;
  readonly highExcluded: boolean;
}

function boundsOf(s: SchemaObject, pointer: string): Bounds {
  const [min, xmin, max, xmax] = [readNumber(s, 'minimum', pointer), readNumber(s, 'exclusiveMinimum', pointer), readNumber(s, 'maximum', pointer), readNumber(s, 'exclusiveMaximum', pointer)];
  const lowExcluded = xmin !== undefined && (min === undefined || xmin >= min);
  const highExcluded = xmax !== undefined && (max === undefined || xmax <= max);
  return { low: lowExcluded ? xmin : min, lowExcluded, high: highExcluded ? xmax : max, highExcluded };
}

/** The integer range the bounds allow, unbounded sides filled in; undefined when empty. */
function integerRange(b: Bounds): [number, number] | undefined {
  let low = b.low === undefined ? undefined : b.lowExcluded ? Math.floor(b.low) + 1 : Math.ceil(b.low);
  let high = b.high === undefined ? undefined : b.highExcluded ? Math.ceil(b.high) - 1 : Math.floor(b.high);
  if (low === undefined) low = high === undefined ? -SPAN : Math.min(high, 0) - SPAN;
  if (high === undefined) high = Math.max(low, 0) + SPAN - 1;
  [low, high] = [clampSafe(low), clampSafe(high)];
  return low <= high ? [low, high] : undefined;
}

function unsatisfiable(pointer: string, detail: string): never {
  throw new SchemaArbitraryError('unsatisfiable', pointer, 'minimum', detail);
}

/** Multiples `k × step` inside the bounds; ajv's float check of multipleOf is applied as a filter. */
function multiples(builder: Builder, s: SchemaObject, b: Bounds, step: number, integral: boolean, pointer: string): fc.Arbitrary<number> {
  if (step <= 0) throw new SchemaArbitraryError('invalid-schema', pointer, 'multipleOf', 'expected a number > 0');
  // For integers with a fractional step, step up to the least integer multiple of it.
  let unit = step;
  if (integral && !Number.isInteger(step)) {
    const q = Array.from({ length: 1000 }, (_, i) => i + 1).find((i) => Number.isInteger(Math.round(step * i * 1e9) / 1e9) && isMultipleOf(Math.round(step * i), step));
    if (q === undefined) throw new SchemaArbitraryError('unsupported', pointer, 'multipleOf', `no small integer multiple of ${step} found`);
    unit = Math.round(step * q);
  }
  const range = integerRange({
    low: b.low === undefined ? undefined : b.low / unit,
    lowExcluded: b.lowExcluded,
    high: b.high === undefined ? undefined : b.high / unit,
    highExcluded: b.highExcluded,
  });
  if (range === undefined) throw new SchemaArbitraryError('unsatisfiable', pointer, 'multipleOf', `no multiple of ${step} within the bounds`);
  const [kLow, kHigh] = range;
  const inBounds = (v: number): boolean =>
    Number.isSafeInteger(Math.round(v)) &&
    (b.low === undefined || (b.lowExcluded ? v > b.low : v >= b.low)) &&
    (b.high === undefined || (b.highExcluded ? v < b.high : v <= b.high)) &&
    isMultipleOf(v, step) &&
    (!integral || Number.isInteger(v));
  return builder.filter(
    fc.integer({ min: Math.max(kLow, -SPAN), max: Math.min(kHigh, SPAN) }).map((k) => k * unit + 0),
    inBounds,
    pointer,
    'multipleOf',
  );
}

export function integerArbitrary(builder: Builder, s: SchemaObject, pointer: string): fc.Arbitrary<number> {
  const b = boundsOf(s, pointer);
  const step = readNumber(s, 'multipleOf', pointer);
  if (step !== undefined) return multiples(builder, s, b, step, true, pointer);
  const range = integerRange(b);
  if (range === undefined) unsatisfiable(pointer, 'no integer within the bounds');
  return fc.integer({ min: range[0], max: range[1] });
}

export function numberArbitrary(builder: Builder, s: SchemaObject, pointer: string): fc.Arbitrary<number> {
  const b = boundsOf(s, pointer);
  const step = readNumber(s, 'multipleOf', pointer);
  if (step !== undefined) return multiples(builder, s, b, step, false, pointer);
  if (b.low !== undefined && b.high !== undefined && (b.low > b.high || (b.low === b.high && (b.lowExcluded || b.highExcluded)))) {
    unsatisfiable(pointer, 'no number within the bounds');
  }
  const doubles = fc
    .double({
      noNaN: true,
      noDefaultInfinity: true,
      ...(b.low === undefined ? { min: -Number.MAX_VALUE } : { min: b.low, minExcluded: b.lowExcluded }),
      ...(b.high === undefined ? { max: Number.MAX_VALUE } : { max: b.high, maxExcluded: b.highExcluded }),
    })
    .map((x) => x + 0); // -0 is not JSON
  const range = integerRange(b);
  // Whole numbers first: tools mostly see them, and they shrink to the simplest values.
  return range === undefined ? doubles : fc.oneof(fc.integer({ min: range[0], max: range[1] }), doubles);
}
