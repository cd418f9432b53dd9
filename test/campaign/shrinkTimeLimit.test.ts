import { describe, expect, it } from 'vitest';
import { runCampaign, shrinkCounterexample, type CheckedRunner } from '../../src/campaign/runCampaign.ts';
import { caseSeed } from '../../src/campaign/simCase.ts';
import { resolveCampaignOptions } from '../../src/options/index.ts';
import { standInRunner } from './standIn.ts';

/** The stand-in runner taking `ms` of real time per run, and failing a run that starts while another one is running. */
function slowExclusive(ms: number): CheckedRunner {
  let running = false;
  return async (scenario, options) => {
    if (running) throw new Error('another run is in progress');
    running = true;
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return await standInRunner(scenario, options);
    } finally {
      running = false;
    }
  };
}

describe('shrinkCounterexample under its time limit', () => {
  it('shrinkCounterexample: a run the time limit interrupted ends before the next shrink runs (limit 5 ms, runs of 30 ms)', async () => {
    const options = resolveCampaignOptions({ seed: 99, runs: 10, workload: { actionsMax: 4 }, shrinkTimeMsMax: 5 }, {});
    const report = await runCampaign({ ...options, shrink: false }, { runner: standInRunner });
    const runner = slowExclusive(30);
    const tasks = report.findings.slice(0, 2).map((f) => ({ invariant: f.invariant, fcSeed: caseSeed(options.seed, f.firstCase) }));
    expect(tasks).toHaveLength(2);
    for (const task of tasks) await expect(shrinkCounterexample(task, { runner, ...options })).resolves.not.toThrow();
  });
});
