/** Workload generators: scenarios and schedule tapes for campaigns, baselines and properties. */
export { programArb, scenarioArbitrary, type ScenarioConstraints } from './scenarioArbitrary.ts';
export { toolProgramOf } from './restrictOp.ts';
export { tapeArbitrary, type TapeConstraints } from './tapeArbitrary.ts';
export { LEAVABLE_PARTS, type LeavablePart } from './leavableParts.ts';
export { toolCallArbitrary, type FuzzCase, type FuzzTool, type ToolArguments, type ToolCallConstraints } from './toolCallArbitrary.ts';
