import type { InvariantId } from './invariants.ts';

/**
 * The clock a trace was recorded on. A simulated run's clock is virtual: the scheduler's steps
 * order everything, and what the model expects "in the same step" is checked when the step ends.
 * A black-box run's clock is real (`observedTrace.ts`): there are no steps, a frame takes time to
 * cross, and the oracle can only allow for that with bounds it states. The same rules judge both;
 * where a rule's simulated meaning is "within the step", the real clock gives it these allowances.
 */
export type Clock =
  | { readonly kind: 'virtual' }
  | {
      readonly kind: 'real';
      /**
       * A frame the server wrote within this many ms of a client frame's receipt may have crossed
       * it; an obligation made at real time t (a handler to abort, a close to settle) is due by
       * t + `inFlightMs`; a client frame with no evidence of its receipt is taken as read this long
       * after it was written.
       */
      readonly inFlightMs: number;
      /** A call silent (no progress, no answer) this long, or a POST left open this long, is stuck (`--hang-after`). */
      readonly hangAfterMs: number;
      /** The grace period of a stdio server after stdin EOF. */
      readonly graceMs: number;
    };

/** The real clock's bounds. */
export type RealClock = Extract<Clock, { kind: 'real' }>;

/** The simulator's clock: every obligation is due when its scheduler step ends. */
export const VIRTUAL_CLOCK: Clock = { kind: 'virtual' };

/** Whether `clock` is a real one (a black-box run). */
export const isReal = (clock: Clock): clock is RealClock => clock.kind === 'real';

/**
 * What a one-sided run can show, and so what `judge()` reports on a real clock: the server's
 * conduct as the frames it wrote, its process's end and its HTTP answers show it, and, on an SDK
 * test bed, its handlers' side channel. The rest is left out, not judged: the client of such a
 * run is mcp-sim's own (its conduct is the harness's, not the target's), and a real run has no
 * quiescence, end state or virtual deadlines to check. Each id here has a fires/silent pair on
 * black-box traces (`test/model/observed.test.ts`).
 */
export const JUDGED_ON_A_REAL_CLOCK: ReadonlySet<InvariantId> = new Set<InvariantId>([
  'rpc.well-formed',
  'rpc.response-matches-request',
  'rpc.single-response',
  'rpc.error-code',
  'rpc.survives-bad-input',
  'progress.token-requested',
  'progress.after-response',
  'progress.increasing',
  'progress.total-stable',
  'progress.after-cancel',
  'progress.reaches-requester',
  'cancel.no-response-after',
  'cancel.handler-aborted',
  'cancel.zombie-work',
  'lifecycle.close-settles',
  'lifecycle.stdio-exit',
  'liveness.call-settles',
  'http.exchange-completes',
  'http.accepted-202',
  'http.related-on-request-stream',
  'http.session-deleted-404',
  'http.session-required-400',
]);
