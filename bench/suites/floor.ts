/**
 * Suite 5: the floor. The same workloads as the SDK suites, run against the minimal
 * correlation structure of `bench/lib/floor.ts` (a `Map` keyed by id with timeout and
 * progress records, real `setTimeout`/`clearTimeout`). Every SDK curve names the floor
 * curve it is divided by in the summary. SDK-independent: runs once under `--compare`.
 */
import { floorEndpoint, floorHttpEndpoint } from '../lib/floor.ts';
import { heapMethodDescription } from '../lib/heap.ts';
import { LeakLedger } from '../lib/leaks.ts';
import { sizesFor } from '../lib/plan.ts';
import type { BenchSuite, Curve } from '../lib/suite.ts';
import { cancelStorm, httpInFlight, progressRouting, progressStorm, roundTrip, timeoutStorm } from '../lib/workloads.ts';
import { routingPerSample } from './progress.ts';
import { floorCurve } from '../lib/curves.ts';

export const floorSuite: BenchSuite = {
  name: 'floor',
  description: 'the minimal correlation structure (Map + setTimeout records) under every SDK workload: the physical limit',
  sdkIndependent: true,
  async run(ctx) {
    const ledger = new LeakLedger();
    const make = async () => floorEndpoint();
    const w = (curve: Curve) => ({ make, quick: ctx.quick, ledger, curveId: curve.id });
    const rr = floorCurve('request-response', 'request->response', 'request', 'requests in flight');
    const routing = floorCurve('progress-routing', 'progress routing', 'progress notification', 'active progress tokens (requests in flight)');
    const storm = floorCurve('progress-storm', 'progress storm', 'progress notification', 'notifications in the storm (one token)');
    const stormReset = floorCurve('progress-storm-reset', 'progress storm, timer reset', 'progress notification', 'notifications in the storm (one token)');
    const cancel = floorCurve('cancel-storm', 'cancel storm (K=N/2)', 'cancellation', 'requests in flight (half of them cancelled)');
    const timeout = floorCurve('timeout-storm', 'timeout storm', 'timeout', 'requests in flight (all timing out at once)');
    const http = floorCurve('http', 'HTTP correlation exchange', 'request', 'POSTs in flight in one session');
    const httpRespond = floorCurve('http-respond', 'HTTP correlation response phase', 'response', 'POSTs in flight in one session');

    const inflight = sizesFor('inflight', ctx.quick, ctx.maxN);
    for (const n of inflight) {
      ctx.log(`floor: N=${n}`);
      rr.points.push(await roundTrip(w(rr), n));
      routing.points.push(await progressRouting(w(routing), n, routingPerSample(ctx.quick)));
      cancel.points.push(await cancelStorm(w(cancel), n));
      timeout.points.push(await timeoutStorm(w(timeout), n));
    }
    for (const n of sizesFor('storm', ctx.quick, ctx.maxN)) {
      storm.points.push(await progressStorm(w(storm), n, false));
      stormReset.points.push(await progressStorm(w(stormReset), n, true));
    }
    const hctx = { make: async () => floorHttpEndpoint(), quick: ctx.quick, ledger, curveId: http.id };
    for (const n of sizesFor('http', ctx.quick, ctx.maxN)) {
      ctx.log(`floor http: N=${n}`);
      const points = await httpInFlight(hctx, n);
      http.points.push(points.exchange);
      httpRespond.points.push(points.respond);
    }
    return {
      name: this.name,
      description: this.description,
      curves: [rr, routing, storm, stormReset, cancel, timeout, http, httpRespond],
      leaks: ledger.leaks,
      notes: [`heap per in-flight request: ${heapMethodDescription()}`, ...ledger.notes()],
    };
  },
};
