import { describe, expect, it } from 'vitest';
import { DEFAULT_CAMPAIGN_SEED, DEFAULT_FUZZ_FAIL_ON, DEFAULT_FUZZ_RUNS, OptionError, resolveFuzzOptions } from '../../src/options/index.ts';

describe('resolveFuzzOptions: mcp-sim fuzz flags and environment', () => {
  it('fills every default, and reads MCP_SIM_RUNS and MCP_SIM_SEED', () => {
    const r = resolveFuzzOptions({ module: 'server.js' }, {});
    expect(r).toMatchObject({ runs: DEFAULT_FUZZ_RUNS, seed: DEFAULT_CAMPAIGN_SEED, failOn: DEFAULT_FUZZ_FAIL_ON, shrink: true, replay: undefined, config: {} });
    expect(resolveFuzzOptions({ module: 'server.js' }, { MCP_SIM_RUNS: '7', MCP_SIM_SEED: '3' })).toMatchObject({ runs: 7, seed: 3 });
  });

  it('parses --config as JSON text', () => {
    expect(resolveFuzzOptions({ module: 's.js', config: '{"apiKey":"test"}' }, {}).config).toEqual({ apiKey: 'test' });
  });

  it('rejects bad values and combinations, naming the flag and the fix', () => {
    expect(() => resolveFuzzOptions({ module: 's.js', failOn: 'never' }, {})).toThrow(/--fail-on .*must be one of must, should, advice/);
    expect(() => resolveFuzzOptions({ module: 's.js', replayFile: 'a.json', caseIndex: 1 }, {})).toThrow(/--case .*cannot be used with --replay/);
    expect(() => resolveFuzzOptions({ module: 's.js', expect: 'cancel.zombie-work' }, {})).toThrow(/--expect .*applies to a replay only/);
    expect(() => resolveFuzzOptions({ module: 's.js', config: '{nope' }, {})).toThrow(OptionError);
    expect(() => resolveFuzzOptions({ module: 's.js', argsFile: 'no/such/file.json' }, {})).toThrow(/--args .*names no readable file/);
  });
});
