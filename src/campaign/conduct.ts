import type { InvariantId } from '../model/invariants.ts';

/**
 * Invariants that judge the *handler's* conduct, which generated scripts break on purpose (an
 * `ignore` or `swallow` abort policy) to see how the SDK copes. They are reported, never
 * baselined, and never fail the property suite; `test/model` proves each one fires.
 */
export const scriptedConductIds: ReadonlySet<InvariantId> = new Set<InvariantId>(['cancel.zombie-work', 'cancel.abort-swallowed']);
