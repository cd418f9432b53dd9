/** Fuzz campaigns: generated cases, each run judged, every broken invariant shrunk to a minimal case. */
export { check, campaignOn, workersFor, type CampaignContext } from './check.ts';
export { addRecord, emptyTally, mergeTally, recordOf, runCampaign, runCases, shrinkCounterexample, summarize } from './runCampaign.ts';
export type {
  CampaignHooks,
  CampaignReport,
  CampaignTally,
  CaseExecutor,
  CheckedRunner,
  Counterexample,
  FindingSummary,
  RunRecord,
  StopReason,
} from './runCampaign.ts';
export { CampaignWorkers, WorkerFailure, type CampaignWorkersOptions } from './workerPool.ts';
export { formatRange, shardRange, type CaseRange } from './shard.ts';
export { mergeShards, MergeError, type CampaignDocument, type ShardInput } from './merge.ts';
export { sweepOn, type SweepResult } from './sweep.ts';
export { caseAt, caseSeed, simCaseArbitrary, type SimCase } from './simCase.ts';
export { minimize } from './minimize.ts';
export { readReplayFile, replayFile, type CaseOrigin, type ReplayFile } from './replayFile.ts';
