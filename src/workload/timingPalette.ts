import fc from 'fast-check';

/**
 * The durations one case draws its sleeps, timeouts and maximum total timeouts from, by index:
 * every duration of a scenario is an index into its palette, so the palette shrinks apart from
 * the scenario's shape.
 *
 * `spread` straddles the SDK's timers at several scales (a sleep far shorter or longer than a
 * timeout). `grid` takes small multiples of one unit, so sums of sleeps often equal a timeout
 * or a maximum total timeout: a progress that arrives exactly at start + maxTotalTimeout, a
 * response between the first deadline and the one a progress moved it to. With the unit at
 * 1 000 ms the deadlines also meet the SDK's own 1 s HTTP reconnection delay.
 */
export type TimingPalette = readonly [number, number, number, number, number];

/** How many durations a palette holds; duration indices are below it. */
export const PALETTE_SIZE = 5;

const SPREAD: TimingPalette = Object.freeze([10, 100, 1_000, 5_000, 30_000] as const);

/** Multiples 1, 1, 2, 2, 3 of `unit`: the small ones twice, so that equal sums are likely. */
const grid = (unit: number): TimingPalette => [unit, unit, 2 * unit, 2 * unit, 3 * unit];

/** Half the cases spread, half on a grid of 100 or 1 000 ms; shrinks to the spread palette. */
export const timingPaletteArbitrary: fc.Arbitrary<TimingPalette> = fc
  .integer({ min: 0, max: 3 })
  .map((n) => (n < 2 ? SPREAD : grid(n === 2 ? 100 : 1_000)));

/** An index into a palette; shrinks toward the first (shortest) duration. */
export const durationIndexArbitrary: fc.Arbitrary<number> = fc.nat({ max: PALETTE_SIZE - 1 });
