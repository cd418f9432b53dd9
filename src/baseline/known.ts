import type { SimCase } from '../campaign/simCase.ts';
import type { Finding } from '../model/finding.ts';
import type { Baseline } from './baseline.ts';
import { scriptedConductIds } from './conduct.ts';
import { covers, shapeOf } from './shape.ts';
import { variantOf } from './variant.ts';

/**
 * Whether a finding in a case is explained by the baseline: an entry of the same invariant and
 * transport variant whose minimal case's features all occur in this case. A known invariant
 * showing up through a new cause (features no entry has) is new: a regression can hide behind
 * an old id otherwise.
 */
export function knownFinding(baseline: Baseline | undefined, c: SimCase, f: Finding): boolean {
  if (scriptedConductIds.has(f.invariant)) return true;
  if (!baseline) return false;
  const variant = variantOf(c.scenario);
  const shape = shapeOf(c);
  return baseline.entries.some(
    (e) => e.invariant === f.invariant && e.variant === variant && covers(shape, new Set(e.shape === 'plain' ? [] : e.shape.split('+'))),
  );
}
