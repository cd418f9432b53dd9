import { describe, expect, it } from 'vitest';
import { shapeOf, variantOf } from '../../src/campaign/cause.ts';
import { causesOf, isKnown, type KnownCauses } from '../../src/campaign/knownCauses.ts';
import { binomialUpperTail, rateChecks } from '../../src/campaign/rateCheck.ts';
import { runCampaign } from '../../src/campaign/runCampaign.ts';
import { caseAt } from '../../src/campaign/simCase.ts';
import { verdictOf } from '../../src/campaign/verdict.ts';
import { finding } from '../../src/model/index.ts';
import { resolveCampaignOptions, workloadKey } from '../../src/options/index.ts';
import { standInRunner } from './standIn.ts';

// The stand-in oracle finds cancel.not-initialize in every case with an abort (test/campaign/standIn.ts).
const options = resolveCampaignOptions({ seed: 7, runs: 400, shrink: false, workload: { profiles: ['memory', 'http'], actionsMax: 4 } }, {});
const cases = Array.from({ length: options.runs }, (_, i) => caseAt(options.seed, i, options.workload));
const aborting = cases.map((c, i) => ({ c, i })).filter(({ c }) => c.scenario.actions.some((a) => a.kind === 'abort'));
const onMemory = aborting.filter(({ c }) => variantOf(c.scenario) === 'memory');
const elsewhere = aborting.filter(({ c }) => variantOf(c.scenario) !== 'memory');
const memoryAbort: KnownCauses = { causes: [{ invariant: 'cancel.not-initialize', variant: 'memory', shape: 'abort' }] };

describe('known causes: a finding is known by cause (variant and features), not by invariant id', () => {
  it('should explain a finding whose case has every feature of a known minimal case on the same variant', () => {
    expect(onMemory.length).toBeGreaterThan(5);
    expect(elsewhere.length).toBeGreaterThan(5);
    const f = finding('cancel.not-initialize', 0, 'x');
    for (const { c } of onMemory) expect(causesOf(memoryAbort, c, f)).toEqual([0]);
    // Same invariant, another transport variant: another cause.
    for (const { c } of elsewhere) expect(isKnown(memoryAbort, c, f)).toBe(false);
    // A cause whose minimal case needs a feature this case lacks cannot be it.
    const withTimeout: KnownCauses = { causes: [{ invariant: 'cancel.not-initialize', variant: 'memory', shape: 'abort+timeout' }] };
    for (const { c } of onMemory) expect(isKnown(withTimeout, c, f)).toBe(shapeOf(c).has('timeout'));
    // Scripted conduct is never the SDK's: always known.
    expect(isKnown({ causes: [] }, onMemory[0]!.c, finding('cancel.zombie-work', 0, 'x'))).toBe(true);
  });

  it('should count a new cause of a known invariant as new, with its own first case, and fail check on it', async () => {
    const report = await runCampaign(options, { runner: standInRunner, known: memoryAbort });
    const f = report.findings.find((x) => x.invariant === 'cancel.not-initialize')!;
    expect(f.runs).toBe(aborting.length);
    expect(f.firstCase).toBe(aborting[0]!.i);
    expect(f.fresh).toMatchObject({ runs: elsewhere.length, firstCase: elsewhere[0]!.i });
    expect(report.causeRuns).toEqual([onMemory.length]);
    expect(verdictOf(report, { failOn: 'must' }).fresh.map((x) => x.invariant)).toContain('cancel.not-initialize');
    // Known on every variant: no longer fresh.
    const everywhere: KnownCauses = {
      causes: ['memory', 'http/stateful/sse', 'http/stateful/json', 'http/stateless/sse', 'http/stateless/json'].map((variant) => ({ invariant: 'cancel.not-initialize' as const, variant, shape: 'abort' })),
    };
    const again = await runCampaign(options, { runner: standInRunner, known: everywhere });
    expect(again.findings.find((x) => x.invariant === 'cancel.not-initialize')!.fresh).toBeUndefined();
  });

  it('should shrink a new cause to a case that stays new, not to the known cause', async () => {
    const report = await runCampaign({ ...options, shrink: true }, { runner: standInRunner, known: memoryAbort });
    const cx = report.findings.find((x) => x.invariant === 'cancel.not-initialize')!.counterexample!;
    expect(variantOf(cx.case.scenario)).not.toBe('memory');
    expect(cx.case.scenario.actions.map((a) => a.kind)).toContain('abort');
  });

  it('should flag a known cause firing far more often than its baseline rate, and not one firing as often', async () => {
    const rated = (runs: number): KnownCauses => ({
      causes: [{ ...memoryAbort.causes[0]!, runs }],
      rateCampaign: { seed: 1, runs: 10 * options.runs, workload: workloadKey(options.workload) },
    });
    const same = await runCampaign(options, { runner: standInRunner, known: rated(10 * onMemory.length) });
    expect(same.rates).toMatchObject({ checked: true, checks: [{ runs: onMemory.length, regression: false }] });
    const rare = await runCampaign(options, { runner: standInRunner, known: rated(1) });
    expect(rare.rates).toMatchObject({ checked: true, checks: [{ runs: onMemory.length, regression: true }] });
    expect(verdictOf(rare, { failOn: 'must' }).regressions).toHaveLength(1);
    // Another workload: the rates do not apply, and the report says why.
    const other = rateChecks(rated(1), [onMemory.length], options.runs, workloadKey({ ...options.workload, profiles: ['memory'] }));
    expect(other).toMatchObject({ checked: false, why: expect.stringMatching(/workload differs/) });
  });
});

describe('binomialUpperTail', () => {
  const direct = (n: number, p: number, k: number) => {
    let sum = 0;
    for (let i = k; i <= n; i++) {
      let c = 1;
      for (let j = 1; j <= i; j++) c *= (n - i + j) / j;
      sum += c * p ** i * (1 - p) ** (n - i);
    }
    return sum;
  };

  it('should equal the direct sum on small counts, and the edge cases', () => {
    for (const [n, p, k] of [[10, 0.3, 4], [20, 0.05, 3], [30, 0.5, 15], [7, 0.9, 7], [12, 0.13, 0]] as const) {
      expect(binomialUpperTail(n, p, k)).toBeCloseTo(direct(n, p, k), 12);
    }
    expect(binomialUpperTail(5, 0.5, 6)).toBe(0);
    expect(binomialUpperTail(5, 0, 1)).toBe(0);
  });

  it('should give tiny tails for large excesses without underflowing to nonsense', () => {
    const p = binomialUpperTail(248, 300 / 2300, 218);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-100);
  });
});
