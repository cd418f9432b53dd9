/** The lifecycle model and oracle: judge a run's trace, count coverage, list legal caller actions. */
export { judge, judgeWithCoverage, type JudgeOptions } from './judge.ts';
export { classifyFrame } from '../util/jsonrpc.ts';
export { racePairs, type RacePair } from './racePairs.ts';
export { addCoverage, coverage, mergeCoverage, type Coverage } from './coverage.ts';
export type { SessionView } from './walker.ts';
export { legalActions, isLegal, sessionView, type LegalAction } from './legalActions.ts';
export { requesterMachine, receiverMachine, stateKey } from './requestMachine.ts';
export { sessionMachine } from './sessionMachine.ts';
export { blamesInterleaving, invariants, invariant, type Invariant, type InvariantId, type Level } from './invariants.ts';
export { finding, reasonOf, severityOf, type AnswerReason, type Finding, type RootCause, type Subjects } from './finding.ts';
export { attribute, isKnockOn, knockOnTable, type KnockOnRow } from './attribution.ts';
export { judgeBlame, showsSymptom, symptomOf, withoutRace, type BlameVerdict, type Counterfactual, type Symptom } from './blame.ts';
export { MODERN_ERA, notJudgedIn2026, notJudgedUnder, SESSION_ERA, specOf, SPEC_REVISIONS, type SpecRevision } from './specRevision.ts';
export { JUDGED_ON_A_REAL_CLOCK, VIRTUAL_CLOCK, isReal, type Clock, type RealClock } from './clock.ts';
export { observedTrace, answersCancel, type ObserveOptions, type ObservedRun } from './observedTrace.ts';
export { judgeObserved, REAL_CLIENT_FACTS, type ObservedVerdict } from './judgeObserved.ts';
