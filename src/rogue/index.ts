/**
 * Rogue peer mode: a raw peer writes what the lifecycle model forbids toward a real SDK endpoint.
 * The peers only send and run; the model judges their traces (`judge()` with the rogue's side).
 */
export { runRogue, FOLLOW_UP_ID, HANG_TOOL, PENDING_CALL_ID, ROGUE_PROTOCOL_VERSION } from './runRogue.ts';
export type { RogueFraming, RogueRunOptions, RogueRunResult } from './runRogue.ts';
export { rogueKinds, request, notification, cancel, progress, result, hangCall, echoCall, samplingCall, OVERSIZED_CHARS, ALWAYS_JUDGED } from './rogueFrames.ts';
export type { RogueExpectation, RogueKind } from './rogueFrames.ts';
export { describeReaction } from './reaction.ts';
export type { RogueReaction, RogueReactionSummary } from './reaction.ts';
export { rogueCampaign, runKind, formatRogueTable, countedFindings } from './rogueCampaign.ts';
export type { RogueCampaignOptions, RogueCampaignResult, RogueFinding, RogueRow } from './rogueCampaign.ts';
export { TransportWrapper, StdioFraming } from './TransportWrapper.ts';
