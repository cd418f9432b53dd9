import { describe, expect, it } from 'vitest';
import { clientBaselineOf, loadClientBaseline } from '../../src/targets/client/clientBaseline.ts';

const release = { language: 'typescript', sdk: '@modelcontextprotocol/sdk', version: '2.4.0' };

describe("an SDK client's baseline, as the fixed scenarios and the generated cases read it", () => {
  it('fixed scenarios: each entry of a scenario and transport run is a known cause, its shape the scenario', () => {
    const known = clientBaselineOf(release, [{ scenario: 'max-total', transport: 'stdio' }]).known;
    expect(known).toEqual([{ invariant: 'timeout.max-total', variant: 'stdio', shape: 'max-total' }]);
  });

  it('generated cases: only entries written with a generated shape are known (a fixed scenario names a question, not features)', () => {
    const generated = loadClientBaseline('typescript', '2.4.0')!.entries.filter((e) => e.shape !== undefined);
    expect(generated).toEqual([expect.objectContaining({ invariant: 'http.close-deletes-session', transport: 'http', shape: 'plain' })]);
    const baseline = clientBaselineOf(release, { generated: ['stdio', 'http'] });
    expect(baseline.known).toEqual([{ invariant: 'http.close-deletes-session', variant: 'http', shape: 'plain' }]);
    expect(baseline.summary).toMatch(/^1 known finding\(s\) in the generated cases/);
    expect(clientBaselineOf(release, { generated: ['stdio'] }).known).toEqual([]);
  });
});
