import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** The one source of chance inside a run: seeded, so a run is a function of its seed. */
export interface Rng {
  /** A float in [0, 1), as `Math.random` returns. */
  float(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** An RFC 4122 version-4 UUID built from this generator, for `crypto.randomUUID`. */
  uuid(): `${string}-${string}-${string}-${string}-${string}`;
}

export function createRng(seed: number): Rng {
  const gen = xoroshiro128plus(seed | 0);
  const hex = (n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += uniformInt(gen, 0, 15).toString(16);
    return s;
  };
  return {
    float: () => uniformFloat64(gen),
    int: (min, max) => uniformInt(gen, min, max),
    uuid: () =>
      `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[uniformInt(gen, 0, 3)]}${hex(3)}-${hex(12)}`,
  };
}
