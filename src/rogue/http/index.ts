/**
 * Rogue HTTP client: raw requests a correct Streamable HTTP client never sends, against the real
 * SDK server transport. The run is recorded in the simulator's trace format and judged by the model.
 */
export { httpRogueCampaign, runHttpKind, formatHttpRogueTable } from './httpRogueCampaign.ts';
export type { HttpRogueCampaignOptions, HttpRogueCampaignResult, HttpRogueFinding, HttpRogueRow } from './httpRogueCampaign.ts';
export { httpRogueKinds, INFLIGHT_ID, ALWAYS_JUDGED_HTTP } from './httpRogueKinds.ts';
export type { HttpRogueKind, HttpRogueSpec } from './httpRogueKinds.ts';
export { runHttpRogue, ECHO_TOOL, GATE_TOOL, HTTP_FOLLOW_UP_ID, HTTP_ROGUE_PROTOCOL_VERSION, HTTP_ROGUE_URL } from './runHttpRogue.ts';
export type { HandlerRecord, HttpAttack, HttpExchangeRecord, HttpHandle, HttpRogueContext, HttpRogueRunOptions, HttpRogueRunResult, SessionName } from './runHttpRogue.ts';
export { answersGarbageWith200, answersGarbageWith500, losesSessionOnGarbage, neverAnswersGarbage } from './brokenHandlers.ts';
