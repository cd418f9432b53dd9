import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  AUTO_WORKER_RUNS_MIN,
  CAMPAIGN_RUNS_LIMIT,
  DEFAULT_ACTIONS_MAX,
  DEFAULT_BASELINE_RUNS,
  DEFAULT_BASELINE_SHRINK_TIME_MS_MAX,
  DEFAULT_CAMPAIGN_RUNS,
  DEFAULT_CAMPAIGN_SEED,
  DEFAULT_FAIL_ON,
  DEFAULT_STRICT_CAUSES,
  DEFAULT_PROPERTY_RUNS,
  DEFAULT_PROPERTY_TIME_MS_MAX,
  DEFAULT_REPRO_DIR,
  DEFAULT_SHRINK_TIME_MS_MAX,
  DEFAULT_STEPS_MAX,
  OptionError,
  resolveBaselineOptions,
  resolveCampaignOptions,
  resolvePropertyOptions,
  resolveReplayOptions,
  resolveWorkload,
  type CampaignOptions,
  DEFAULT_SPEC,
} from '../../src/options/index.ts';

const workloadDefaults = { actionsMax: DEFAULT_ACTIONS_MAX, stepsMax: DEFAULT_STEPS_MAX, serverRequests: true, faults: true, profiles: ['memory', 'http'] };

describe('resolveCampaignOptions', () => {
  it('fills in every default from defaults.ts', () => {
    expect(resolveCampaignOptions({}, {})).toEqual({
      seed: DEFAULT_CAMPAIGN_SEED,
      runs: DEFAULT_CAMPAIGN_RUNS,
      workload: workloadDefaults,
      shrink: true,
      shrinkTimeMsMax: DEFAULT_SHRINK_TIME_MS_MAX,
      selfCheck: false,
      failOn: DEFAULT_FAIL_ON,
      strictCauses: DEFAULT_STRICT_CAUSES,
      reproDir: DEFAULT_REPRO_DIR,
      jsonFile: undefined,
      // One worker per core, at most one per AUTO_WORKER_RUNS_MIN runs: 300 runs stay in process.
      workers: 1,
      workersAuto: true,
      shard: undefined,
      timeLimitSeconds: undefined,
      seeds: undefined,
      spec: DEFAULT_SPEC,
    });
  });

  it('resolves workers, shards, time limits and seed sweeps, and refuses bad ones with the fix', () => {
    const cores = availableParallelism();
    expect(resolveCampaignOptions({ runs: 100_000 }, {})).toMatchObject({ workers: cores, workersAuto: true });
    expect(resolveCampaignOptions({ runs: AUTO_WORKER_RUNS_MIN * 2 - 1 }, {}).workers).toBe(1);
    expect(resolveCampaignOptions({ runs: 10, workers: 3 }, {})).toMatchObject({ workers: 3, workersAuto: false });
    expect(resolveCampaignOptions({ runs: 2, workers: 3 }, {}).workers).toBe(2);
    expect(resolveCampaignOptions({ runs: 10, shard: '2/4' }, {}).shard).toEqual({ index: 2, count: 4 });
    expect(resolveCampaignOptions({ runs: 10, shard: { index: 1, count: 1 } }, {}).shard).toEqual({ index: 1, count: 1 });
    expect(resolveCampaignOptions({ timeLimitSeconds: 1.5 }, {})).toMatchObject({ timeLimitSeconds: 1.5, runs: CAMPAIGN_RUNS_LIMIT });
    expect(resolveCampaignOptions({ timeLimitSeconds: 60, runs: 7 }, {}).runs).toBe(7);
    expect(resolveCampaignOptions({ timeLimitSeconds: 60 }, { MCP_SIM_RUNS: '8' }).runs).toBe(8);
    expect(resolveCampaignOptions({ seeds: '4..6' }, {})).toMatchObject({ seeds: [4, 5, 6], seed: 4 });
    const message = (input: CampaignOptions) => {
      try {
        resolveCampaignOptions(input, {});
      } catch (e) {
        expect(e).toBeInstanceOf(OptionError);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(message({ shard: '3/2' })).toBe('--shard (shard) = "3/2": has shard index 3, outside 1 … 2. Fix: give an index from 1 to 2 (shards are numbered from 1).');
    expect(message({ shard: '0/2' })).toMatch(/^--shard \(shard\) = "0\/2": has shard index 0, outside 1 … 2/);
    expect(message({ shard: '1/0' })).toMatch(/needs a shard count N ≥ 1/);
    expect(message({ shard: 'half' })).toBe('--shard (shard) = "half": must be I/N: slice I of N (for example 2/4). Fix: give two whole numbers with a slash, such as --shard 1/4.');
    expect(message({ runs: 3, shard: '1/4' })).toMatch(/splits 3 run\(s\) into 4 shards, and every shard needs at least one run/);
    expect(message({ shard: '1/2', timeLimitSeconds: 5 })).toMatch(/^--time-limit \(timeLimitSeconds\) = 5: could cut a shard short, and merge needs every run of every shard/);
    expect(message({ shard: '1/2', seeds: '1..2' })).toMatch(/^--shard \(shard\) = "1\/2": splits one campaign, and --seeds runs several/);
    expect(message({ seeds: '1..2', seed: 3 })).toMatch(/^--seeds \(seeds\) = "1..2": is a sweep over seeds, and a single seed is given too/);
    expect(message({ seeds: '2..1' })).toMatch(/runs from 2 down to 1/);
    expect(message({ seeds: '1..5000' })).toMatch(/names 5000 seeds; a sweep runs at most 1000/);
    expect(message({ seeds: '1-3' })).toMatch(/must be a range A..B of seeds/);
    expect(message({ workers: 0 })).toMatch(/^--workers \(workers\) = 0: must be a whole number from 1 to 256/);
    expect(message({ timeLimitSeconds: 0 })).toMatch(/^--time-limit \(timeLimitSeconds\) = 0: must be a number of seconds > 0/);
  });

  it('reads MCP_SIM_SEED and MCP_SIM_RUNS from the env it is given; explicit options win', () => {
    const env = { MCP_SIM_SEED: '12', MCP_SIM_RUNS: ' 34 ' };
    expect(resolveCampaignOptions({}, env)).toMatchObject({ seed: 12, runs: 34 });
    expect(resolveCampaignOptions({ seed: 1, runs: 2 }, env)).toMatchObject({ seed: 1, runs: 2 });
    expect(resolveCampaignOptions({}, { MCP_SIM_SEED: '', MCP_SIM_RUNS: '' })).toMatchObject({ seed: DEFAULT_CAMPAIGN_SEED, runs: DEFAULT_CAMPAIGN_RUNS });
  });

  it('rejects bad values with an OptionError naming option, value, rule and fix', () => {
    const error = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as OptionError;
      }
      throw new Error('no error');
    };
    const e = error(() => resolveCampaignOptions({ runs: 0 }, {}));
    expect(e).toBeInstanceOf(OptionError);
    expect(e.message).toBe(`--runs (runs) = 0: must be a whole number from 1 to 10000000. Fix: give a whole number from 1 to 10000000, or leave it out for the default ${DEFAULT_CAMPAIGN_RUNS}.`);
    expect(error(() => resolveCampaignOptions({}, { MCP_SIM_RUNS: '-3' })).message).toMatch(/^MCP_SIM_RUNS \(environment, for runs\) = "-3": must be a whole number/);
    expect(error(() => resolveCampaignOptions({ seed: 2 ** 32 }, {})).message).toMatch(/^--seed \(seed\) = 4294967296: must be a whole number from 0 to 4294967295/);
    expect(error(() => resolveCampaignOptions({ shrink: false, shrinkTimeMsMax: 5 }, {})).message).toMatch(/^shrinkTimeMsMax = 5: is a shrinking budget, and shrink is off/);
    expect(error(() => resolveCampaignOptions({ workload: { stepsMax: -1 } }, {})).message).toMatch(/^--steps-max \(workload\.stepsMax\) = -1/);
    expect(error(() => resolveCampaignOptions({ workload: { profiles: [] } }, {})).message).toMatch(/^--profiles \(workload\.profiles\) = \[\]: must name at least one transport profile/);
    expect(error(() => resolveCampaignOptions({ workload: { actionMax: 3 } as never }, {})).message).toMatch(/^workload = \["actionMax"\]: has unknown field\(s\) actionMax/);
    expect(error(() => resolveCampaignOptions({ selfCheck: 'yes' as never }, {})).message).toMatch(/^--self-check \(selfCheck\) = "yes": must be true or false/);
  });
});

describe('resolveReplayOptions', () => {
  it('resolves each of the three sources, with the default workload for a campaign case', () => {
    expect(resolveReplayOptions({ file: 'x.json' }).source).toEqual({ kind: 'file', file: 'x.json' });
    expect(resolveReplayOptions({ baselineEntry: ' a b c ' }).source).toEqual({ kind: 'baseline', entry: 'a b c' });
    expect(resolveReplayOptions({ seed: 3, caseIndex: 4 }).source).toEqual({ kind: 'case', seed: 3, caseIndex: 4, workload: workloadDefaults });
    expect(resolveReplayOptions({ seed: 3, caseIndex: 4, workload: { faults: false } }).source).toMatchObject({ workload: { ...workloadDefaults, faults: false } });
    expect(resolveReplayOptions({ file: 'x.json' })).toMatchObject({ full: false, mermaid: false, selfCheck: false });
  });

  it('refuses no source, two sources, half a case and workload bounds without a case', () => {
    expect(() => resolveReplayOptions({})).toThrow(/must be named/);
    expect(() => resolveReplayOptions({ file: 'x', baselineEntry: 'y' })).toThrow(/one way, not several/);
    expect(() => resolveReplayOptions({ caseIndex: 2 })).toThrow(/^--seed \(seed\) unset: must come with --case/);
    expect(() => resolveReplayOptions({ file: 'x', workload: { profiles: ['http'] } })).toThrow(/^--profiles \(workload\) .* only applies to --seed\/--case/);
    // An empty workload (no flag given) is no workload.
    expect(() => resolveReplayOptions({ file: 'x', workload: {} })).not.toThrow();
  });
});

describe('resolveBaselineOptions and resolvePropertyOptions', () => {
  it('baseline: its own runs and shrink budget; the seed is not read from the env, the property part is', () => {
    const env = { MCP_SIM_SEED: '5', MCP_SIM_RUNS: '6' };
    expect(resolveBaselineOptions({}, env)).toEqual({
      seed: DEFAULT_CAMPAIGN_SEED,
      runs: DEFAULT_BASELINE_RUNS,
      workload: workloadDefaults,
      spec: DEFAULT_SPEC,
      shrinkTimeMsMax: DEFAULT_BASELINE_SHRINK_TIME_MS_MAX,
      property: { seed: 5, runs: 6, workload: workloadDefaults, timeMsMax: DEFAULT_PROPERTY_TIME_MS_MAX },
      update: false,
      table: false,
    });
    expect(() => resolveBaselineOptions({ update: true, table: true }, {})).toThrow(/give --table or --update, not both/);
    // Another rule set's baseline runs that rule set's workload, and refuses a flag that contradicts it.
    const modern = resolveBaselineOptions({ spec: '2026-07-28' }, {});
    expect(modern).toMatchObject({ spec: '2026-07-28', workload: { profiles: ['http-2026'], serverRequests: false } });
    expect(() => resolveBaselineOptions({ spec: '2026-07-28', workload: { profiles: ['memory'] } }, {})).toThrow(/--spec 2026-07-28 runs http-2026 only/);
  });

  it('property: defaults, env overrides, and a rule for each', () => {
    expect(resolvePropertyOptions({}, {})).toEqual({ seed: DEFAULT_CAMPAIGN_SEED, runs: DEFAULT_PROPERTY_RUNS, workload: workloadDefaults, timeMsMax: DEFAULT_PROPERTY_TIME_MS_MAX });
    expect(resolvePropertyOptions({}, { MCP_SIM_RUNS: '1000' }).runs).toBe(1000);
    expect(() => resolvePropertyOptions({}, { MCP_SIM_SEED: 'abc' })).toThrow(/^MCP_SIM_SEED \(environment, for property\.seed\) = "abc"/);
  });
});

describe('resolveWorkload', () => {
  it('keeps the order of profiles (it changes the cases drawn) and freezes the result', () => {
    const w = resolveWorkload({ profiles: ['http', 'memory'] });
    expect(w.profiles).toEqual(['http', 'memory']);
    expect(Object.isFrozen(w)).toBe(true);
  });
});
