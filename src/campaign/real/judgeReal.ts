import type { Finding } from '../../model/finding.ts';
import { judgeWire } from '../../model/wireJudge.ts';
import type { Plan } from '../../real/plan.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import { judgeTestbed } from '../../targets/testbed/judgeTestbed.ts';
import type { RealBounds, TargetKind } from '../../targets/Target.ts';

/** A real run judged: its findings, what the SDK did by its own policy, and the trace as judged. */
export interface JudgedRun {
  readonly findings: readonly Finding[];
  readonly policy: readonly { readonly at: number; readonly call: string; readonly message: string }[];
  /** Calls whose result crossed their cancel and need the counterfactual (the same case without cancels) to be judged. */
  readonly undecided: readonly string[];
  readonly trace: readonly TraceEvent[];
}

/**
 * The oracle's verdict on one real-time run of `c` on a target of `kind`; `durations`, each
 * call's duration in the same case without cancels, decides a result that crossed its cancel.
 */
export function judgeReal(kind: TargetKind, trace: readonly TraceEvent[], c: unknown, bounds: RealBounds, durations?: ReadonlyMap<string, number>): JudgedRun {
  const options = { ...bounds, ...(durations && { durations }) };
  if (kind === 'testbed') {
    const judged = judgeTestbed(trace, c as Plan, options);
    return { findings: judged.verdict.findings, policy: judged.verdict.policy, undecided: judged.verdict.undecided, trace: judged.trace };
  }
  const verdict = judgeWire(trace, options);
  return { findings: verdict.findings, policy: verdict.policy, undecided: verdict.undecided, trace };
}
