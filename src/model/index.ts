/** The lifecycle model and oracle: judge a run's trace, count coverage, list legal caller actions. */
export { judge, judgeWithCoverage, type JudgeOptions } from './judge.ts';
export { classifyFrame } from '../util/jsonrpc.ts';
export { racePairs, type RacePair } from './racePairs.ts';
export { addCoverage, coverage, mergeCoverage, type Coverage } from './coverage.ts';
export type { SessionView } from './walker.ts';
export { legalActions, isLegal, sessionView, type LegalAction } from './legalActions.ts';
export { requesterMachine, receiverMachine, stateKey } from './requestMachine.ts';
export { sessionMachine } from './sessionMachine.ts';
export { invariants, invariant, type Invariant, type InvariantId, type Level } from './invariants.ts';
export { finding, severityOf, type Finding } from './finding.ts';
