/** The lifecycle model and oracle: judge a run's trace, count coverage, list legal caller actions. */
export { judge, classifyFrame, racePairs, SDK_DEFAULT_TIMEOUT_MS } from './oracle.ts';
export type { Coverage, RacePair, SessionView } from './oracle.ts';
export { coverage, mergeCoverage } from './coverage.ts';
export { legalActions, isLegal, sessionView, type LegalAction } from './legalActions.ts';
export { requesterMachine, receiverMachine, stateKey } from './requestMachine.ts';
export { sessionMachine } from './sessionMachine.ts';
export { invariants, invariant, type Invariant, type InvariantId, type Level } from './invariants.ts';
export { finding, severityOf, type Finding } from './finding.ts';
