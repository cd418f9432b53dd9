import { describe, expect, it } from 'vitest';
import { wireCopy } from '../../src/util/json.ts';

/** What a real transport hands over: the JSON round trip `wireCopy` must reproduce exactly. */
const roundTrip = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

class Box {
  a = 1;
}

describe('wireCopy', () => {
  const cases: Record<string, unknown> = {
    frame: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 1 }, name: 'x' } },
    'dropped and nulled values': { u: undefined, f() {}, s: Symbol('s'), list: [1, undefined, () => 1, Symbol('t'), NaN, Infinity, -0], nan: NaN },
    'integer-like keys': { b: 1, '2': 'b', '1': 'a', '-1': 2, '01': 3 },
    'special objects': [new Date(5), new Box(), new Map([[1, 2]]), { toJSON: () => 'T' }, new Number(3), new String('s'), { e: new Error('m') }],
    '__proto__ key': JSON.parse('{"__proto__": {"x": 1}, "b": 2}') as unknown,
    'null prototype': Object.assign(Object.create(null) as object, { z: 1 }),
    'sparse array': [1, , 3],
    'lone surrogate': 'a\ud800b',
    'negative zero': -0,
  };
  for (const [name, value] of Object.entries(cases)) {
    it(`equals the JSON round trip: ${name}`, () => {
      const copy = wireCopy(value);
      const expected = roundTrip(value);
      expect(copy).toStrictEqual(expected);
      expect(JSON.stringify(copy)).toBe(JSON.stringify(expected));
      if (typeof expected === 'object' && expected !== null) expect(Object.getPrototypeOf(copy)).toBe(Object.getPrototypeOf(expected));
      else expect(Object.is(copy, expected)).toBe(true);
    });
  }

  it('throws what JSON throws on a cycle or a bigint', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => wireCopy(cycle)).toThrow(TypeError);
    expect(() => wireCopy({ n: 1n })).toThrow(TypeError);
  });

  it('copies: nothing of the original is shared', () => {
    const v = { a: { b: [1, { c: 2 }] } };
    const copy = wireCopy(v);
    expect(copy.a).not.toBe(v.a);
    expect(copy.a.b[1]).not.toBe(v.a.b[1]);
  });
});
