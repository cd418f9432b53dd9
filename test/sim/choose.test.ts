import { describe, expect, it } from 'vitest';
import { explorePresets } from '../../src/explore/index.ts';
import { dependent, type Footprint } from '../../src/sim/footprint.ts';
import { runScenario, ScenarioError } from '../../src/sim/index.ts';

describe('runScenario: a chooser in place of the tape (explore)', () => {
  it.each(explorePresets.map((p) => [p.name, p] as const))('%s: choosing the first action is the natural order, same trace hash, and taken replays it', async (_name, preset) => {
    const natural = await runScenario(preset.scenario);
    const chosen = await runScenario(preset.scenario, { choose: () => 0 });
    expect(chosen.hash).toBe(natural.hash);
    const last = await runScenario(preset.scenario, { choose: (enabled) => enabled.length - 1, maxSteps: 60 });
    const replayed = await runScenario(preset.scenario, { tape: [...last.taken], maxSteps: 60 });
    expect(replayed.hash).toBe(last.hash);
  });

  it('refuses an index that names no enabled action', async () => {
    await expect(runScenario(explorePresets[0]!.scenario, { choose: (enabled) => enabled.length })).rejects.toThrow(ScenarioError);
  });

  it('footprints: keys carry no global counter, and a timer is dependent on every action', async () => {
    const seen: Footprint[] = [];
    await runScenario(explorePresets.find((p) => p.name === 'progress-response-timeout')!.scenario, {
      choose: (enabled) => {
        seen.push(...enabled);
        return 0;
      },
    });
    const timer = seen.find((f) => f.key.startsWith('timer:'))!;
    expect(timer.key).toMatch(/^timer:\w+@\d+$/);
    expect(seen.every((f) => dependent(timer, f))).toBe(true);
    const deliveries = seen.filter((f) => f.key.startsWith('deliver:'));
    expect(new Set(deliveries.map((f) => f.key))).toEqual(new Set(['deliver:1:→server', 'deliver:1:→client']));
    // A delivery to the server and one to the client touch different endpoints: they commute.
    expect(dependent(deliveries.find((f) => f.key.endsWith('server'))!, deliveries.find((f) => f.key.endsWith('client'))!)).toBe(false);
  });
});
