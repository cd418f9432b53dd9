import { describe, expect, it } from 'vitest';
import { explore, explorePresets, type ExploreResult } from '../../src/explore/index.ts';

/** What the reduction must preserve: the causes found and the distinct end states. */
const reached = (r: ExploreResult) => ({ causes: r.findings.map((f) => f.cause).sort(), endStates: [...r.endStates] });

/** Presets whose unreduced enumeration completes in a few seconds: compared in full. */
const small = explorePresets.filter((p) => p.name !== 'two-http-clients-cancel');
/** Too big to enumerate unreduced (two HTTP handshakes interleave in tens of thousands of ways): compared against a prefix. */
const UNREDUCED_PREFIX_RUNS = 300;

describe('explore soundness: the reduced enumeration reaches what the unreduced one does', () => {
  it.each(small.map((p) => [p.name, p] as const))('%s: same causes and same distinct end states, in fewer schedules', async (_name, preset) => {
    const scope = { ...(preset.virtualMsMax !== undefined && { virtualMsMax: preset.virtualMsMax }) };
    const reduced = await explore(preset.scenario, { ...scope, reduce: true });
    const full = await explore(preset.scenario, { ...scope, reduce: false });
    expect(full.complete && reduced.complete).toBe(true);
    expect(reached(reduced)).toEqual(reached(full));
    expect(reduced.stats.schedules).toBeLessThan(full.stats.schedules);
    expect(reduced.stats.fallbacks).toBe(0);
  });

  it('two-http-clients-cancel: every cause and end state of the first 300 unreduced schedules is reached by the complete reduced enumeration', async () => {
    const preset = explorePresets.find((p) => p.name === 'two-http-clients-cancel')!;
    const scope = { virtualMsMax: preset.virtualMsMax! };
    const reduced = await explore(preset.scenario, { ...scope, reduce: true });
    const prefix = await explore(preset.scenario, { ...scope, reduce: false, runsMax: UNREDUCED_PREFIX_RUNS });
    expect(reduced.complete).toBe(true);
    expect(prefix.complete).toBe(false);
    const r = reached(reduced);
    for (const cause of reached(prefix).causes) expect(r.causes).toContain(cause);
    for (const end of prefix.endStates) expect(r.endStates).toContain(end);
  });
});
