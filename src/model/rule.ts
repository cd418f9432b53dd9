import type { SdkFacts } from '../sdk/facts.ts';
import type { EndState } from '../sim/endState.ts';
import type { Side } from '../sim/scenario.ts';
import type { RunOutcome, TraceEvent } from '../sim/trace.ts';
import type { Clock } from './clock.ts';
import type { Finding } from './finding.ts';
import type { CallRec, ReceiverRec, RequesterRec } from './records.ts';
import type { WalkEvent } from './walkEvent.ts';

/**
 * Something a rule expects to happen before the scheduler's step ends (a handler aborted, a
 * cancel sent). The walker checks every obligation when the step ends, in the order they were
 * made, so findings of several rules keep the order of their causes. On a real clock (a
 * black-box run: no steps) the walker checks it instead once the trace's time passes the time it
 * was made plus the clock's in-flight bound (`Clock`), or at the end when the trace got that far:
 * the one place the model allows real time for what it expects within a step.
 */
export interface Obligation {
  /** Flags through `walk` what was not met; `walk.step` is the step that ends. */
  check(walk: Walk): void;
}

/** What a rule may read of a walk in progress, and the two things it may do to it: flag and oblige. */
export interface Walk {
  /** Scheduler step of the event being fed (inside `Obligation.check`: the step that ends). */
  readonly step: number;
  /** The clock the trace was recorded on: virtual (simulated) or real with its bounds (black box). */
  readonly clock: Clock;
  /** Every call started so far, in start order. */
  calls(): Iterable<CallRec>;
  /** Every request delivery seen so far, grouped by request (first delivery order), oldest first. */
  receivers(): Iterable<ReceiverRec>;
  /**
   * The request `id` that `side` sent on connection `conn` (ids are per SDK object, across its
   * connections: per client, and per `Client` instance on the client side).
   */
  requester(side: Side, conn: number, id: unknown): RequesterRec | undefined;
  /** The request `id` that `side` of client `client` sent (its current `Client` on the client side). */
  requesterOfClient(side: Side, client: number, id: unknown): RequesterRec | undefined;
  /** The client that connection `conn` belongs to (0 unless the scenario has several). */
  clientOf(conn: number): number;
  /** Which `Client` object of its client served connection `conn`: 0, one more per fresh reconnect. */
  clientInstanceOf(conn: number): number;
  /** The `Client` object client `client` has now (the end-state probe reads that one). */
  currentClientInstance(client: number): number;
  /** The step in which the caller aborted signal `signal`, if it did. */
  abortStep(signal: string): number | undefined;
  /** A request's name in findings: its call's label, or `side:id` for a request seen only on the wire. */
  label(rec: RequesterRec): string;
  /** The name of a received request: its requester's label. */
  receivedLabel(rec: ReceiverRec): string;
  /**
   * Reports `f`. With `dedupe` (the default) only once per invariant and request (per invariant
   * and event for findings without a request): one broken request is one finding.
   */
  flag(f: Finding, dedupe?: boolean): void;
  /** The current step's obligations, oldest first (rules mark their own as met). */
  readonly obligations: readonly Obligation[];
  oblige(o: Obligation): void;
}

/** How the run ended, for the end-of-run checks. */
export interface RunEnd {
  /** Index of the last event: the `end` event when the run recorded one. */
  readonly at: number;
  /** Virtual time of the last event. */
  readonly t: number;
  /** `quiescent` for a trace without an `end` event. */
  readonly outcome: RunOutcome['kind'];
  readonly endState: EndState | undefined;
}

type Hooks = { readonly [K in WalkEvent['kind']]?: (o: Extract<WalkEvent, { kind: K }>) => void };

/**
 * One family of invariants watching one walk. It keeps whatever state of its own it needs and
 * reads the walker's records; the walker calls every rule's hook for an event in the oracle's
 * fixed rule order.
 */
export interface Rule extends Hooks {
  /** Every trace event, before the walker moves any machine for it. */
  trace?(e: TraceEvent): void;
  /** The run ended; the last step's obligations were checked. */
  finish?(end: RunEnd): void;
}

/** Makes one rule for one walk. */
export type RuleFactory = (walk: Walk, facts: SdkFacts) => Rule;
