import type { Side } from '../../sim/scenario.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import type { RequesterRec } from '../records.ts';

/**
 * A frame that reached a requester too late (a progress after the response or timeout, a
 * response after the cancel): the SDK must drop it silently. An error callback for it comes in
 * the same step, before anything else is delivered to that side; any later delivery makes an
 * error callback someone else's.
 */
export class LateDelivery {
  private readonly bySide = new Map<Side, { readonly rec: RequesterRec; readonly step: number }>();

  /** Any frame reached `side`: forget the late one before it. */
  delivered(side: Side): void {
    this.bySide.delete(side);
  }

  /** A late frame for `rec` arrived with `e`. */
  arrived(e: Extract<TraceEvent, { kind: 'deliver' }>, rec: RequesterRec): void {
    this.bySide.set(e.to, { rec, step: e.step });
  }

  /** The request of the late frame that error callback `e` reports, if it reports one (once). */
  erred(e: Extract<TraceEvent, { kind: 'onerror' }>): RequesterRec | undefined {
    const late = this.bySide.get(e.side);
    if (!late || late.step !== e.step) return undefined;
    this.bySide.delete(e.side);
    return late.rec;
  }
}
