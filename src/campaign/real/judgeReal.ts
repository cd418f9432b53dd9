import { judgeObserved } from '../../model/judgeObserved.ts';
import type { Plan } from '../../real/plan.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import { judgeClientCase } from '../../targets/client/judgeClientCase.ts';
import { judgeTestbed } from '../../targets/testbed/judgeTestbed.ts';
import type { RealBounds, TargetKind } from '../../targets/Target.ts';
import { answerOwnerOf, type CaseJudge, type CaseVerdict } from '../caseVerdict.ts';

/**
 * A user's server (a process or URL target), judged by the model from the frames alone
 * (`judgeObserved`): an SDK's answer to a cancelled request is the SDK's way (`answerOwnerOf`),
 * the rest is the target's own.
 */
export const judgeUserServer: CaseJudge = (trace, _plan, options) => {
  const verdict = judgeObserved(trace, options);
  return { ...verdict, findings: verdict.findings.map((f) => ({ ...f, owner: answerOwnerOf(f) })) };
};

/**
 * The oracle's verdict on one real-time run of `c` on a target of `kind`: the model on a real
 * clock with `bounds`, with a test bed's side channel where the target has one, or with the
 * client under test (an SDK's test-bed client, its side channel in the trace already);
 * `durations`, each call's duration in the same case without cancels, decides a result that
 * crossed its cancel.
 */
export function judgeReal(kind: TargetKind, trace: readonly TraceEvent[], c: unknown, bounds: RealBounds, durations?: ReadonlyMap<string, number>): CaseVerdict {
  const options = { clock: { kind: 'real' as const, ...bounds }, ...(durations && { durations }) };
  if (kind === 'client') return judgeClientCase(trace, options);
  return (kind === 'testbed' ? judgeTestbed : judgeUserServer)(trace, c as Plan, options);
}
