/**
 * Suite 3: cancellation and timeout storms through the SDK's `Protocol`.
 *
 * Cancel: N in flight, every other one (K = ceil(N/2)) aborted through its AbortSignal;
 * timed until the client rejected all K and the server aborted all K handlers
 * (`notifications/cancelled` -> `_requestHandlerAbortControllers`). Timeout: N in flight
 * with a 1 s timeout under @sinonjs/fake-timers (installed only for that sample); one
 * `clock.tick(1000)` fires all N, timed with the real clock until every request was rejected
 * and every server handler aborted.
 */
import { LeakLedger } from '../lib/leaks.ts';
import { sizesFor } from '../lib/plan.ts';
import { connectPair } from '../lib/sdkPair.ts';
import type { BenchSuite } from '../lib/suite.ts';
import { cancelStorm, timeoutStorm } from '../lib/workloads.ts';
import { sdkCurve } from '../lib/curves.ts';

export const cancellationSuite: BenchSuite = {
  name: 'cancellation',
  description: 'cancel K=N/2 of N in flight via AbortSignal; N timeouts firing at one virtual instant',
  async run(ctx) {
    const ledger = new LeakLedger();
    const v = ctx.sdk.version;
    const make = () => connectPair(ctx.sdk);
    const cancel = sdkCurve(v, {
      id: 'cancel-storm',
      floor: 'cancel-storm',
      label: 'cancel storm (K=N/2)',
      op: 'cancellation',
      nMeaning: 'requests in flight (half of them cancelled)',
    });
    const timeout = sdkCurve(v, {
      id: 'timeout-storm',
      floor: 'timeout-storm',
      label: 'timeout storm',
      op: 'timeout',
      nMeaning: 'requests in flight (all timing out at once)',
    });
    for (const n of sizesFor('inflight', ctx.quick, ctx.maxN)) {
      ctx.log(`${cancel.label}: N=${n}`);
      cancel.points.push(await cancelStorm({ make, quick: ctx.quick, ledger, curveId: `${cancel.id}@${v}` }, n));
      ctx.log(`${timeout.label}: N=${n}`);
      timeout.points.push(await timeoutStorm({ make, quick: ctx.quick, ledger, curveId: `${timeout.id}@${v}` }, n));
    }
    return {
      name: this.name,
      description: this.description,
      sdkVersion: v,
      curves: [cancel, timeout],
      leaks: ledger.leaks,
      notes: [
        'timeout storm: @sinonjs/fake-timers 15.5.0 fakes setTimeout/clearTimeout/Date for the sample only; timed with performance.now captured before install',
        ...ledger.notes(),
      ],
    };
  },
};
