import type { TraceEvent } from '../../sim/trace.ts';
import type { RealBounds, RealTarget } from '../../targets/Target.ts';
import type { CaseVerdict } from '../caseVerdict.ts';
import { judgeCase } from './judgeCase.ts';

/**
 * The oracle's verdict on one real-time run of `c` on `target`: the model on a real clock with
 * `bounds` (`judgeCase`); `durations`, each call's duration in the same case without cancels,
 * decides a result that crossed its cancel.
 */
export function judgeReal<Case>(target: Pick<RealTarget<Case>, 'judging' | 'script'>, trace: readonly TraceEvent[], c: Case, bounds: RealBounds, durations?: ReadonlyMap<string, number>): CaseVerdict {
  const script = target.script;
  return judgeCase(trace, target.judging, { clock: { kind: 'real', ...bounds }, ...(durations && { durations }) }, script && ((observed) => script(c, observed, bounds)));
}
