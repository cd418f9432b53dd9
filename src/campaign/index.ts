/** Fuzz campaigns: generated cases, each run judged, every broken invariant shrunk to a minimal case. */
export { check, campaignOn } from './check.ts';
export { runCampaign, shrinkCounterexample } from './runCampaign.ts';
export type { CampaignHooks, CampaignReport, CheckedRunner, Counterexample, FindingSummary } from './runCampaign.ts';
export { caseAt, caseSeed, simCaseArbitrary, type SimCase } from './simCase.ts';
export { minimize } from './minimize.ts';
export { readReplayFile, replayFile, type CaseOrigin, type ReplayFile } from './replayFile.ts';
