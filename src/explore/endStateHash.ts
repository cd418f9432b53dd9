import { createHash } from 'node:crypto';
import type { EndState } from '../sim/endState.ts';

/** A random UUID (a session's stream id): drawn from the run's one seeded generator, in run order. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A hash of the end state up to the names a run hands out in order: timer ids, HTTP exchange
 * numbers and random UUIDs come from counters and a generator that every session shares, so two
 * schedules that differ only in the order of two independent steps name the same timers,
 * exchanges and streams differently. Everything else (maps and their key order, pending timers
 * by label and time, signals, transports, open calls, open exchanges by state) is kept, so
 * "distinct end states" counts what differs at the end, not how it was numbered.
 */
export function endStateHash(end: EndState): string {
  const canonical = {
    ...end,
    timers: end.timers.map((t) => ({ label: t.label, atMs: t.atMs })),
    openExchanges: end.openExchanges.map(({ exchange: _numbered, ...rest }) => JSON.stringify(rest)).sort(),
  };
  const json = JSON.stringify(canonical, (_key, value: unknown) => (typeof value === 'string' && UUID.test(value) ? 'uuid' : value));
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}
