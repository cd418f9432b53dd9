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
  // Rare situations the deadline mutants need: progress at or past a call's maximum total
  // timeout; a reset-on-progress call answered after its first deadline (only progress moved it);
  // a fresh client restart while a handler of the old connection still runs.
  'progress-at-max-total',
  'response-after-first-deadline',
  'restart-with-running-handler',
] as const;
export type RacePair = (typeof racePairs)[number];
