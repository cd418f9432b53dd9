import type { CaseJudgeOptions, CaseVerdict } from '../../campaign/caseVerdict.ts';
import { judgeObserved } from '../../model/judgeObserved.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import { CLIENT_SIDE_CHANNEL_FACTS } from './sideChannelFacts.ts';

/**
 * A client case judged by the model: its run as one trace (`clientTrace`: the scripted server's
 * wire log, the client's side channel), the client's own wire events added and walked on a real
 * clock with the client under test, so the rules that judge a simulated SDK client judge this one
 * (`JUDGED_ON_A_REAL_CLOCK.client`). Every finding is the client's own: mcp-sim's scripted server
 * is the harness, and its conduct is never judged.
 */
export function judgeClientCase(trace: readonly TraceEvent[], options: CaseJudgeOptions): CaseVerdict {
  const verdict = judgeObserved(trace, { ...options, clock: { ...options.clock, underTest: 'client' }, facts: CLIENT_SIDE_CHANNEL_FACTS });
  return { ...verdict, findings: verdict.findings.map((f) => ({ ...f, owner: 'target' as const })) };
}
