import { judgeObserved } from '../../model/judgeObserved.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import type { CaseScript, RealJudging } from '../../targets/Target.ts';
import { answerOwnerOf, type CaseJudgeOptions, type CaseVerdict } from '../caseVerdict.ts';
import { scriptExplains } from '../conduct.ts';

/**
 * One real-time case judged by the oracle: the model on a real clock with the side the target
 * puts under test (`judgeObserved`), then whose each finding is. A finding the case's own script
 * explains (an SDK test bed's program: `scriptExplains`) is the script's; on a user's server an
 * SDK's answer to a cancelled request is the SDK's way (`answerOwnerOf`); the rest is the
 * target's own. What a target knows of itself comes in `judging` and `script`: no target judges.
 */
export function judgeCase(trace: readonly TraceEvent[], judging: RealJudging, options: CaseJudgeOptions, script?: (observed: readonly TraceEvent[]) => CaseScript): CaseVerdict {
  const verdict = judgeObserved(trace, { ...options, clock: { ...options.clock, underTest: judging.underTest }, ...(judging.facts && { facts: judging.facts }) });
  const scripted = script?.(verdict.trace);
  return {
    ...verdict,
    findings: verdict.findings.map((f) => {
      const explained = scripted && scriptExplains(f, scripted);
      if (explained !== undefined) return { ...f, owner: 'script' as const, explained };
      return { ...f, owner: judging.sdk === 'beneath' ? answerOwnerOf(f) : ('target' as const) };
    }),
  };
}
