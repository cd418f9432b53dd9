import type { Side } from '../../sim/scenario.ts';
import { callerCloseOf } from '../callerClose.ts';
import { underTestOf } from '../clock.ts';
import { finding } from '../finding.ts';
import type { RuleFactory } from '../rule.ts';
import { callSubjects } from '../subjects.ts';

/**
 * The end of a real run (a client under test) is the checkpoint the simulator's quiescence is:
 * a call of the side under test still pending then was never settled. A real run has no
 * quiescence and its calls no virtual deadline, so `liveness.ts` cannot say so; this does, by
 * what the run shows of why:
 *
 * - the caller closed that side and the close never completed (the side never observed it): its
 *   close did not settle the call, `lifecycle.close-settles` (go-sdk's Close waits for answers
 *   that never come);
 * - no close was asked: the call never returned to its caller, `timeout.settles` (the run's end
 *   is where the simulator counts every pending call too).
 *
 * A close that completed is judged when it completes (`lifecycle.ts`, `CloseDue`). Nothing on the
 * virtual clock, where quiescence does this.
 */
export const realRunEndRule: RuleFactory = (walk) => {
  /** When the caller asked each side to close (its first such action). */
  const asked = new Map<Side, number>();
  /** The sides that observed a close (their `close` event). */
  const closed = new Set<Side>();
  return {
    trace(e) {
      if (walk.clock.kind !== 'real') return;
      const side = callerCloseOf(e);
      if (side !== undefined && !asked.has(side)) asked.set(side, e.t);
      if (e.kind === 'close') closed.add(e.side);
    },

    finish({ at }) {
      if (walk.clock.kind !== 'real') return;
      const side = underTestOf(walk.clock);
      const closeAt = asked.get(side);
      for (const call of walk.calls()) {
        if (call.from !== side || call.settled) continue;
        const subjects = { ...callSubjects(walk, call), side };
        if (closeAt === undefined) {
          walk.flag(finding('timeout.settles', at, `call ${call.call} never settled: the ${side} ended the run with it pending, and no close was asked.`, call.call, subjects));
        } else if (!closed.has(side)) {
          walk.flag(finding('lifecycle.close-settles', at, `the caller closed the ${side} at ${Math.round(closeAt)} ms, but the close never completed and call ${call.call} never settled.`, call.call, subjects));
        }
      }
    },
  };
};
