export { scenarioArbitrary, type ScenarioConstraints } from './scenarioArbitrary.ts';
export { tapeArbitrary, type TapeConstraints } from './tapeArbitrary.ts';
