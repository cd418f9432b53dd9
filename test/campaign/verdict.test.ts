import { describe, expect, it } from 'vitest';
import type { RateCheck } from '../../src/campaign/rateCheck.ts';
import type { CampaignReport, FindingSummary } from '../../src/campaign/runCampaign.ts';
import type { KnownCauses } from '../../src/campaign/knownCauses.ts';
import { verdictOf } from '../../src/campaign/verdict.ts';
import { finding, type InvariantId } from '../../src/model/index.ts';

/** A finding of `id`; `fresh` unless known: found through a cause no baseline entry explains. */
const summary = (id: InvariantId, known: boolean): FindingSummary => {
  const example = finding(id, 1, 'found.');
  return { invariant: id, example, runs: 2, firstCase: 0, ...(!known && { fresh: { example, runs: 1, firstCase: 1, inBaselineCampaign: 1 } }) };
};
const report = (findings: FindingSummary[], checks: RateCheck[] = []) =>
  ({ findings, nondeterministic: [], rates: { checked: true, checks } }) as unknown as CampaignReport;
const failed = (r: CampaignReport, failOn: 'must' | 'should' | 'advice') => verdictOf(r, { failOn }).fresh.map((f) => f.invariant);

describe('check --fail-on: which findings beyond the baseline fail a campaign', () => {
  it('should fail on a new SHOULD finding by default (should), and not with --fail-on must', () => {
    const r = report([summary('timeout.settles', false)]);
    expect(failed(r, 'should')).toEqual(['timeout.settles']);
    expect(verdictOf(r, { failOn: 'should' }).failed).toBe(true);
    expect(failed(r, 'must')).toEqual([]);
    expect(verdictOf(r, { failOn: 'must' }).failed).toBe(false);
  });

  it('should fail on violations at every level, and on notes only with --fail-on advice', () => {
    const r = report([summary('cancel.not-initialize', false), summary('http.stateless-server-request', false)]);
    expect(failed(r, 'must')).toEqual(['cancel.not-initialize']);
    expect(failed(r, 'should')).toEqual(['cancel.not-initialize']);
    expect(failed(r, 'advice')).toEqual(['cancel.not-initialize', 'http.stateless-server-request']);
  });

  it('should never fail on findings every run of which a known cause explains', () => {
    const r = report([summary('timeout.settles', true), summary('cancel.not-initialize', true)]);
    expect(verdictOf(r, { failOn: 'advice' })).toEqual({ fresh: [], unconfirmed: [], regressions: [], failed: false });
  });

  it('should fail on a known cause whose rate rose significantly, at its severity', () => {
    const check = (invariant: InvariantId, severity: RateCheck['severity'], regression: boolean): RateCheck => ({
      cause: { invariant, variant: 'memory', shape: 'timeout', runs: 3 },
      severity,
      runs: 90,
      of: 300,
      expected: 0.45,
      pValue: regression ? 1e-30 : 0.5,
      regression,
    });
    const r = report([], [check('cancel.in-flight-only', 'violation', true), check('timeout.settles', 'warning', true), check('rpc.routing', 'violation', false)]);
    expect(verdictOf(r, { failOn: 'must' }).regressions.map((c) => c.cause.invariant)).toEqual(['cancel.in-flight-only']);
    expect(verdictOf(r, { failOn: 'should' }).regressions.map((c) => c.cause.invariant)).toEqual(['cancel.in-flight-only', 'timeout.settles']);
    expect(verdictOf(r, { failOn: 'should' }).failed).toBe(true);
  });

  it("should fail on a new cause of a known invariant inside the baseline's campaign, and outside it only when strict", () => {
    const known: KnownCauses = { causes: [{ invariant: 'timeout.settles', variant: 'memory', shape: 'timeout' }] };
    const outside = (id: InvariantId): FindingSummary => {
      const example = finding(id, 1, 'found.');
      return { invariant: id, example, runs: 3, firstCase: 0, fresh: { example, runs: 1, firstCase: 2500, inBaselineCampaign: 0 } };
    };
    const r = report([outside('timeout.settles'), outside('cancel.not-initialize')]);
    const lax = verdictOf(r, { failOn: 'should', known });
    // A known invariant's unseen cause outside the baseline's cases is reported, not failed; an unknown invariant fails.
    expect(lax.unconfirmed.map((f) => f.invariant)).toEqual(['timeout.settles']);
    expect(lax.fresh.map((f) => f.invariant)).toEqual(['cancel.not-initialize']);
    expect(verdictOf(r, { failOn: 'should', known, strictCauses: true }).fresh.map((f) => f.invariant)).toEqual(['timeout.settles', 'cancel.not-initialize']);
    const inside = report([summary('timeout.settles', false)]);
    expect(verdictOf(inside, { failOn: 'should', known }).fresh.map((f) => f.invariant)).toEqual(['timeout.settles']);
  });
});
