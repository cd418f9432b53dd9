import fc from 'fast-check';
import { simCaseArbitrary, type SimCase } from '../campaign/simCase.ts';
import { resolvePropertyOptions, type ResolvedPropertyOptions } from '../options/index.ts';

/** The arbitrary every property draws its cases from. */
export const propertyArbitrary = (options: ResolvedPropertyOptions): fc.Arbitrary<SimCase> => simCaseArbitrary(options.workload);

/**
 * The cases the property suite runs, in order: `fc.assert` with a seed draws the same values as
 * `fc.sample` with that seed. The baseline covers them, so a fixed-seed CI run fails only on news.
 */
export function propertyCases(options: ResolvedPropertyOptions = resolvePropertyOptions()): SimCase[] {
  return fc.sample(propertyArbitrary(options), { seed: options.seed, numRuns: options.runs });
}
