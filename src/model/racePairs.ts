/** Named interleavings the coverage report counts (see `coverage.ts`); the walker spots them. */
export const racePairs = [
  'progress-after-response',
  'cancel-after-response',
  'response-after-cancel',
  'progress-racing-timeout',
  'cancel-before-delivery',
  'close-with-in-flight',
  'reconnect-with-pending-timer',
  'shared-signal-abort-after-settle',
] as const;
export type RacePair = (typeof racePairs)[number];
