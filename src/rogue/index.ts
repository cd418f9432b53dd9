/** Rogue peer mode: a raw peer writes what the lifecycle model forbids toward a real SDK endpoint. */
export { runRogue, FOLLOW_UP_ID, HANG_TOOL, PENDING_CALL_ID, ROGUE_PROTOCOL_VERSION } from './runRogue.ts';
export type { FollowUp, RogueFraming, RogueRunOptions, RogueRunResult } from './runRogue.ts';
export { rogueKinds, request, notification, cancel, progress, result, hangCall, echoCall, samplingCall, OVERSIZED_CHARS } from './rogueFrames.ts';
export type { RogueExpectation, RogueKind } from './rogueFrames.ts';
export { judgeRogue } from './judgeRogue.ts';
export type { RogueReaction, RogueVerdict } from './judgeRogue.ts';
export { rogueCampaign, runKind, formatRogueTable } from './rogueCampaign.ts';
export type { RogueCampaignOptions, RogueCampaignResult, RogueFinding, RogueRow } from './rogueCampaign.ts';
export { TransportWrapper, StdioFraming } from './TransportWrapper.ts';
