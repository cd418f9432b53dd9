import { finding } from './finding.ts';
import { idKey, show } from './ids.ts';
import { handlerOf } from './records.ts';
import type { RuleFactory } from './rule.ts';
import { CallSettles } from './callSettles.ts';
import { receiverSubjects } from './subjects.ts';
import { deadlineOf, MAX_TOTAL_LATE } from './rules/timeout.ts';

/**
 * End of run: everything that should have ended did. The run reached quiescence
 * (`liveness.quiescent`); no call is pending past its bound (`timeout.settles`,
 * `timeout.max-total`: at quiescence nothing can settle it any more, so every pending call
 * counts); at quiescence no handler still runs (`liveness.handler-ends`), an aborted one
 * included (`cancel.never-ends`: its abort came, and it never threw or returned).
 */
export const livenessRule: RuleFactory = (walk, facts) => {
  /**
   * Handlers of a user's server (`handler-start` with `hosted`): `cancel.never-ends` judges these
   * only. A scripted handler that ignores its abort and hangs is the SDK campaign's stand-in for a
   * misbehaving peer, there to exercise the SDK, not code under test.
   */
  const hosted = new Set<string>();
  const settles = new CallSettles(walk);
  return {
    trace(e) {
      if (e.kind === 'handler-start' && e.hosted) hosted.add(`${e.side}:${e.conn}:${idKey(e.id)}`);
      if (walk.clock.kind === 'real') settles.trace(e);
    },

    requestSent(o) {
      if (walk.clock.kind === 'real') settles.requestSent(o);
    },

    progressDelivered({ e, rec }) {
      if (rec.call) settles.life(rec.call, e.t);
    },

    responseDelivered({ e, rec }) {
      if (rec.call) settles.answered(rec.call, e.t);
    },

    callSettled({ e, call, wire }) {
      // Settled with no response read: the client gave the call up (a cancel, a timeout, a dropped stream, its close).
      if (wire === 'pending' || wire === 'progressing') settles.givenUp(call, e.t);
    },

    finish({ at, t, outcome }) {
      if (walk.clock.kind === 'real') return settles.finish(at, t, walk.clock);
      const quiescent = outcome === 'quiescent';
      if (!quiescent) walk.flag(finding('liveness.quiescent', at, `the run ended on its ${outcome} instead of reaching quiescence.`));
      for (const call of walk.calls()) {
        if (call.settled) continue;
        const deadline = deadlineOf(call, facts);
        if (quiescent || t > deadline) {
          walk.flag(finding('timeout.settles', at, `call ${call.call} never settled (its timeout bound was ${deadline} ms).`, call.call));
        }
        const max = call.options.maxTotalTimeoutMs;
        if (max !== undefined && t > call.startT + max) {
          // Still pending is settling late at its worst: the same clause as a late settle, so one baseline entry covers both.
          const f = finding('timeout.max-total', at, `call ${call.call} was still pending at ${t} ms, after its maximum total timeout ended at ${call.startT + max} ms.`, call.call);
          walk.flag({ ...f, clause: MAX_TOTAL_LATE });
        }
      }
      if (!quiescent) return;
      for (const rec of walk.receivers()) {
        if (handlerOf(rec) === 'running') {
          walk.flag(finding('liveness.handler-ends', at, `the ${rec.side}'s handler of request ${show(rec.id)} neither ended nor was aborted.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
        }
        // Aborted (cancelled, timed out, its connection closed) and still running with nothing left to run: it awaits what nothing will settle.
        if (handlerOf(rec) === 'aborted' && hosted.has(`${rec.side}:${rec.conn}:${idKey(rec.id)}`)) {
          walk.flag(finding('cancel.never-ends', at, `the ${rec.side}'s handler of request ${show(rec.id)} was aborted but never ended: at the end of the run it still awaits something nothing will settle.`, walk.receivedLabel(rec), receiverSubjects(walk, rec)));
        }
      }
    },
  };
};
