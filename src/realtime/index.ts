/** Black-box, real-time runs against a server process or URL (`fuzz --stdio`, `fuzz --url`, `fuzzProcess()`). */
export { fuzzProcess, pool, runCase, type Judged, processCases, targetOf, determinismOf, type FuzzProcessOptions, type ProcessFinding, type ProcessFuzzReport, type ProcessTargetSpec } from './fuzzProcess.ts';
export { runPlan, type RealtimeRun, type RunPlanOptions } from './runPlan.ts';
export { REUSE_NOTE, SharedConnection, type SharedCase } from './sharedConnection.ts';
export { planArbitrary, type PlanConstraints } from './planArbitrary.ts';
export { describePlan, withoutCancels, type Anchor, type CancelHow, type Plan, type PlannedCall, type ServerRequestPolicy } from './plan.ts';
export { formatProcessReport, processJunitReport, processMarkdownReport, processReportHead } from './processReportViews.ts';
export { readProcessReplayFile, type ProcessReplayFile } from './processReplayFile.ts';
export { rogueProcess, rogueVerdicts, formatRogueProcessTable, ROGUE_CANNOT_JUDGE, type RogueProcessReport, type RogueProcessRow, type RogueVerdict } from './rogueProcess.ts';
