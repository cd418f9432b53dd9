/** Workload generators: scenarios and schedule tapes for campaigns, baselines and properties. */
export { scenarioArbitrary, type ScenarioConstraints } from './scenarioArbitrary.ts';
export { tapeArbitrary, type TapeConstraints } from './tapeArbitrary.ts';
export { LEAVABLE_PARTS, type LeavablePart } from './leavableParts.ts';
