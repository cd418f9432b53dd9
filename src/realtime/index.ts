/** Black-box, real-time runs against a server process or URL (`fuzz --stdio`, `fuzz --url`, `fuzzProcess()`). */
export { fuzzProcess, pool, runCase, type Judged, processCases, targetOf, determinismOf, type FuzzProcessOptions, type ProcessFinding, type ProcessFuzzReport, type ProcessTargetSpec } from './fuzzProcess.ts';
export { runPlan, type RealtimeRun, type RunPlanOptions } from '../real/runPlan.ts';
export { REUSE_NOTE, SharedConnection, type SharedCase } from '../real/sharedConnection.ts';
export { planArbitrary, type PlanConstraints } from '../workload/planArbitrary.ts';
export { describePlan, withoutCancels, type Anchor, type CancelHow, type Plan, type PlannedCall, type ServerRequestPolicy } from '../real/plan.ts';
export { formatProcessReport, processJunitReport, processMarkdownReport, processReportHead } from './processReportViews.ts';
export { readProcessReplayFile, type ProcessReplayFile } from './processReplayFile.ts';
export { rogueProcess, rogueVerdicts, formatRogueProcessTable, ROGUE_CANNOT_JUDGE, type RogueProcessReport, type RogueProcessRow, type RogueVerdict } from './rogueProcess.ts';
