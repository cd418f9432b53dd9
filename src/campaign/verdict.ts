import type { Finding } from '../model/finding.ts';
import type { FailOn } from '../options/index.ts';
import type { KnownCauses } from './knownCauses.ts';
import type { RateCheck } from './rateCheck.ts';
import type { CampaignReport, FindingSummary } from './runCampaign.ts';

/** The severities each `--fail-on` level fails on. */
export const failingSeverities: Readonly<Record<FailOn, ReadonlySet<Finding['severity']>>> = {
  must: new Set(['violation']),
  should: new Set(['violation', 'warning']),
  advice: new Set(['violation', 'warning', 'note']),
};

/** What fails a campaign, and whether it does. */
export interface Verdict {
  /** Invariants found through a cause no baseline entry explains, at `failOn` or above, that fail it. */
  readonly fresh: readonly FindingSummary[];
  /**
   * New causes of known invariants met only outside the baseline's own campaign, at `failOn` or
   * above: reported, failing only with `strictCauses` (the baseline never ran those cases).
   */
  readonly unconfirmed: readonly FindingSummary[];
  /** Known causes firing significantly more often than the baseline's rate, at `failOn` or above. */
  readonly regressions: readonly RateCheck[];
  readonly failed: boolean;
}

/** How strict a verdict is, and what it is judged against. */
export interface VerdictOptions {
  readonly failOn: FailOn;
  /** Fail on new causes of known invariants outside the baseline's campaign too. @default false */
  readonly strictCauses?: boolean;
  /** The baseline's causes: an invariant none of them names is new on every case. @default none known */
  readonly known?: KnownCauses;
}

/**
 * A campaign fails, at `failOn` or above, on a finding the baseline does not explain by cause
 * (`FindingSummary.fresh`): an invariant the baseline does not name at all, or a new cause of a
 * known one met in a case of the baseline's own campaign (where the baseline saw that very case
 * on the unchanged SDK), or anywhere with `strictCauses`; on a known cause whose rate rose
 * significantly (`CampaignReport.rates`); and on a nondeterministic case. Scripted conduct is
 * never fresh (`knownCauses.ts`).
 */
export function verdictOf(report: CampaignReport, options: VerdictOptions): Verdict {
  const failing = failingSeverities[options.failOn];
  const knownIds = new Set(options.known?.causes.map((c) => c.invariant));
  const candidates = report.findings.filter((f) => f.fresh && failing.has(f.example.severity));
  const confirmed = (f: FindingSummary) => options.strictCauses || !knownIds.has(f.invariant) || f.fresh!.inBaselineCampaign > 0;
  const fresh = candidates.filter(confirmed);
  const unconfirmed = candidates.filter((f) => !confirmed(f));
  const regressions = report.rates?.checked ? report.rates.checks.filter((c) => c.regression && failing.has(c.severity)) : [];
  return { fresh, unconfirmed, regressions, failed: fresh.length > 0 || regressions.length > 0 || report.nondeterministic.length > 0 };
}

/** A known cause as one phrase: `invariant on variant [shape]`. */
export const causeName = (c: RateCheck['cause']): string => `${c.invariant} on ${c.variant} [${c.shape}]`;
