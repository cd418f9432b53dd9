import { createHash } from 'node:crypto';
import type { InvariantId } from '../model/invariants.ts';
import type { KnownCauses } from './knownCauses.ts';
import type { SimCase } from './simCase.ts';

/**
 * Shrinking is a pure function of its task: the case fast-check draws first from `fcSeed` (a
 * function of the campaign seed, the case index and the workload), the invariant, and, for a
 * fresh cause of a known invariant, the known causes it must stay clear of; every candidate runs
 * on the same SDK release, deterministically. So a shrink done once can be kept: a
 * `ShrinkMemo` holds what shrinking gave (the 1-minimal case and fast-check's coordinates), next
 * to the release's baseline, and a campaign whose task matches takes it instead of shrinking
 * again. Before it is used, the kept case is run once and must still show the invariant (else
 * the task shrinks as usual); a test re-shrinks kept tasks and compares, so a memo that no longer
 * matches the harness fails CI instead of changing a report.
 */
export interface ShrinkTaskKey {
  readonly invariant: InvariantId;
  readonly fcSeed: number;
  readonly fresh: boolean;
  /** `workloadKey` of the campaign's workload: the arbitrary `fcSeed` draws from. */
  readonly workload: string;
  /** With `fresh`: a digest of the known causes the shrink stays clear of; else empty. */
  readonly known: string;
}

/** What one shrink gave: enough to rebuild its `Counterexample` with one run. */
export interface StoredShrink {
  readonly key: ShrinkTaskKey;
  readonly case: SimCase;
  readonly fcPath: string;
  readonly shrinks: number;
  readonly removals: number;
}

/** `properties/baselines/<package>@<version>.shrinks.json`. */
export interface ShrinkMemoFile {
  readonly package: string;
  readonly version: string;
  /** The command that wrote it. */
  readonly command: string;
  readonly entries: readonly StoredShrink[];
}

/** A digest of known causes: what a fresh shrink's result depends on besides its task. */
export function knownDigest(known: KnownCauses | undefined): string {
  return known && known.causes.length > 0 ? createHash('sha256').update(JSON.stringify(known.causes)).digest('hex').slice(0, 16) : '';
}

/** The key of a shrink task in a campaign of `workload`. */
export function shrinkTaskKey(task: { readonly invariant: InvariantId; readonly fcSeed: number; readonly fresh?: boolean }, workload: string, known: KnownCauses | undefined): ShrinkTaskKey {
  const fresh = task.fresh === true;
  return { invariant: task.invariant, fcSeed: task.fcSeed, fresh, workload, known: fresh ? knownDigest(known) : '' };
}

const keyText = (k: ShrinkTaskKey) => JSON.stringify([k.invariant, k.fcSeed, k.fresh, k.workload, k.known]);

/** The kept shrinks of one SDK release, looked up by task. */
export class ShrinkMemo {
  private readonly byKey: Map<string, StoredShrink>;

  constructor(entries: readonly StoredShrink[] = []) {
    this.byKey = new Map(entries.map((e) => [keyText(e.key), e]));
  }

  get(key: ShrinkTaskKey): StoredShrink | undefined {
    return this.byKey.get(keyText(key));
  }

  /** Keeps `entry`, replacing one of the same task. */
  set(entry: StoredShrink): void {
    this.byKey.set(keyText(entry.key), entry);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Every entry, in a stable order (for the file). */
  entries(): StoredShrink[] {
    return [...this.byKey.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, e]) => e);
  }
}
