import { describe, expect, it } from 'vitest';
import { globalsRestored } from '../../src/sim/realGlobals.ts';
import { runScenario } from '../../src/sim/runScenario.ts';
import { variedHttpRuns } from './varied.ts';

describe('http profile: deterministic (100 varied scenarios × tapes, seed 42, each run twice)', () => {
  it('should give the same trace hash on every re-run', async () => {
    const runs = variedHttpRuns(100);
    const modes = new Set(runs.map((r) => JSON.stringify(r.scenario.http)));
    expect(modes.size).toBe(8); // every stateful × response × eventStore combination is covered
    const differing: number[] = [];
    let httpEvents = 0;
    for (const [k, { scenario, tape }] of runs.entries()) {
      const a = await runScenario(scenario, { tape });
      const b = await runScenario(scenario, { tape });
      if (a.hash !== b.hash) differing.push(k);
      httpEvents += a.trace.filter((e) => e.kind.startsWith('http-') || e.kind.startsWith('sse-')).length;
      expect(a.trace.filter((e) => e.kind === 'escape')).toEqual([]);
    }
    expect(differing).toEqual([]);
    // Independent of what ran before: a third pass in reverse order gives the same hashes.
    const first = await Promise.resolve(runs.slice(0, 20)).then(async (rs) => {
      const hs: string[] = [];
      for (const { scenario, tape } of rs) hs.push((await runScenario(scenario, { tape })).hash);
      return hs;
    });
    for (let k = 19; k >= 0; k--) {
      const { scenario, tape } = runs[k]!;
      expect((await runScenario(scenario, { tape })).hash).toBe(first[k]);
    }
    expect(httpEvents).toBeGreaterThan(1000);
    expect(globalsRestored()).toEqual([]);
  });
});
