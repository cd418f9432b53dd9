import { describe, expect, it } from 'vitest';
import type { CampaignReport, FindingSummary } from '../../src/campaign/runCampaign.ts';
import { verdictOf } from '../../src/cli/check.ts';
import { finding, type InvariantId } from '../../src/model/index.ts';

const summary = (id: InvariantId): FindingSummary => ({ invariant: id, example: finding(id, 1, 'found.'), runs: 1, firstCase: 0 });
const report = (...ids: InvariantId[]) => ({ findings: ids.map(summary), nondeterministic: [] }) as unknown as CampaignReport;
const failed = (r: CampaignReport, failOn: 'must' | 'should' | 'advice', known: InvariantId[] = []) =>
  verdictOf(r, new Set(known), failOn).fresh.map((f) => f.invariant);

describe('check --fail-on: which findings beyond the baseline fail a campaign', () => {
  it('should fail on a new SHOULD finding by default (should), and not with --fail-on must', () => {
    const r = report('timeout.settles');
    expect(failed(r, 'should')).toEqual(['timeout.settles']);
    expect(verdictOf(r, new Set()).failed).toBe(true);
    expect(failed(r, 'must')).toEqual([]);
  });

  it('should fail on violations at every level, and on notes only with --fail-on advice', () => {
    const r = report('cancel.not-initialize', 'http.stateless-server-request');
    expect(failed(r, 'must')).toEqual(['cancel.not-initialize']);
    expect(failed(r, 'should')).toEqual(['cancel.not-initialize']);
    expect(failed(r, 'advice')).toEqual(['cancel.not-initialize', 'http.stateless-server-request']);
  });

  it("should never fail on what the baseline lists, nor on a scripted handler's own conduct", () => {
    const r = report('timeout.settles', 'cancel.zombie-work', 'cancel.abort-swallowed');
    expect(failed(r, 'advice', ['timeout.settles'])).toEqual([]);
  });
});
