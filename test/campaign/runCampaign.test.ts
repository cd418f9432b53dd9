import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runCampaign, type CheckedRunner } from '../../src/campaign/runCampaign.ts';
import { caseAt } from '../../src/campaign/simCase.ts';
import { coverage, finding, type Finding } from '../../src/model/index.ts';
import { resolveCampaignOptions, type CampaignOptions } from '../../src/options/index.ts';
import type { RunResult, Scenario } from '../../src/sim/index.ts';

/**
 * Rules of the stand-in runner: which invariant a case "breaks", read off the scenario alone, so
 * the expected report can be computed from `caseAt` without the simulator.
 */
const rules: { id: Parameters<typeof finding>[0]; fires: (s: Scenario) => boolean }[] = [
  // A violation (MUST): any abort.
  { id: 'cancel.not-initialize', fires: (s) => s.actions.some((a) => a.kind === 'abort') },
  // A warning (SHOULD): a call with a maximum total timeout of 10 ms.
  { id: 'timeout.max-total', fires: (s) => s.actions.some((a) => a.kind === 'call' && a.options.maxTotalTimeoutMs === 10) },
  // A note (ADVICE): the http profile.
  { id: 'cancel.abort-swallowed', fires: (s) => s.profile === 'http' },
  // Another violation, to test the order among equals: three or more calls.
  { id: 'rpc.request-id-unique', fires: (s) => s.actions.filter((a) => a.kind === 'call').length >= 3 },
];

const hashOf = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('hex').slice(0, 16);

/** A runner that judges by `rules`, counts its calls, and can be told to be nondeterministic. */
function standIn(opts: { flaky?: (callNo: number) => boolean } = {}) {
  const calls: Scenario[] = [];
  const runner: CheckedRunner = async (scenario, options) => {
    calls.push(scenario);
    const findings: Finding[] = [];
    for (const r of rules) {
      // Two findings of one invariant in one run: the campaign must count the run once.
      if (r.fires(scenario)) findings.push(finding(r.id, 0, `${r.id} (first)`), finding(r.id, 1, `${r.id} (second)`));
    }
    const salt = opts.flaky?.(calls.length) ? calls.length : 0;
    const result = {
      trace: [],
      hash: hashOf([scenario, options.tape, options.seed, salt]),
      outcome: { kind: 'quiescent' },
      steps: scenario.actions.length,
      virtualMs: 10,
      taken: options.tape ?? [],
      workloadDone: true,
    } as unknown as RunResult;
    return { result, findings, coverage: coverage([]) };
  };
  return { runner, calls };
}

const campaign = (input: CampaignOptions) => resolveCampaignOptions({ shrink: false, ...input }, {});

describe('runCampaign (stand-in runner)', () => {
  const options = campaign({ seed: 99, runs: 40, workload: { profiles: ['memory', 'http'], actionsMax: 4 } });
  const cases = Array.from({ length: options.runs }, (_, i) => caseAt(options.seed, i, options.workload));

  it('runs each case once and adds up runs, steps and outcomes', async () => {
    const { runner, calls } = standIn();
    const report = await runCampaign(options, { runner });
    expect(calls).toEqual(cases.map((c) => c.scenario));
    expect(report.runs).toBe(40);
    expect(report.seed).toBe(99);
    expect(report.workload).toEqual(options.workload);
    expect(report.outcomes).toEqual({ quiescent: 40 });
    expect(report.steps).toBe(cases.reduce((n, c) => n + c.scenario.actions.length, 0));
    expect(report.virtualMs).toBe(400);
  });

  it('reports each invariant once, with the runs it was found in and its first case', async () => {
    const report = await runCampaign(options, { runner: standIn().runner });
    const expected = rules
      .map((r) => {
        const hits = cases.flatMap((c, i) => (r.fires(c.scenario) ? [i] : []));
        return { invariant: r.id, runs: hits.length, firstCase: hits[0] };
      })
      .filter((e) => e.runs > 0);
    // The workload is broad enough that every rule fires somewhere and not everywhere.
    expect(expected.map((e) => e.invariant).sort()).toEqual(rules.map((r) => r.id).sort());
    expect(expected.every((e) => e.runs < 40)).toBe(true);
    expect(expected.some((e) => e.firstCase! > 0)).toBe(true);
    const got = report.findings.map((f) => ({ invariant: f.invariant, runs: f.runs, firstCase: f.firstCase }));
    expect(got).toEqual(expect.arrayContaining(expected));
    expect(got).toHaveLength(expected.length);
    // The example is the run's first finding of that invariant.
    for (const f of report.findings) expect(f.example.message).toBe(`${f.invariant} (first)`);
  });

  it('orders findings by severity (violations, warnings, notes), then by invariant id', async () => {
    const report = await runCampaign(options, { runner: standIn().runner });
    expect(report.findings.map((f) => f.invariant)).toEqual([
      'cancel.not-initialize',
      'rpc.request-id-unique',
      'timeout.max-total',
      'cancel.abort-swallowed',
    ]);
  });

  it('with selfCheck, runs every case twice and names the cases whose hash changed', async () => {
    // Calls alternate first run, second run: call 2k+1 and 2k+2 are case k. Salt the second run of cases 3 and 7.
    const { runner, calls } = standIn({ flaky: (n) => n === 8 || n === 16 });
    const report = await runCampaign({ ...options, selfCheck: true }, { runner });
    expect(calls).toHaveLength(80);
    expect(report.nondeterministic).toEqual([3, 7]);
  });

  it('with selfCheck and a deterministic runner, finds nothing nondeterministic', async () => {
    const report = await runCampaign({ ...options, selfCheck: true }, { runner: standIn().runner });
    expect(report.nondeterministic).toEqual([]);
  });

  it('with shrink off, runs nothing beyond the campaign and attaches no counterexample', async () => {
    const { runner, calls } = standIn();
    const progress: string[] = [];
    const report = await runCampaign(options, { runner, onProgress: (done, total, phase) => progress.push(`${phase} ${done}/${total}`) });
    expect(calls).toHaveLength(40);
    expect(report.findings.every((f) => f.counterexample === undefined)).toBe(true);
    expect(progress.filter((p) => p.startsWith('shrink'))).toEqual([]);
    expect(progress.at(-1)).toBe('run 40/40');
  });

  it('with shrink on, attaches a counterexample that still shows its invariant and is no larger than the first case', async () => {
    const shrinking = resolveCampaignOptions({ seed: 99, runs: 10, workload: { actionsMax: 4 }, shrinkTimeMsMax: 5_000 }, {});
    const { runner } = standIn();
    const report = await runCampaign(shrinking, { runner });
    expect(report.findings.length).toBeGreaterThan(0);
    for (const f of report.findings) {
      const cx = f.counterexample!;
      expect(cx, f.invariant).toBeDefined();
      const rule = rules.find((r) => r.id === f.invariant)!;
      expect(rule.fires(cx.case.scenario)).toBe(true);
      expect(cx.findings.some((x) => x.invariant === f.invariant)).toBe(true);
      const first = caseAt(shrinking.seed, f.firstCase, shrinking.workload);
      expect(cx.case.scenario.actions.length).toBeLessThanOrEqual(first.scenario.actions.length);
    }
    // "Any abort" shrinks to one call and its abort, and the natural order.
    const abort = report.findings.find((f) => f.invariant === 'cancel.not-initialize')?.counterexample;
    expect(abort).toBeDefined();
    expect(abort!.case.scenario.actions.map((a) => a.kind)).toEqual(['call', 'abort']);
    expect(abort!.case.tape).toEqual([]);
  });
});
