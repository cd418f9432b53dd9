import type { SdkFacts } from '../../sdk/facts.ts';
import { finding } from '../finding.ts';
import type { CallRec, RequesterRec } from '../records.ts';
import type { Obligation, RuleFactory, Walk } from '../rule.ts';

/**
 * The latest virtual time by which `call` must settle: its start (or, with reset-on-progress,
 * its last progress) plus its timeout, the SDK's default when the caller set none.
 */
export function deadlineOf(call: CallRec, facts: SdkFacts): number {
  const timeout = call.options.timeoutMs ?? facts.defaultRequestTimeoutMs;
  const base = call.options.resetTimeoutOnProgress && call.lastProgressT !== undefined ? Math.max(call.startT, call.lastProgressT) : call.startT;
  return base + timeout;
}

type CancelInvariant = 'timeout.sends-cancel' | 'timeout.max-total';

/**
 * The clauses of `timeout.max-total`, which one bug breaks without the others: the call settles
 * by send time + maximum; no progress reaches it once the maximum ran out (with reset-on-progress
 * or without: the SDK caps the deadline extension of the one and nothing of the other); and its
 * cancel goes out when the maximum trips.
 */
export const MAX_TOTAL_LATE = 'settles-late';
export const MAX_TOTAL_PROGRESS_AFTER = 'progress-after-max';
export const MAX_TOTAL_PROGRESS_AFTER_NO_RESET = 'progress-after-max-no-reset';
export const MAX_TOTAL_NO_CANCEL = 'no-cancel';

/**
 * The real clock's allowance for a time the model reads as exact (a deadline, the end of a
 * maximum): a caller's event is seen some ms after the SDK's timer fired (a side channel is read
 * through a pipe), so a settle or a progress is late or early only beyond the in-flight bound.
 * None on the virtual clock.
 */
const slack = (walk: Walk): number => (walk.clock.kind === 'real' ? walk.clock.inFlightMs : 0);

/** A time as a message gives it: real ms rounded, with the allowance a real clock gave it; virtual ms as they are. */
const when = (walk: Walk, t: number): string => (walk.clock.kind === 'real' ? `${Math.round(t)}` : `${t}`);
const beyond = (walk: Walk): string => (walk.clock.kind === 'real' ? ` (more than the in-flight bound of ${walk.clock.inFlightMs} ms)` : '');

/** A cancel for `rec` went out: in this step, or on a real clock (no steps) by the time the obligation is checked. */
const cancelSent = (walk: Walk, rec: RequesterRec, step: number): boolean => (walk.clock.kind === 'real' ? rec.lastCancelStep !== undefined : rec.lastCancelStep === step);

/** A request timed out: its cancel must go out in this step (on a real clock, within the in-flight bound, before or after the settle). */
class CancelDue implements Obligation {
  constructor(
    readonly rec: RequesterRec,
    readonly invariant: CancelInvariant,
    readonly at: number,
  ) {}

  check(walk: Walk): void {
    // 2026-07-28: a request whose stream already closed is cancelled; there is nothing left to close.
    if (cancelSent(walk, this.rec, walk.step) || this.rec.streamClosedStep !== undefined) return;
    const name = walk.label(this.rec);
    const what = this.invariant === 'timeout.sends-cancel' ? 'timed out' : 'hit its maximum total timeout';
    const within = walk.clock.kind === 'real' ? ` within ${walk.clock.inFlightMs} ms` : '';
    const f = finding(this.invariant, this.at, `${name} ${what} but no cancellation was sent for it${within}.`, name);
    walk.flag(this.invariant === 'timeout.max-total' ? { ...f, clause: MAX_TOTAL_NO_CANCEL } : f);
  }
}

/**
 * `timeout.*` while the run goes on (`liveness.ts` checks calls still pending at its end): a call
 * settles within its bound, progress moves the deadline only with reset-on-progress, a maximum
 * total timeout holds regardless, a timeout sends the cancel (never for initialize), and a
 * settled call's callbacks stay quiet.
 */
export const timeoutRule: RuleFactory = (walk, facts) => ({
  callSettledAgain({ e }) {
    walk.flag(finding('timeout.quiet-after-settle', e.i, `call ${e.call} settled a second time (${e.outcome}).`, e.call));
  },

  refused(o) {
    if (o.machine !== 'requester' || o.event !== 'SETTLE' || o.e.kind !== 'call-settle') return;
    walk.flag(finding('timeout.quiet-after-settle', o.e.i, `call ${o.e.call} settled a second time.`, o.e.call));
  },

  onprogress({ e, call, late }) {
    if (late) walk.flag(finding('timeout.quiet-after-settle', e.i, `onprogress of call ${e.call} ran after the call had settled.`, e.call));
    const max = call.options.maxTotalTimeoutMs;
    if (!late && max !== undefined && e.t >= call.startT + max + slack(walk)) {
      // Progress that reaches the caller once the maximum has run out, the call still pending: the
      // maximum did not bound it. With reset-on-progress that is the very deadline extension the
      // maximum exists to cap, so it is a clause of its own.
      const reset = call.options.resetTimeoutOnProgress === true;
      const f = finding('timeout.max-total', e.i, `onprogress of call ${e.call} ran at ${when(walk, e.t)} ms, though its maximum total timeout ended at ${when(walk, call.startT + max)} ms${reset ? ' (with reset-on-progress)' : ''}${beyond(walk)}.`, e.call);
      walk.flag({ ...f, clause: reset ? MAX_TOTAL_PROGRESS_AFTER : MAX_TOTAL_PROGRESS_AFTER_NO_RESET });
    }
  },

  callSettled({ e, call }) {
    const why = call.settled?.why;
    const rec = call.req;
    if (rec && (why === 'timeout' || why === 'max-total') && rec.method !== 'initialize' && !cancelSent(walk, rec, e.step)) {
      walk.oblige(new CancelDue(rec, why === 'timeout' ? 'timeout.sends-cancel' : 'timeout.max-total', e.i));
    }
    const deadline = deadlineOf(call, facts);
    const allowed = slack(walk);
    if (e.t > deadline + allowed) {
      walk.flag(finding('timeout.settles', e.i, `call ${e.call} settled at ${when(walk, e.t)} ms, after its timeout bound of ${when(walk, deadline)} ms${beyond(walk)}.`, e.call));
    }
    if (why === 'timeout' && call.lastProgressT !== undefined && call.options.resetTimeoutOnProgress && e.t < deadline - allowed) {
      walk.flag(finding('timeout.reset-on-progress', e.i, `call ${e.call} timed out at ${when(walk, e.t)} ms although progress at ${when(walk, call.lastProgressT)} ms moved its deadline to ${when(walk, deadline)} ms${beyond(walk)}.`, e.call));
    }
    // The other half: without reset-on-progress, a timeout later than the unmoved deadline means progress moved it.
    if (why === 'timeout' && call.lastProgressT !== undefined && !call.options.resetTimeoutOnProgress && e.t > deadline + allowed) {
      walk.flag(finding('timeout.reset-on-progress', e.i, `call ${e.call} timed out at ${when(walk, e.t)} ms, after its deadline of ${when(walk, deadline)} ms${beyond(walk)}: progress at ${when(walk, call.lastProgressT)} ms moved it though reset-on-progress was off.`, e.call));
    }
    const max = call.options.maxTotalTimeoutMs;
    if (max !== undefined && e.t > call.startT + max + allowed) {
      const f = finding('timeout.max-total', e.i, `call ${e.call} settled at ${when(walk, e.t)} ms, after its maximum total timeout ended at ${when(walk, call.startT + max)} ms${beyond(walk)}.`, e.call);
      walk.flag({ ...f, clause: MAX_TOTAL_LATE });
    }
  },
});
