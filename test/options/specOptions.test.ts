import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC, resolveCampaignOptions, resolveReplayOptions, resolveSpec, workloadUnderSpec } from '../../src/options/index.ts';

describe('the --spec option (resolveSpec, workloadUnderSpec)', () => {
  it('should default to the session era and leave its workload as it is', () => {
    expect(resolveSpec(undefined)).toBe(DEFAULT_SPEC);
    expect(DEFAULT_SPEC).toBe('2025-11-25');
    expect(resolveCampaignOptions({}).workload.profiles).toEqual(['memory', 'http']);
    expect(resolveCampaignOptions({}).spec).toBe('2025-11-25');
  });

  it('should run 2026-07-28 on profile http-2026 only, without server-to-client requests', () => {
    const options = resolveCampaignOptions({ spec: '2026-07-28' });
    expect(options.spec).toBe('2026-07-28');
    expect(options.workload.profiles).toEqual(['http-2026']);
    expect(options.workload.serverRequests).toBe(false);
    expect(workloadUnderSpec('2026-07-28', { profiles: ['http-2026'], actionsMax: 3 })).toMatchObject({ actionsMax: 3, profiles: ['http-2026'] });
  });

  it('should refuse an unknown revision, a session-era profile and server requests under 2026-07-28', () => {
    expect(() => resolveSpec('2026')).toThrow(/--spec \(spec\) = "2026": is no rule set mcp-sim has/);
    expect(() => resolveCampaignOptions({ spec: '2026-07-28', workload: { profiles: ['http'] } })).toThrow(/names http, which speak revision 2025-11-25/);
    expect(() => resolveCampaignOptions({ spec: '2026-07-28', workload: { serverRequests: true } })).toThrow(/asks for server-to-client requests, which revision 2026-07-28 does not have/);
  });

  it('should shape a case replay\'s workload, and refuse --spec with a replay file (its profile names its rules)', () => {
    const byCase = resolveReplayOptions({ seed: 1, caseIndex: 2, spec: '2026-07-28' });
    expect(byCase.source).toMatchObject({ kind: 'case', workload: { profiles: ['http-2026'], serverRequests: false } });
    expect(() => resolveReplayOptions({ file: 'x.json', spec: '2026-07-28' })).toThrow(/--spec \(spec\) = "2026-07-28": only applies to --seed\/--case/);
  });
});
