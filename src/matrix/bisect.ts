import type { Finding } from '../model/finding.ts';
import type { CheckedRunner } from '../campaign/runCampaign.ts';
import type { SimCase } from '../campaign/simCase.ts';
import { runChecked } from '../check/index.ts';
import type { SdkAdapter } from '../sdk/index.ts';
import { matrixColumn, type CauseFound, type MatrixCampaign, type MatrixColumn, type MatrixRelease } from './causeMatrix.ts';

/**
 * `bisect`: the first release between a good and a bad one that shows a finding. Each release
 * probed runs the same campaign as a matrix column (restricted to the invariant, so only its
 * causes are shrunk); the search halves the releases between the last good and the first bad one,
 * stepping over releases that cannot be driven (as `git bisect skip` does).
 */

/** What is searched for: an invariant (`id` or `id/clause`), and optionally one cause of it (`<variant> <shape>`). */
export interface BisectTarget {
  readonly invariant: string;
  readonly cause?: string;
}

/** Whether a cause found on a release is the one searched for. */
export function isTarget(target: BisectTarget, c: Pick<CauseFound, 'invariant' | 'clause' | 'variant' | 'shape'>): boolean {
  const id = c.clause !== undefined ? `${c.invariant}/${c.clause}` : c.invariant;
  if (target.invariant !== id && target.invariant !== c.invariant) return false;
  return target.cause === undefined || target.cause.trim().replace(/\s+/g, ' ') === `${c.variant} ${c.shape}`;
}

/** Whether a finding is of the target's invariant (and clause, when it names one). */
const findingIs = (target: BisectTarget, f: Finding) =>
  target.invariant === f.invariant || (f.clause !== undefined && target.invariant === `${f.invariant}/${f.clause}`);

/** One release probed: bad (the finding, with its cause), good, or a release that cannot be driven. */
export interface Probe {
  readonly release: string;
  readonly verdict: 'bad' | 'good' | 'cannot';
  readonly column: MatrixColumn;
  /** The matching cause found on it (bad only): its runs and minimal counterexample. */
  readonly cause?: CauseFound;
}

/**
 * Runs the campaign on one release and says whether it shows the target. The runner keeps only
 * the target invariant's findings, so the probe shrinks nothing else.
 */
export async function probeRelease(release: MatrixRelease, campaign: MatrixCampaign, target: BisectTarget): Promise<Probe> {
  const runnerFor = (sdk: SdkAdapter): CheckedRunner => async (scenario, options) => {
    const r = await runChecked(scenario, { ...options, sdk });
    return { ...r, findings: r.findings.filter((f) => findingIs(target, f)) };
  };
  const column = await matrixColumn(release, campaign, { runnerFor });
  if (column.status === 'cannot') return { release: release.choice, verdict: 'cannot', column };
  const cause = column.causes.filter((c) => isTarget(target, c)).sort((a, b) => b.runs - a.runs)[0];
  return cause ? { release: release.choice, verdict: 'bad', column, cause } : { release: release.choice, verdict: 'good', column };
}

/** How a search ended. */
export type BisectOutcome =
  /**
   * The first release of the new state (`first`: shows the finding when it appears, no longer
   * shows it when it disappears) and the last release of the old one before it (`skipped`:
   * releases between them that cannot be driven).
   */
  | { readonly kind: 'found'; readonly first: Probe; readonly before: Probe; readonly skipped: readonly string[]; readonly probes: readonly Probe[] }
  /** The good release shows the finding, or the bad one does not: nothing to search. */
  | { readonly kind: 'good-is-bad'; readonly probe: Probe; readonly probes: readonly Probe[] }
  | { readonly kind: 'bad-is-good'; readonly probe: Probe; readonly probes: readonly Probe[] }
  /** The good or the bad release cannot be driven. */
  | { readonly kind: 'cannot-drive'; readonly probe: Probe; readonly probes: readonly Probe[] };

/**
 * Binary search over `releases` (oldest first) for the release where the finding appears (the
 * first is good, the last bad) or, with `appears: false`, disappears (the first is bad, the last
 * good): probes the two ends, then the release nearest the middle of the open interval between
 * the last release of the old state and the first of the new one, skipping releases that cannot
 * be driven. Assumes one change of state: the caller checks that with the counterfactual (the
 * minimal case on the release on the other side).
 */
export async function bisectReleases(
  releases: readonly string[],
  probe: (release: string) => Promise<Probe>,
  options: { readonly appears?: boolean; readonly onProbe?: (p: Probe, step: number) => void } = {},
): Promise<BisectOutcome> {
  const appears = options.appears ?? true;
  const oldVerdict = appears ? 'good' : 'bad';
  const probes: Probe[] = [];
  const run = async (i: number) => {
    const p = await probe(releases[i]!);
    probes.push(p);
    options.onProbe?.(p, probes.length);
    return p;
  };
  let lo = 0;
  let hi = releases.length - 1;
  const ends = [await run(lo)];
  ends.push(await run(hi));
  const [good, bad] = appears ? [ends[0]!, ends[1]!] : [ends[1]!, ends[0]!];
  for (const end of ends) {
    if (end.verdict === 'cannot') return { kind: 'cannot-drive', probe: end, probes };
  }
  if (good.verdict === 'bad') return { kind: 'good-is-bad', probe: good, probes };
  if (bad.verdict === 'good') return { kind: 'bad-is-good', probe: bad, probes };
  const byIndex = new Map<number, Probe>([[lo, ends[0]!], [hi, ends[1]!]]);
  for (;;) {
    const open = [...Array(hi - lo - 1).keys()].map((k) => lo + 1 + k).filter((i) => byIndex.get(i)?.verdict !== 'cannot');
    if (open.length === 0) break;
    const middle = (lo + hi) / 2;
    const i = open.reduce((best, j) => (Math.abs(j - middle) < Math.abs(best - middle) ? j : best));
    const p = await run(i);
    byIndex.set(i, p);
    if (p.verdict === oldVerdict) lo = i;
    else if (p.verdict !== 'cannot') hi = i;
  }
  const skipped = releases.slice(lo + 1, hi) as string[];
  return { kind: 'found', first: byIndex.get(hi)!, before: byIndex.get(lo)!, skipped, probes };
}

/** The counterfactual: does `simCase` show the target on `sdk` (the release before the first bad one)? */
export async function showsTargetOn(sdk: SdkAdapter, simCase: SimCase, target: BisectTarget): Promise<{ readonly reproduced: boolean; readonly findings: readonly Finding[] }> {
  const { findings } = await runChecked(simCase.scenario, { tape: simCase.tape, seed: simCase.seed, sdk });
  return { reproduced: findings.some((f) => findingIs(target, f)), findings };
}
