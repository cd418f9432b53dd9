import { describe, expect, it } from 'vitest';
import { JudgedCases } from '../../src/campaign/judgedCases.ts';
import { runCampaign, shrinkCounterexample, type CheckedRunner } from '../../src/campaign/runCampaign.ts';
import { caseAt, caseSeed } from '../../src/campaign/simCase.ts';
import { finding } from '../../src/model/index.ts';
import { resolveCampaignOptions } from '../../src/options/index.ts';
import { standInRunner } from './standIn.ts';

/** The stand-in runner, counting the runs it is asked for. */
function counted(): { runner: CheckedRunner; runs: () => number } {
  let runs = 0;
  return {
    runner: async (scenario, options) => {
      runs++;
      return standInRunner(scenario, options);
    },
    runs: () => runs,
  };
}

const options = resolveCampaignOptions({ seed: 99, runs: 10, workload: { actionsMax: 4 }, shrinkTimeMsMax: 5_000 }, {});

describe('JudgedCases', () => {
  it('JudgedCases: a case judged once is answered from the cache (same findings, one run)', async () => {
    const judged = new JudgedCases();
    const c = caseAt(7, 0, options.workload);
    let runs = 0;
    const run = async () => {
      runs++;
      return [finding('cancel.not-initialize', 0, 'x')];
    };
    const first = await judged.findings(c, run);
    const again = await judged.findings({ ...c, scenario: { ...c.scenario } }, run);
    expect(again).toBe(first);
    expect(runs).toBe(1);
    expect([judged.hits, judged.misses]).toEqual([1, 1]);
  });

  it("JudgedCases: equal runs share an entry (keys in another order, the tape's trailing zeros), other tapes and seeds do not", async () => {
    const judged = new JudgedCases();
    const c = caseAt(7, 1, options.workload);
    const run = async () => [];
    await judged.findings({ ...c, tape: [2, 0] }, run);
    const reordered = Object.fromEntries(Object.entries(c.scenario).reverse()) as typeof c.scenario;
    await judged.findings({ seed: c.seed, scenario: reordered, tape: [2, 0, 0, 0] }, run);
    expect(judged.misses).toBe(1);
    await judged.findings({ ...c, tape: [0, 2] }, run);
    await judged.findings({ ...c, tape: [2], seed: c.seed + 1 }, run);
    expect(judged.misses).toBe(3);
  });

  it('JudgedCases: when full, the oldest half goes and the newest stay (max 4)', async () => {
    const judged = new JudgedCases(4);
    const cases = Array.from({ length: 5 }, (_, i) => caseAt(7, i, options.workload));
    for (const c of cases) await judged.findings(c, async () => []);
    await judged.findings(cases[4]!, async () => []);
    expect(judged.hits).toBe(1);
    await judged.findings(cases[0]!, async () => []);
    expect(judged.misses).toBe(6);
  });

  it('shrinkCounterexample: with a cache, the same counterexample from fewer runs, and none for a shrink that repeats one (seed 99)', async () => {
    const report = await runCampaign(options, { runner: standInRunner });
    const f = report.findings[0]!;
    const task = { invariant: f.invariant, fcSeed: caseSeed(options.seed, f.firstCase) };
    const plain = counted();
    const without = await shrinkCounterexample(task, { runner: plain.runner, ...options });
    const cached = counted();
    const judged = new JudgedCases();
    const withCache = await shrinkCounterexample(task, { runner: cached.runner, ...options, judged });
    expect(withCache).toEqual(without);
    expect(cached.runs()).toBeLessThan(plain.runs());
    const before = cached.runs();
    expect(await shrinkCounterexample(task, { runner: cached.runner, ...options, judged })).toEqual(without);
    // The second shrink of the same task judges nothing new: only the final counterexample is run again.
    expect(cached.runs() - before).toBe(1);
  });

  it('runCampaign: shrinking with the shared cache gives the report shrinking without it gives (seed 99)', async () => {
    const report = await runCampaign(options, { runner: standInRunner });
    for (const f of report.findings) {
      const alone = await shrinkCounterexample({ invariant: f.invariant, fcSeed: caseSeed(options.seed, f.firstCase) }, { runner: standInRunner, ...options });
      expect(f.counterexample, f.invariant).toEqual(alone);
    }
  });
});
