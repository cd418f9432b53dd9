import type { FailOn } from '../../options/campaignOptions.ts';
import type { RealCampaignReport, RealFinding } from './realCampaign.ts';

/** The severities each `--fail-on` level fails on. */
const FAILING: Readonly<Record<FailOn, ReadonlySet<RealFinding['severity']>>> = {
  must: new Set(['violation']),
  should: new Set(['violation', 'warning']),
  advice: new Set(['violation', 'warning', 'note']),
};

/** What a real-time campaign decides: the findings that fail it, at which level. */
export interface RealVerdict {
  readonly failed: boolean;
  readonly failOn: FailOn;
  /** Confirmed, not a known cause of the baseline, at or above `failOn`. */
  readonly failing: readonly RealFinding[];
}

/**
 * The verdict of a real-time campaign: it fails on a finding of the target's own (`owner`) that reproduced at least once again
 * (an unconfirmed one is listed, never failing: a stall of the machine looks the same once), that
 * no known cause of the target's baseline explains, at or above `failOn`.
 */
export function realVerdict(report: Pick<RealCampaignReport, 'findings'>, failOn: FailOn): RealVerdict {
  // Only the target's own: the server SDK's way on a user's server and a test bed's script's own are listed apart.
  const failing = report.findings.filter((f) => f.confirmed && !f.known && f.owner === 'target' && FAILING[failOn].has(f.severity));
  return { failed: failing.length > 0, failOn, failing };
}
