/** Rogue HTTP client: raw requests a correct Streamable HTTP client never sends, against the real SDK server transport. */
export { httpRogueCampaign, runHttpKind, formatHttpRogueTable } from './httpRogueCampaign.ts';
export type { HttpRogueCampaignOptions, HttpRogueCampaignResult, HttpRogueFinding, HttpRogueRow } from './httpRogueCampaign.ts';
export { httpRogueKinds, INFLIGHT_ID } from './httpRogueKinds.ts';
export type { HttpRogueExpectation, HttpRogueKind } from './httpRogueKinds.ts';
export { judgeHttpRogue } from './judgeHttpRogue.ts';
export type { HttpRogueVerdict } from './judgeHttpRogue.ts';
export { runHttpRogue, ECHO_TOOL, GATE_TOOL, HTTP_FOLLOW_UP_ID, HTTP_ROGUE_PROTOCOL_VERSION, HTTP_ROGUE_URL } from './runHttpRogue.ts';
export type { HandlerRecord, HttpAttack, HttpExchangeRecord, HttpFollowUp, HttpHandle, HttpRogueContext, HttpRogueRunOptions, HttpRogueRunResult, SessionName } from './runHttpRogue.ts';
export { answersGarbageWith200, answersGarbageWith500, neverAnswersGarbage } from './brokenHandlers.ts';
