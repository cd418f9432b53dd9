import { createHash } from 'node:crypto';
import type { CheckedRunner } from '../../src/campaign/runCampaign.ts';
import { coverage, finding, type Finding } from '../../src/model/index.ts';
import type { RunResult, Scenario } from '../../src/sim/index.ts';

/** Rules of a stand-in oracle: which invariant a case "breaks", read off the scenario alone. */
export const standInRules: { id: Parameters<typeof finding>[0]; fires: (s: Scenario) => boolean }[] = [
  { id: 'cancel.not-initialize', fires: (s) => s.actions.some((a) => a.kind === 'abort') },
  { id: 'timeout.max-total', fires: (s) => s.actions.some((a) => a.kind === 'call' && a.options.maxTotalTimeoutMs === 10) },
  { id: 'cancel.abort-swallowed', fires: (s) => s.profile === 'http' },
  { id: 'rpc.request-id-unique', fires: (s) => s.actions.filter((a) => a.kind === 'call').length >= 3 },
];

const hashOf = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('hex').slice(0, 16);

/** A runner that judges by `standInRules` without the simulator, with coverage that depends on the case. */
export const standInRunner: CheckedRunner = async (scenario, options) => {
  const findings: Finding[] = [];
  for (const r of standInRules) if (r.fires(scenario)) findings.push(finding(r.id, 0, `${r.id} (first)`), finding(r.id, 1, `${r.id} (second)`));
  const result = {
    trace: [],
    hash: hashOf([scenario, options.tape, options.seed]),
    outcome: { kind: scenario.actions.length > 3 ? 'step-budget' : 'quiescent' },
    steps: scenario.actions.length,
    virtualMs: 10,
    taken: options.tape ?? [],
    workloadDone: true,
  } as unknown as RunResult;
  const cov = coverage([]);
  cov.transitions[`actions ${scenario.actions.length}`] = 1;
  cov.transitions[`profile ${scenario.profile}`] = 1;
  return { result, findings, coverage: cov };
};
