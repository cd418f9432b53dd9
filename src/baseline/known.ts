import { isKnown } from '../campaign/knownCauses.ts';
import type { SimCase } from '../campaign/simCase.ts';
import type { Finding } from '../model/finding.ts';
import { knownCausesOf, type Baseline } from './baseline.ts';

/**
 * Whether a finding in a case is explained by the baseline: an entry of the same invariant and
 * transport variant whose minimal case's features all occur in this case (`isKnown`). A known
 * invariant showing up through a new cause (features no entry has) is new: a regression can hide
 * behind an old id otherwise.
 */
export function knownFinding(baseline: Baseline | undefined, c: SimCase, f: Finding): boolean {
  return isKnown(knownCausesOf(baseline), c, f);
}
