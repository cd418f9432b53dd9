import fc from 'fast-check';
import { simCaseArbitrary, type SimCase } from '../campaign/simCase.ts';
import type { Profile } from '../sim/index.ts';

/** The property suite's seed: fixed, so CI runs the same cases; `MCP_SIM_SEED` picks another campaign. */
export const PROPERTY_SEED = Number(process.env.MCP_SIM_SEED ?? 20_261_130);
/** Runs per property: a CI budget; `MCP_SIM_RUNS` raises it for nightly campaigns. */
export const PROPERTY_RUNS = Number(process.env.MCP_SIM_RUNS ?? 150);
/** Profiles the properties draw from: every transport profile the simulator has. */
export const PROPERTY_PROFILES: readonly Profile[] = ['memory', 'http'];

export const propertyArbitrary = () => simCaseArbitrary({ profiles: PROPERTY_PROFILES });

/**
 * The cases the property suite runs, in order: `fc.assert` with a seed draws the same values as
 * `fc.sample` with that seed. The baseline covers them, so a fixed-seed CI run fails only on news.
 */
export function propertyCases(runs = PROPERTY_RUNS, seed = PROPERTY_SEED): SimCase[] {
  return fc.sample(propertyArbitrary(), { seed, numRuns: runs });
}
