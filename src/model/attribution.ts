import type { Finding, RootCause, Subjects } from './finding.ts';
import type { InvariantId } from './invariants.ts';

/**
 * How a knock-on finding must relate to its root's: `request` — the same request (sender,
 * connection and a shared wire id); `signal` — the same caller AbortSignal.
 */
export type KnockOnMatch = 'request' | 'signal';

/** One row of the knock-on table: findings of `root` can cause findings of each of `knockOns`. */
export interface KnockOnRow {
  readonly root: InvariantId;
  readonly knockOns: readonly InvariantId[];
  readonly match: KnockOnMatch;
  /**
   * The root is found before its effects in the trace. Not so for end-of-run roots (a leak is
   * seen at quiescence, its effects while the run went on): there, order does not count.
   */
  readonly rootFirst: boolean;
  /** Why the root causes the knock-ons, in a sentence (`docs/blame.md` prints the table). */
  readonly why: string;
}

/**
 * Which root invariants can cause which knock-ons. A finding is a knock-on only when a root
 * finding of its row shows in the same trace with matching subjects: a knock-on id alone
 * proves nothing, and a finding of it without such a root counts as news of its own.
 */
export const knockOnTable: readonly KnockOnRow[] = [
  {
    root: 'rpc.request-id-unique',
    knockOns: [
      'lifecycle.close-settles',
      'cancel.handler-aborted',
      'liveness.handler-ends',
      'cancel.no-response-after',
      'http.single-stream',
      'cancel.in-flight-only',
      'progress.token-unique',
      'progress.increasing',
    ],
    match: 'request',
    rootFirst: true,
    why:
      'the receiver keys its in-flight handlers (abort controllers) by request id: a second request with the id overwrites the first one\'s entry, so a cancel or a close aborts only one of them and the other runs on (answering after the cancel, never ending); two per-POST servers sending the same request, or its cancel, write the same message on two streams; and the cancel of one of the two is taken for a cancel of the other, answered already; and since the SDK uses the request id as the progress token, the two share a token, so their handlers\' progress interleaves under it (not strictly increasing)',
  },
  {
    root: 'leak.abort-listeners',
    knockOns: ['cancel.in-flight-only', 'lifecycle.reconnect-isolation'],
    match: 'signal',
    rootFirst: false,
    why:
      'the listener the SDK adds to the caller\'s signal is never removed: aborting the signal after the call settled, or after a reconnect, still sends that call\'s cancel (for a request already answered, a second time, or on the new connection)',
  },
  {
    root: 'cancel.handler-aborted',
    knockOns: ['liveness.handler-ends', 'cancel.no-response-after', 'cancel.zombie-work'],
    match: 'request',
    rootFirst: true,
    why:
      'a cancel that does not abort the handler\'s signal leaves the handler running: it answers after the cancel, goes on sending progress, and a hanging one never ends',
  },
];

const rowsByPair = new Map<string, KnockOnRow>();
for (const row of knockOnTable) for (const k of row.knockOns) rowsByPair.set(`${row.root}>${k}`, row);
const roots: ReadonlySet<InvariantId> = new Set(knockOnTable.map((r) => r.root));

function subjectsMatch(match: KnockOnMatch, root: Subjects | undefined, knock: Subjects | undefined): boolean {
  if (!root || !knock) return false;
  if (match === 'signal') return root.signal !== undefined && root.signal === knock.signal;
  if (root.sender === undefined || root.sender !== knock.sender || root.conn === undefined || root.conn !== knock.conn) return false;
  return !!root.ids?.some((id) => knock.ids?.includes(id));
}

/**
 * Marks every knock-on among one trace's findings (`findings` in the oracle's order) with the
 * root cause it follows from: the first earlier finding of a root invariant of its row whose
 * subjects match (for a chain, the root's own root). Pure; returns `findings` itself when no
 * finding is a root, and new finding objects otherwise. Idempotent: old marks are recomputed.
 */
export function attribute(findings: readonly Finding[]): Finding[] {
  if (!findings.some((f) => roots.has(f.invariant) || f.rootCause)) return findings as Finding[];
  const parent = new Map<number, number>();
  findings.forEach((f, k) => {
    const j = findings.findIndex((r, j) => {
      if (j === k) return false;
      const row = rowsByPair.get(`${r.invariant}>${f.invariant}`);
      if (!row) return false;
      if (row.rootFirst && !(r.at < f.at || (r.at === f.at && j < k))) return false;
      return subjectsMatch(row.match, r.subjects, f.subjects);
    });
    if (j !== -1) parent.set(k, j);
  });
  return findings.map((f, k) => {
    const { rootCause: _old, ...plain } = f;
    let top = parent.get(k);
    if (top === undefined) return _old ? plain : f;
    const seen = new Set([k]);
    for (let up = parent.get(top); up !== undefined && !seen.has(up); up = parent.get(top)) {
      seen.add(top);
      top = up;
    }
    const r = findings[top]!;
    const rootCause: RootCause = { invariant: r.invariant, ...(r.request !== undefined && { request: r.request }), at: r.at };
    return { ...plain, rootCause };
  });
}

/** Whether `f` is a knock-on of another finding of its trace (`attribute` marked it). */
export const isKnockOn = (f: Finding): f is Finding & { readonly rootCause: RootCause } => f.rootCause !== undefined;
