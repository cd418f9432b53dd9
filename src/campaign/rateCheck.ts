import { invariant } from '../model/invariants.ts';
import { severityOf, type Finding } from '../model/finding.ts';
import type { KnownCause, KnownCauses } from './knownCauses.ts';

/**
 * The significance below which a known cause firing more often than its baseline rate is a
 * regression. Small on purpose: a campaign tests every cause of the baseline (about 150), a
 * sweep does it per seed, and a false alarm costs a user more than a late catch. @default 1e-6
 */
export const RATE_ALPHA = 1e-6;

/** How often one known cause fired in a campaign, against its baseline rate. */
export interface RateCheck {
  readonly cause: KnownCause;
  readonly severity: Finding['severity'];
  /** Runs of this campaign in which the cause was counted, of `of`. */
  readonly runs: number;
  readonly of: number;
  /** Runs the baseline rate predicts for `of` runs. */
  readonly expected: number;
  /** Probability of at least `runs` under the baseline's rate (conditional binomial test). */
  readonly pValue: number;
  /** `pValue < RATE_ALPHA` (and more runs than expected): the cause fires significantly more often. */
  readonly regression: boolean;
}

/** The rate check of a campaign, or why there is none. */
export type RateReport =
  | { readonly checked: true; readonly checks: readonly RateCheck[] }
  | { readonly checked: false; readonly why: string };

/**
 * Compares how often each known cause fired in a campaign of `runs` runs (`causeRuns`, by
 * index of `known.causes`) with how often it fired in the baseline's rate campaign. Two Poisson
 * counts are compared by conditioning on their sum: with k₀ runs of n₀ in the baseline and k₁ of
 * n₁ here, under an unchanged rate k₁ is Binomial(k₀ + k₁, n₁ / (n₀ + n₁)), so the test needs no
 * rate estimate and stays exact for rare causes (a cause never seen in the baseline is not
 * condemned for one run). Only campaigns of the rate campaign's workload are compared.
 */
export function rateChecks(known: KnownCauses, causeRuns: readonly number[], runs: number, workload: string): RateReport {
  const base = known.rateCampaign;
  if (!base) return { checked: false, why: known.causes.length === 0 ? 'no baseline' : 'the baseline records no rates (rebuild it with mcp-sim baseline --update)' };
  if (base.workload !== workload) return { checked: false, why: `the workload differs from the one the baseline's rates were measured with (${base.workload})` };
  if (runs === 0) return { checked: false, why: 'no run' };
  const checks = known.causes.flatMap((cause, i): RateCheck[] => {
    if (cause.runs === undefined) return [];
    const k1 = causeRuns[i] ?? 0;
    const k0 = cause.runs;
    const p = runs / (runs + base.runs);
    const pValue = binomialUpperTail(k0 + k1, p, k1);
    const expected = (k0 * runs) / base.runs;
    const severity = severityOf(invariant(cause.invariant).level);
    return [{ cause, severity, runs: k1, of: runs, expected, pValue, regression: k1 > expected && pValue < RATE_ALPHA }];
  });
  return { checked: true, checks };
}

/** P(X ≥ k) for X ~ Binomial(n, p), summed in log space (exact for the counts a campaign has). */
export function binomialUpperTail(n: number, p: number, k: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  const logP = Math.log(p);
  const logQ = Math.log1p(-p);
  // log C(n, i) built up from i = k, then each next term from the one before.
  let logTerm = logChoose(n, k) + k * logP + (n - k) * logQ;
  let sum = 0;
  for (let i = k; i <= n; i++) {
    sum += Math.exp(logTerm);
    logTerm += Math.log((n - i) / (i + 1)) + logP - logQ;
  }
  return Math.min(1, sum);
}

function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log((n - k + i) / i);
  return s;
}
