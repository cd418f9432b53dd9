import type { SimCase } from '../campaign/simCase.ts';
import type { Finding } from '../model/finding.ts';
import type { InvariantId } from '../model/invariants.ts';
import type { Baseline } from './baseline.ts';
import { scriptedConductIds } from './conduct.ts';
import { covers, shapeOf } from './shape.ts';
import { variantOf } from './variant.ts';

/**
 * Whether a finding in a case is explained by the baseline: an entry of the same invariant and
 * transport variant whose minimal case's features all occur in this case. A known invariant
 * showing up through a new cause (features no entry has) is new: a regression can hide behind
 * an old id otherwise. A knock-on (`rootCause`, `src/model/attribution.ts`) is also known when
 * its root is: one root cause is one entry, whatever it knocks on.
 */
export function knownFinding(baseline: Baseline | undefined, c: SimCase, f: Finding): boolean {
  if (knownInvariant(baseline, c, f.invariant)) return true;
  return f.rootCause !== undefined && knownInvariant(baseline, c, f.rootCause.invariant);
}

function knownInvariant(baseline: Baseline | undefined, c: SimCase, id: InvariantId): boolean {
  if (scriptedConductIds.has(id)) return true;
  if (!baseline) return false;
  const variant = variantOf(c.scenario);
  const shape = shapeOf(c);
  return baseline.entries.some(
    (e) => e.invariant === id && e.variant === variant && covers(shape, new Set(e.shape === 'plain' ? [] : e.shape.split('+'))),
  );
}
