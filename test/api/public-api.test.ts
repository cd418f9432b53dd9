import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.ts';

const oneCall: api.Scenario = {
  profile: 'memory',
  handlers: { slow: { steps: [{ kind: 'progress', progress: 1 }], end: { kind: 'result' }, onAbort: 'honour' } },
  actions: [{ kind: 'call', call: 'c1', method: 'tools/call', handler: 'slow', options: { onprogress: true, timeoutMs: 1_000 } }],
};

describe('Public API: src/index.ts, the package entry', () => {
  it('should run, judge and replay one scenario through the exported names only', async () => {
    const sdk = await api.defaultSdk();
    const checked = await api.runChecked(oneCall, { sdk, tape: [] });
    expect(checked.result.outcome.kind).toBe('quiescent');
    expect(api.judge(checked.result.trace, checked.endState, { facts: sdk.facts })).toEqual(checked.findings);
    const again = await api.runScenario(oneCall, { sdk });
    expect(again.hash).toBe(checked.result.hash);
    expect(api.globalsRestored()).toEqual([]);
  });

  it('should run a small campaign with check(), drawing the same cases as caseAt', async () => {
    const report = await api.check({ seed: 7, runs: 5, shrink: false, workload: { profiles: ['memory'] } }, { env: {} });
    expect(report.seed).toBe(7);
    expect(report.runs).toBe(5);
    expect(report.outcomes.quiescent ?? 0).toBeGreaterThan(0);
    const first = api.caseAt(7, 0, report.workload);
    expect(first.scenario.profile).toBe('memory');
  });

  it('should name the compiled entry and its declarations in package.json exports, and ship them', async () => {
    const { default: pkg } = await import('../../package.json', { with: { type: 'json' } });
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(pkg.files).toEqual(expect.arrayContaining(['bin', 'dist', 'properties/baselines']));
    // dist/ is what `npm test` and `npm pack` build first (pretest, prepack): the compiled API is the source's.
    const compiled = (await import(new URL('../../dist/index.js', import.meta.url).href)) as Record<string, unknown>;
    expect(Object.keys(compiled).sort()).toEqual(Object.keys(api).sort());
  });
});
