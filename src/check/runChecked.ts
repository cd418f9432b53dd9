import { judge } from '../model/oracle.ts';
import { httpFindings } from '../sim/http/httpFindings.ts';
import type { Finding } from '../model/finding.ts';
import { endState as snapshotEnd, type EndState } from '../sim/endState.ts';
import { runScenario, type RunOptions, type RunResult } from '../sim/runScenario.ts';
import type { Scenario } from '../sim/scenario.ts';

export interface CheckedRun {
  readonly result: RunResult;
  /** Every broken invariant, in the order the oracle saw them. */
  readonly findings: readonly Finding[];
  /** The world at the end of the run (correlation maps, timers, signal listeners). */
  readonly endState: EndState;
}

/**
 * Runs `scenario` under `options` and judges it: the trace plus an end-of-run snapshot taken in
 * `atEnd` (chained after the caller's own `atEnd`, if any).
 */
export async function runChecked(scenario: Scenario, options: RunOptions = {}): Promise<CheckedRun> {
  let end: EndState | undefined;
  const result = await runScenario(scenario, {
    ...options,
    atEnd: (world) => {
      options.atEnd?.(world);
      end = snapshotEnd(world);
    },
  });
  if (!end) throw new Error('runChecked: runScenario returned without calling atEnd; the end state is unknown.');
  const findings = judge(result.trace, end);
  if (scenario.profile === 'http') findings.push(...httpFindings(result.trace, end.openExchanges));
  return { result, findings, endState: end };
}
