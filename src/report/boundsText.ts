import { wireBoundsOf } from '../real/wireBounds.ts';
import type { RealBounds } from '../targets/Target.ts';

/**
 * What a connection keeps of what the server sends, in one line, as every real-time report and
 * the campaign's head state it: a frame larger than `--max-frame-bytes` is cut; frames of one
 * stream past `--max-notifications` or `--max-notification-rate` are counted, not recorded.
 */
export function wireBoundsText(bounds: RealBounds): string {
  const wire = wireBoundsOf(bounds);
  return `--max-frame-bytes ${wire.maxFrameBytes}, --max-notifications ${wire.maxNotifications} per stream, --max-notification-rate ${wire.maxNotificationRate}/s`;
}
