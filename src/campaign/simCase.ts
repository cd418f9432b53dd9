import fc from 'fast-check';
import { scenarioArbitrary, tapeArbitrary, type ScenarioConstraints } from '../workload/index.ts';
import type { Scenario } from '../sim/index.ts';

/** One generated run: what to simulate, the schedule, and the seed of chance inside it. */
export interface SimCase {
  readonly scenario: Scenario;
  readonly tape: number[];
  readonly seed: number;
}

/**
 * Cases drawn with `workload`. Required, not defaulted: the bare generator's defaults (memory
 * only) are not a campaign's, and a case is named by (seed, index, workload) together.
 */
export function simCaseArbitrary(workload: ScenarioConstraints): fc.Arbitrary<SimCase> {
  return fc.record({ scenario: scenarioArbitrary(workload), tape: tapeArbitrary(), seed: fc.nat({ max: 0xffff }) });
}

/**
 * The seed fast-check generates case `index` of a campaign from. Each case has its own seed so
 * that one case replays from (campaign seed, index) without generating the ones before it.
 */
export function caseSeed(campaignSeed: number, index: number): number {
  // 32-bit mix (Murmur3 finaliser): neighbouring indices get unrelated seeds.
  let h = (campaignSeed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) | 0;
}

/**
 * Case `index` of the campaign with seed `campaignSeed` drawn with `workload` (pass the
 * campaign's resolved one, `ResolvedCampaignOptions.workload`): the same value on every machine.
 */
export function caseAt(campaignSeed: number, index: number, workload: ScenarioConstraints): SimCase {
  return fc.sample(arbitraryFor(workload), { seed: caseSeed(campaignSeed, index), numRuns: 1 })[0]!;
}

/**
 * Building the arbitrary costs more than drawing one case from it, and a campaign draws every
 * case with the same workload: the last one built is kept (arbitraries are immutable).
 */
let lastArbitrary: { key: string; arbitrary: fc.Arbitrary<SimCase> } | undefined;

function arbitraryFor(workload: ScenarioConstraints): fc.Arbitrary<SimCase> {
  const key = JSON.stringify(workload);
  if (lastArbitrary?.key !== key) lastArbitrary = { key, arbitrary: simCaseArbitrary(workload) };
  return lastArbitrary.arbitrary;
}
