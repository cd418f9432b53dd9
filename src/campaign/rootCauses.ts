import { severityOf, type Finding } from '../model/finding.ts';
import { invariant, type InvariantId } from '../model/invariants.ts';

/**
 * How a campaign counts knock-ons (`src/model/attribution.ts`): one root cause fails a nightly
 * once, not in many guises. A run's knock-on finding is counted under its root's entry, not as an
 * entry of its own, so a knock-on of a known root is known with it, and the report lists it under
 * the root. One exception keeps the verdict honest: a knock-on more severe than its root (a
 * DERIVED handler that never ends, caused by a SHOULD-level cancel that did not abort it) stays an
 * entry of its own, still marked with its root, so a warning never hides a violation.
 */

const rank = { violation: 0, warning: 1, note: 2 } as const;

/** A knock-on invariant seen under one root, over a campaign. */
export interface KnockOnSummary {
  readonly invariant: InvariantId;
  /** Its first finding, in its first case. */
  readonly example: Finding;
  /** Runs in which it came with the root. */
  runs: number;
  readonly firstCase: number;
}

/** One entry of a campaign's tally (`CampaignTally.found`): an invariant's example, runs, first case and the knock-ons under it. */
export interface FoundEntry {
  example: Finding;
  runs: number;
  firstCase: number;
  /** Knock-ons counted under this (root) invariant, in the order first seen. */
  knockOns?: KnockOnSummary[];
  /** The runs whose finding of this invariant no known cause explains (`knownCauses.ts`). */
  fresh?: { readonly example: Finding; runs: number; readonly firstCase: number; inBaselineCampaign: number };
}

/** Whether `f` is counted under its root rather than as an entry of its own. */
export function foldsUnderRoot(f: Finding): boolean {
  if (!f.rootCause) return false;
  return rank[severityOf(invariant(f.rootCause.invariant).level)] <= rank[f.severity];
}

/**
 * Whether `f` counts as a finding of `id`'s own entry: of that invariant and not folded under a
 * root. Shrinking keeps this, so an entry's counterexample shows its own cause, not a knock-on
 * of another entry's.
 */
export function countsAs(f: Finding, id: InvariantId): boolean {
  return f.invariant === id && !foldsUnderRoot(f);
}

/**
 * What one run counts: the first finding of each invariant that is not folded under its root
 * (`counted`, in the oracle's order), and the first finding of each folded knock-on invariant
 * under each root (`knockOns`).
 */
export function countedFindings(findings: readonly Finding[]): { counted: Finding[]; knockOns: Finding[] } {
  const counted: Finding[] = [];
  const knockOns: Finding[] = [];
  const seen = new Set<string>();
  for (const f of findings) {
    const folded = foldsUnderRoot(f);
    const key = folded ? `${f.rootCause!.invariant}>${f.invariant}` : f.invariant;
    if (seen.has(key)) continue;
    seen.add(key);
    (folded ? knockOns : counted).push(f);
  }
  return { counted, knockOns };
}

/** Adds one run's folded knock-ons (`countedFindings().knockOns` of case `index`) to their roots' entries, in place. */
export function addKnockOns(found: ReadonlyMap<InvariantId, FoundEntry>, knockOns: readonly Finding[] | undefined, index: number): void {
  for (const k of knockOns ?? []) {
    const root = found.get(k.rootCause!.invariant);
    if (!root) continue; // the root is a finding of the same run: counted before its knock-ons
    const list = (root.knockOns ??= []);
    const seen = list.find((x) => x.invariant === k.invariant);
    if (seen) seen.runs++;
    else list.push({ invariant: k.invariant, example: k, runs: 1, firstCase: index });
  }
}

/** A copy of `entry` whose knock-on list is its own (tallies merge in place). */
export function copyEntry(entry: FoundEntry): FoundEntry {
  return { ...entry, ...(entry.knockOns && { knockOns: entry.knockOns.map((k) => ({ ...k })) }), ...(entry.fresh && { fresh: { ...entry.fresh } }) };
}

/** Adds the knock-ons of `next`, an entry of the cases after `into`'s, to `into`, in place. */
export function mergeKnockOns(into: FoundEntry, next: FoundEntry): void {
  for (const k of next.knockOns ?? []) {
    const list = (into.knockOns ??= []);
    const seen = list.find((x) => x.invariant === k.invariant);
    if (seen) seen.runs += k.runs;
    else list.push({ ...k });
  }
}

/** The knock-on part of a finding summary: present only when some knock-on was counted under the entry. */
export function knockOnsOf(entry: FoundEntry): { knockOns?: readonly KnockOnSummary[] } {
  return entry.knockOns && entry.knockOns.length > 0 ? { knockOns: entry.knockOns.map((k) => ({ ...k })) } : {};
}
