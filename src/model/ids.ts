import type { Side } from '../sim/scenario.ts';

/**
 * Request ids and progress tokens as the oracle compares them: JSON-RPC allows strings and
 * numbers, and `1` and `"1"` are two different ids, so keys carry the type.
 */
export const idKey = (id: unknown): string => (typeof id === 'number' ? `n${id}` : `s${JSON.stringify(id)}`);

/** An id as a message shows it (`1`, `"a"`, `null`). */
export const show = (id: unknown): string => JSON.stringify(id);

/** A request id JSON-RPC allows: a string or an integer (never null, never a fraction). */
export const isValidId = (id: unknown): boolean => typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));

/** The peer of `side`. */
export const other = (side: Side): Side => (side === 'client' ? 'server' : 'client');
