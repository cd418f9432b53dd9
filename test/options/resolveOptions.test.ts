import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ACTIONS_MAX,
  DEFAULT_BASELINE_RUNS,
  DEFAULT_BASELINE_SHRINK_TIME_MS_MAX,
  DEFAULT_CAMPAIGN_RUNS,
  DEFAULT_CAMPAIGN_SEED,
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
      reproDir: DEFAULT_REPRO_DIR,
      jsonFile: undefined,
    });
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
      shrinkTimeMsMax: DEFAULT_BASELINE_SHRINK_TIME_MS_MAX,
      property: { seed: 5, runs: 6, workload: workloadDefaults, timeMsMax: DEFAULT_PROPERTY_TIME_MS_MAX },
      update: false,
      table: false,
    });
    expect(() => resolveBaselineOptions({ update: true, table: true }, {})).toThrow(/give --table or --update, not both/);
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
