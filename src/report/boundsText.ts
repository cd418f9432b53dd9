import { wireBoundsOf } from '../real/wireBounds.ts';
import type { RealBounds } from '../targets/Target.ts';

/**
 * A real-time run's bounds in one line, as every real-time report and the campaign's head state
 * them: the waits, and what a connection keeps of what the server sends (a frame larger than
 * `--max-frame-bytes` is cut; frames of one stream past `--max-notifications` or
 * `--max-notification-rate` are counted, not recorded).
 */
export function boundsText(bounds: RealBounds): string {
  const wire = wireBoundsOf(bounds);
  return `--hang-after ${bounds.hangAfterMs} ms, in-flight ${bounds.inFlightMs} ms, grace ${bounds.graceMs} ms; --max-frame-bytes ${wire.maxFrameBytes}, --max-notifications ${wire.maxNotifications} per stream, --max-notification-rate ${wire.maxNotificationRate}/s`;
}
