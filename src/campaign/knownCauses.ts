import type { Finding } from '../model/finding.ts';
import type { InvariantId } from '../model/invariants.ts';
import { workloadKey, type ResolvedWorkload } from '../options/index.ts';
import { covers, shapeOf, variantOf } from './cause.ts';
import { scriptExplains } from './conduct.ts';
import type { SimCase } from './simCase.ts';

/**
 * One cause of an invariant that an SDK release is known to break (a baseline entry, as plain
 * data a worker thread can be sent): the variant and shape of its minimal case, and how often
 * it fired in the campaign its rate was measured on.
 */
export interface KnownCause {
  readonly invariant: InvariantId;
  readonly variant: string;
  /** `shapeKey` of the minimal case: its features joined by `+`, or `plain`. */
  readonly shape: string;
  /** The clause of the invariant it breaks (`Finding.clause`), for invariants whose clauses break apart. */
  readonly clause?: string;
  /** Runs of the rate campaign (`KnownCauses.rateCampaign`) in which a finding of this cause was counted. */
  readonly runs?: number;
}

/** What a campaign is judged against: the known causes and the campaign their rates come from. */
export interface KnownCauses {
  /** Package and version the causes belong to, for messages. */
  readonly sdk?: string;
  readonly causes: readonly KnownCause[];
  /**
   * The campaign the causes' `runs` were counted on: its runs and workload (`workloadKey`). A rate
   * applies only to a campaign of the same workload (another seed is fine: seeds draw the same mix).
   */
  readonly rateCampaign?: { readonly seed: number; readonly runs: number; readonly workload: string };
}

/** No known cause: every finding is new (an SDK release without a baseline). */
export const NO_KNOWN_CAUSES: KnownCauses = Object.freeze({ causes: Object.freeze([]) });

/**
 * The indices of the known causes that explain `f` in case `c`: causes of its invariant on the
 * case's variant whose minimal case's features all occur in `c`. A knock-on (`rootCause`) is
 * explained by the causes of its root as well: one root cause is one entry, whatever it knocks on.
 * Empty when the finding is new: a known invariant reached through a cause no entry has.
 */
export function causesOf(known: KnownCauses, c: SimCase, f: Finding): number[] {
  if (known.causes.length === 0) return [];
  const { variant, shape } = featuresOf(c);
  // Its own cause (the same clause), or its root's (whose clause the knock-on does not carry).
  const explains = (k: KnownCause) => (k.invariant === f.invariant && k.clause === f.clause) || k.invariant === f.rootCause?.invariant;
  const hits: number[] = [];
  known.causes.forEach((k, i) => {
    if (explains(k) && k.variant === variant && covers(shape, splitShape(k.shape))) hits.push(i);
  });
  return hits;
}

/**
 * Whether `f` is explained: the case's script explains it (`scriptExplains`: generated handlers
 * misbehave on purpose, so it is never the SDK's fault) or some known cause.
 */
export function isKnown(known: KnownCauses, c: SimCase, f: Finding): boolean {
  if (scriptExplains(f) !== undefined || (f.rootCause && scriptExplains({ invariant: f.rootCause.invariant }) !== undefined)) return true;
  return causesOf(known, c, f).length > 0;
}

/** Whether case `index` of the campaign of `seed` and `workload` is one the baseline's own campaign ran. */
export function inBaselineCampaign(known: KnownCauses, campaign: { readonly seed: number; readonly workload: ResolvedWorkload }, index: number): boolean {
  const rc = known.rateCampaign;
  return rc !== undefined && rc.seed === campaign.seed && index < rc.runs && rc.workload === workloadKey(campaign.workload);
}

/**
 * A case's variant and shape, worked out once: a campaign asks for every counted finding of every
 * run (and shrinking for every candidate), and cases are never changed once drawn.
 */
const features = new WeakMap<SimCase, { readonly variant: string; readonly shape: Set<string> }>();

function featuresOf(c: SimCase): { readonly variant: string; readonly shape: Set<string> } {
  let f = features.get(c);
  if (!f) features.set(c, (f = { variant: variantOf(c.scenario), shape: shapeOf(c) }));
  return f;
}

/** A known cause's features, split once per shape string (a baseline has a few dozen). */
const splitShapes = new Map<string, Set<string>>();

function splitShape(shape: string): Set<string> {
  let split = splitShapes.get(shape);
  if (!split) splitShapes.set(shape, (split = new Set(shape === 'plain' ? [] : shape.split('+'))));
  return split;
}
