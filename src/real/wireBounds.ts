import { DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_NOTIFICATION_RATE, DEFAULT_MAX_NOTIFICATIONS, DEFAULT_STDERR_BYTES_KEPT } from '../options/defaults.ts';

/**
 * What mcp-sim keeps of what a server sends on one connection, whatever it sends: a server that
 * floods or writes a frame without end costs a count and a finding, never mcp-sim's memory or
 * its time budget. Stated in every real-time report (`RealBounds`), set by `check`'s
 * `--max-frame-bytes`, `--max-notifications` and `--max-notification-rate`.
 */
export interface WireBounds {
  /** The largest frame read whole: a larger one is cut at this many bytes (`frame-too-large`). */
  readonly maxFrameBytes: number;
  /** The most frames of one stream of a server's messages recorded in all (`frames-counted` past it). */
  readonly maxNotifications: number;
  /** The most frames of one such stream a second, sustained: a bucket of a tenth of a second of it, refilled this many a second. */
  readonly maxNotificationRate: number;
}

/** The bounds when none are given (`src/options/defaults.ts`). */
export const DEFAULT_WIRE_BOUNDS: WireBounds = {
  maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
  maxNotifications: DEFAULT_MAX_NOTIFICATIONS,
  maxNotificationRate: DEFAULT_MAX_NOTIFICATION_RATE,
};

/** The most of a server's stderr one connection keeps (not a flag: stderr is shown, never judged but for a stack trace). */
export const STDERR_BYTES_KEPT = DEFAULT_STDERR_BYTES_KEPT;

/** The wire bounds a run's bounds give, each one not given at its default. */
export function wireBoundsOf(bounds: Partial<WireBounds> | undefined): WireBounds {
  return {
    maxFrameBytes: bounds?.maxFrameBytes ?? DEFAULT_WIRE_BOUNDS.maxFrameBytes,
    maxNotifications: bounds?.maxNotifications ?? DEFAULT_WIRE_BOUNDS.maxNotifications,
    maxNotificationRate: bounds?.maxNotificationRate ?? DEFAULT_WIRE_BOUNDS.maxNotificationRate,
  };
}
