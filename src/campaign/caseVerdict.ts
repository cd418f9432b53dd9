/**
 * One black-box case's verdict, as every real-time campaign (a user's process or URL, an SDK test
 * bed) has it: the model's findings, each with whose conduct it shows.
 */
import type { RealClock } from '../model/clock.ts';
import type { AnswerReason, Finding } from '../model/finding.ts';
import type { Plan } from '../real/plan.ts';
import type { TraceEvent } from '../sim/trace.ts';

/**
 * Whose conduct a black-box finding shows: the target's own code (`target`: it counts), the
 * server SDK's way on a user's server (`sdk`: what the SDK adds, not what the author wrote;
 * `answerOwnerOf`), or mcp-sim's own script on an SDK test bed (`script`: `scriptExplains`).
 * The last two are listed apart and never fail a campaign.
 */
export type FindingOwner = 'target' | 'sdk' | 'script';

/** Whose a black-box finding is, and what says so: the answer's own words, or what in the script explains it. */
export interface Whose {
  /** Only the target's own fails a campaign; the SDK's way and the script's own are listed apart. */
  readonly owner: FindingOwner;
  /** What the answer said, where the finding is about an answer the server chose (`Finding.reason`). */
  readonly reason?: AnswerReason;
  /** `owner: 'script'`: what in the case's script explains it. */
  readonly explained?: string;
}

/** A finding of one black-box case, with whose it is. */
export type CaseFinding = Finding & Whose;

/** The `Whose` fields of a finding, for a campaign's finding built from it. */
export const whoseOf = (f: Whose): Whose => ({ owner: f.owner, ...(f.reason && { reason: f.reason }), ...(f.explained !== undefined && { explained: f.explained }) });

/** How a case is judged: its run's trace, the real clock's bounds and, once run, the counterfactual durations of its calls. */
export interface CaseJudgeOptions {
  readonly clock: RealClock;
  readonly durations?: ReadonlyMap<string, number>;
}

/** A case judged: the observed trace the model walked, its findings with whose each is, the calls only a counterfactual decides. */
export interface CaseVerdict {
  readonly trace: TraceEvent[];
  readonly findings: CaseFinding[];
  readonly undecided: readonly string[];
}

/**
 * How a case's trace is judged: by the model (`judgeObserved`), on the frames alone (a user's
 * process or URL, the default) or with what more a target tells of its server (a test bed's side
 * channel merged into the trace, its script's own findings told apart).
 */
export type CaseJudge = (trace: readonly TraceEvent[], plan: Plan, options: CaseJudgeOptions) => CaseVerdict;

/**
 * Whose a black-box finding is on a user's server (a process or URL target, `fuzz --stdio|--url`):
 * an answer to a cancelled request that is an error, or a tool result marked `isError` that says
 * it was cancelled, is how the server's SDK ends a cancelled call (the Python SDK's `-32800
 * Request cancelled`, go-sdk's `context canceled`), not what the author wrote. Such a finding
 * (`Finding.reason` tells) is listed apart and never fails the user's campaign; on an SDK test bed
 * it is the SDK's finding and counts.
 */
export function answerOwnerOf(f: Pick<Finding, 'invariant' | 'reason'>): Extract<FindingOwner, 'target' | 'sdk'> {
  if (f.invariant !== 'cancel.no-response-after' || !f.reason) return 'target';
  if (f.reason.answer === 'error') return 'sdk';
  return f.reason.answer === 'isError' && /cancel/i.test(f.reason.text) ? 'sdk' : 'target';
}
