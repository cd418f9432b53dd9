import type { Side } from '../sim/scenario.ts';
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
       * A frame the side under test wrote within this many ms of a frame's receipt may have
       * crossed it; an obligation made at real time t (a handler to abort, a close to settle, a
       * cancel to send) is due by t + `inFlightMs`; a frame mcp-sim wrote with no evidence of its
       * receipt is taken as read this long after it was written.
       */
      readonly inFlightMs: number;
      /** A call silent (no progress, no answer) this long, or a POST left open this long, is stuck (`--hang-after`). */
      readonly hangAfterMs: number;
      /** The grace period of a stdio server after stdin EOF. */
      readonly graceMs: number;
      /**
       * Slow is not stuck: how long a call of each tool may stay silent before it is stuck, in ms,
       * when that is longer than `hangAfterMs`: the campaign's, from what the tool has shown it
       * takes (the longest call of it that ended, the latest progress of one still running) or is
       * stated to take (`--tool-duration`), times `SLOW_FACTOR`.
       */
      readonly toolSilenceMs?: Readonly<Record<string, number>>;
      /**
       * The side whose conduct the run judges: the far one, which mcp-sim sees only through what
       * it wrote, read and (a test bed) told on its side channel; mcp-sim plays the other side
       * (`observedTrace` adds the far side's events). A server process, URL or test bed: the
       * server; an SDK's test-bed client: the client. @default 'server'
       */
      readonly underTest?: Side;
    };

/** The real clock's bounds. */
export type RealClock = Extract<Clock, { kind: 'real' }>;

/** Slow is not stuck: the one bound of a silent call, the runner's and the model's (src/util/silenceBound.ts). */
export { silenceBoundMs } from '../util/silenceBound.ts';

/** The simulator's clock: every obligation is due when its scheduler step ends. */
export const VIRTUAL_CLOCK: Clock = { kind: 'virtual' };

/** Whether `clock` is a real one (a black-box run). */
export const isReal = (clock: Clock): clock is RealClock => clock.kind === 'real';

/** The side a real-clock run judges (`RealClock.underTest`). */
export const underTestOf = (clock: RealClock): Side => clock.underTest ?? 'server';

/**
 * What a one-sided run can show, by the side under test, and so what `judge()` reports on a real
 * clock: that side's conduct, never mcp-sim's own (the client of a server's run and the scripted
 * server of a client's run are the harness: `conductOf` tells a finding's side), and nothing a
 * real run cannot have (quiescence, an end state, virtual deadlines). Each id here has a
 * fires/silent pair on black-box traces of its side (`test/model/observed.test.ts`,
 * `test/model/observedClient.test.ts`).
 *
 * - server: the frames it wrote, its process's end and its HTTP answers, and on an SDK test bed
 *   its handlers' side channel;
 * - client (an SDK's test-bed client against the scripted server): the frames it wrote (their
 *   JSON-RPC shape, their ids, a call's progress token where the caller asked for progress), the
 *   caller's view its side channel tells (each call's start, progress and end, the caller's
 *   abort and close) and its handlers of the server's requests.
 */
export const JUDGED_ON_A_REAL_CLOCK: Readonly<Record<Side, ReadonlySet<InvariantId>>> = {
  server: new Set<InvariantId>([
    'rpc.well-formed',
    'rpc.response-matches-request',
    'rpc.single-response',
    'rpc.error-code',
    'rpc.survives-bad-input',
    'rpc.frame-size',
    'rpc.rate-limited',
    'progress.token-requested',
    'progress.after-response',
    'progress.increasing',
    'progress.total-stable',
    'progress.after-cancel',
    'progress.rate-limited',
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
  ]),
  client: new Set<InvariantId>([
    'rpc.well-formed',
    'rpc.request-id-type',
    'rpc.request-id-unique',
    'rpc.params-preserved',
    'progress.delivered',
    'progress.token-unique',
    'cancel.in-flight-only',
    'cancel.not-initialize',
    'cancel.well-formed',
    'cancel.no-response-after',
    'cancel.handler-aborted',
    'cancel.late-response-silent',
    'cancel.abort-sends-cancel',
    'timeout.settles',
    'timeout.sends-cancel',
    'timeout.reset-on-progress',
    'timeout.max-total',
    'timeout.quiet-after-settle',
    'lifecycle.close-settles',
    'lifecycle.stdio-close-ends-server',
    'http.close-deletes-session',
  ]),
};
