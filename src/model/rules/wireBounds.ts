import { finding } from '../finding.ts';
import type { InvariantId } from '../invariants.ts';
import type { RuleFactory } from '../rule.ts';

/**
 * The findings of a client's bounds on what a server sends: a campaign does not shrink them nor
 * rate them past what decides a rate, since every re-run pays the flood (or the huge frame) again.
 */
export const WIRE_BOUND_INVARIANTS: ReadonlySet<InvariantId> = new Set<InvariantId>(['rpc.frame-size', 'progress.rate-limited', 'rpc.rate-limited']);

/** Bytes as a reader says them: MiB past one, else bytes. */
function bytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MiB` : `${n} bytes`;
}

/**
 * What a black-box client's bounds on a server's frames show (a real clock only; the connection
 * records the events, `src/real/boundedFrames.ts` and `src/real/FrameBudget.ts`):
 * - `rpc.frame-size`: a frame past `--max-frame-bytes` (`frame-too-large`): cut at the bound, never
 *   buffered whole, so whatever it answered is lost to its request;
 * - `progress.rate-limited`: one call's progress past `--max-notifications` in all or
 *   `--max-notification-rate` a second, sustained (`frames-counted` of a progress token);
 * - `rpc.rate-limited`: any other stream of the server's messages (one method's notifications or
 *   requests) past the same bounds, its count a minute.
 * Each event is one finding: a flood is counted in one event however long it lasts. The counts
 * are as far as the trace was read when judged (a flood still running then shows "at least").
 */
export const wireBoundsRule: RuleFactory = (walk) => ({
  trace(e) {
    if (walk.clock.kind !== 'real') return;
    const side = e.kind === 'frame-too-large' || e.kind === 'frames-counted' ? (e.to === 'client' ? 'server' : 'client') : undefined;
    if (side === undefined) return;
    if (e.kind === 'frame-too-large') {
      const size = e.whole ? `a frame of ${bytes(e.bytes)}` : `a frame of at least ${bytes(e.bytes)} (no end read)`;
      const dropped = e.droppedExchange !== undefined ? `, its HTTP stream #${e.droppedExchange} dropped at the bound` : ', the rest of the line read and thrown away';
      walk.flag(finding('rpc.frame-size', e.i, `the ${side} wrote ${size}, past the ${bytes(e.bound)} a client reads of one (--max-frame-bytes): never buffered whole${dropped}; it began ${JSON.stringify(e.head.slice(0, 80))}.`, undefined, { side }));
      return;
    }
    if (e.kind !== 'frames-counted') return;
    const bound = e.past === 'count' ? `the ${e.bound} frames ${e.token !== undefined ? "of one call's progress" : 'of one stream a minute'} a client records (--max-notifications)` : `the ${e.bound} a second a client takes of one stream, sustained (--max-notification-rate)`;
    const counted = `${e.count} more within ${e.spanMs} ms after ${e.recorded} recorded, counted, not recorded one by one`;
    if (e.method === 'notifications/progress' && e.token !== undefined) {
      walk.flag(finding('progress.rate-limited', e.i, `the ${side} flooded progress for token ${JSON.stringify(e.token)}: past ${bound}; ${counted}.`, undefined, { side }));
      return;
    }
    walk.flag(finding('rpc.rate-limited', e.i, `the ${side} flooded ${e.stream} (${e.method}): past ${bound}; ${counted}.`, undefined, { side }));
  },
});
