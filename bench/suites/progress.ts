/**
 * Suite 2: progress notifications through the SDK's `Protocol`.
 *
 * Routing: N requests in flight, each with its own progress token (`onprogress`); the server
 * sends notifications spread over all N tokens and the client routes each to its callback
 * (`_progressHandlers` lookup). Storm: one request, N notifications on its one token, with
 * and without `resetTimeoutOnProgress` (which re-arms the request timer on every one).
 */
import { LeakLedger } from '../lib/leaks.ts';
import { sizesFor } from '../lib/plan.ts';
import { connectPair } from '../lib/sdkPair.ts';
import type { BenchSuite } from '../lib/suite.ts';
import { progressRouting, progressStorm } from '../lib/workloads.ts';
import { sdkCurve } from '../lib/curves.ts';

/** Notifications sent per sample in the routing benchmark. */
export function routingPerSample(quick: boolean): number {
  return quick ? 2_000 : 10_000;
}

export const progressSuite: BenchSuite = {
  name: 'progress',
  description: 'progress routing with N active tokens, and a progress storm of N notifications on one token',
  async run(ctx) {
    const ledger = new LeakLedger();
    const v = ctx.sdk.version;
    const make = () => connectPair(ctx.sdk);
    const routing = sdkCurve(v, {
      id: 'progress-routing',
      floor: 'progress-routing',
      label: 'progress routing',
      op: 'progress notification',
      nMeaning: 'active progress tokens (requests in flight)',
    });
    const storm = sdkCurve(v, {
      id: 'progress-storm',
      floor: 'progress-storm',
      label: 'progress storm',
      op: 'progress notification',
      nMeaning: 'notifications in the storm (one token)',
    });
    const stormReset = sdkCurve(v, {
      id: 'progress-storm-reset',
      floor: 'progress-storm-reset',
      label: 'progress storm, resetTimeoutOnProgress',
      op: 'progress notification',
      nMeaning: 'notifications in the storm (one token)',
    });
    const perSample = routingPerSample(ctx.quick);
    for (const n of sizesFor('inflight', ctx.quick, ctx.maxN)) {
      ctx.log(`${routing.label}: N=${n}`);
      routing.points.push(await progressRouting({ make, quick: ctx.quick, ledger, curveId: `${routing.id}@${v}` }, n, perSample));
    }
    for (const n of sizesFor('storm', ctx.quick, ctx.maxN)) {
      ctx.log(`${storm.label}: N=${n}`);
      storm.points.push(await progressStorm({ make, quick: ctx.quick, ledger, curveId: `${storm.id}@${v}` }, n, false));
      ctx.log(`${stormReset.label}: N=${n}`);
      stormReset.points.push(await progressStorm({ make, quick: ctx.quick, ledger, curveId: `${stormReset.id}@${v}` }, n, true));
    }
    return {
      name: this.name,
      description: this.description,
      sdkVersion: v,
      curves: [routing, storm, stormReset],
      leaks: ledger.leaks,
      notes: [`routing sends ${perSample} notifications per sample, spread over all N tokens`, ...ledger.notes()],
    };
  },
};
