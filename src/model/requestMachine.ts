import { initialTransition, setup, transition, type AnyStateMachine, type SnapshotFrom } from 'xstate';

/**
 * One request's lifecycle as its requester sees it. Two parallel regions: `wire` (what came
 * back on the connection and what the requester sent after the request) and `caller` (the
 * promise the caller awaits). Crossings the spec allows are transitions: a response arriving
 * after the cancel went out (`cancelled → lateResponse`), progress after the response.
 * An event with no transition here is a refused event: the oracle names the invariant.
 */
export const requesterMachine = setup({
  types: {
    events: {} as
      | { type: 'PROGRESS' }
      | { type: 'RESPONSE' }
      | { type: 'CANCEL' }
      | { type: 'TIMEOUT' }
      | { type: 'CLOSE' }
      | { type: 'SETTLE' }
      | { type: 'ONPROGRESS' },
  },
}).createMachine({
  id: 'requester',
  type: 'parallel',
  states: {
    wire: {
      initial: 'pending',
      states: {
        pending: { on: { PROGRESS: 'progressing', RESPONSE: 'responded', CANCEL: 'cancelled', TIMEOUT: 'timedOut', CLOSE: 'closed' } },
        progressing: { on: { PROGRESS: 'progressing', RESPONSE: 'responded', CANCEL: 'cancelled', TIMEOUT: 'timedOut', CLOSE: 'closed' } },
        /** The response arrived: late progress may still cross it; the requester must not cancel. */
        responded: { on: { PROGRESS: 'responded', CLOSE: 'responded' } },
        /** Timed out: the SDK rejected the call and the cancel is due. */
        timedOut: { on: { CANCEL: 'cancelled', PROGRESS: 'timedOut', RESPONSE: 'timedOut', CLOSE: 'closed' } },
        /** Cancel sent: response and progress may still cross it. */
        cancelled: { on: { RESPONSE: 'lateResponse', PROGRESS: 'cancelled', CLOSE: 'cancelled' } },
        lateResponse: { on: { PROGRESS: 'lateResponse', CLOSE: 'lateResponse' } },
        closed: { on: { PROGRESS: 'closed', RESPONSE: 'closed' } },
      },
    },
    caller: {
      initial: 'waiting',
      states: {
        waiting: { on: { SETTLE: 'settled', ONPROGRESS: 'waiting' } },
        settled: {},
      },
    },
  },
});

/**
 * One request's lifecycle as its receiver sees it: `wire` (open until answered, a cancel may
 * arrive before or after the answer) and `handler` (the scripted handler's run).
 */
export const receiverMachine = setup({
  types: {
    events: {} as
      | { type: 'CANCEL' }
      | { type: 'RESPOND' }
      | { type: 'PROGRESS' }
      | { type: 'START' }
      | { type: 'STEP' }
      | { type: 'ABORT' }
      | { type: 'END' }
      | { type: 'END_SWALLOWED' }
      | { type: 'CLOSE' },
  },
}).createMachine({
  id: 'receiver',
  type: 'parallel',
  states: {
    wire: {
      initial: 'open',
      states: {
        open: { on: { CANCEL: 'cancelRequested', RESPOND: 'responded', PROGRESS: 'progressing', CLOSE: 'closed' } },
        progressing: { on: { CANCEL: 'cancelRequested', RESPOND: 'responded', PROGRESS: 'progressing', CLOSE: 'closed' } },
        /** The cancel arrived while open: no response may follow (progress is dropped by spec too). */
        cancelRequested: { on: { CANCEL: 'cancelRequested', CLOSE: 'closed' } },
        /** Answered: a cancel may still arrive (it crossed the response); nothing more may be sent. */
        responded: { on: { CANCEL: 'responded', CLOSE: 'responded' } },
        closed: { on: { CANCEL: 'closed' } },
      },
    },
    handler: {
      initial: 'idle',
      states: {
        idle: { on: { START: 'running' } },
        running: { on: { STEP: 'running', ABORT: 'aborted', END: 'ended' } },
        aborted: { on: { ABORT: 'aborted', END: 'ended' } },
        ended: { on: { ABORT: 'ended' } },
      },
    },
  },
});

export type RequesterSnapshot = SnapshotFrom<typeof requesterMachine>;
export type ReceiverSnapshot = SnapshotFrom<typeof receiverMachine>;
export type RequesterEvent = Parameters<typeof requesterMachine.transition>[1];
export type ReceiverEvent = Parameters<typeof receiverMachine.transition>[1];

/** A snapshot's state value as one string: `wire.pending|caller.waiting`. */
export function stateKey(value: unknown): string {
  if (typeof value === 'string') return value;
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${k}.${stateKey(v)}`)
    .join('|');
}

/**
 * Steps a context-free machine with xstate's pure `transition()`, memoized: a machine without
 * context is fully described by its state value, so each (snapshot, event type) pair is computed
 * once per process and the same immutable snapshot object is reused. Returns `undefined` when
 * the machine refuses the event (no enabled transition).
 * @internal
 */
export class MachineStepper<M extends AnyStateMachine> {
  private readonly cache = new Map<object, Map<string, SnapshotFrom<M> | null>>();
  readonly initial: SnapshotFrom<M>;
  private readonly keys = new Map<object, string>();

  constructor(readonly machine: M) {
    this.initial = this.canonical((initialTransition as unknown as (m: AnyStateMachine) => [unknown])(machine)[0] as SnapshotFrom<M>);
  }

  key(snapshot: SnapshotFrom<M>): string {
    let k = this.keys.get(snapshot);
    if (k === undefined) this.keys.set(snapshot, (k = stateKey((snapshot as { value: unknown }).value)));
    return k;
  }

  step(snapshot: SnapshotFrom<M>, type: string): SnapshotFrom<M> | undefined {
    let byEvent = this.cache.get(snapshot);
    if (!byEvent) this.cache.set(snapshot, (byEvent = new Map()));
    let next = byEvent.get(type);
    if (next === undefined) {
      // `can()` tells a refused event from a self-transition (both leave the snapshot as it was).
      if ((snapshot as unknown as { can(e: unknown): boolean }).can({ type })) {
        const [candidate] = transition(this.machine, snapshot, { type } as never);
        next = this.canonical(candidate as SnapshotFrom<M>);
      } else next = null;
      byEvent.set(type, next ?? null);
    }
    return next ?? undefined;
  }

  /** One snapshot object per state value, so the cache stays small. */
  private readonly byKey = new Map<string, SnapshotFrom<M>>();
  private canonical(s: SnapshotFrom<M>): SnapshotFrom<M> {
    const k = stateKey((s as { value: unknown }).value);
    const known = this.byKey.get(k);
    if (known) return known;
    this.byKey.set(k, s);
    this.keys.set(s, k);
    return s;
  }
}

export const requesterStepper = /* @__PURE__ */ new MachineStepper(requesterMachine);
export const receiverStepper = /* @__PURE__ */ new MachineStepper(receiverMachine);
