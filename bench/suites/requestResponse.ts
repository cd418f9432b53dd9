/**
 * Suite 1: request -> response through the SDK's `Protocol` with N requests in flight.
 *
 * Low-level `Client.request(tools/call)` to a low-level `Server` handler registered with
 * `setRequestHandler(CallToolRequestSchema, ...)`, over `InMemoryTransport.createLinkedPair()`.
 * All N handlers wait at a gate until the N-th arrives, so both sides hold N correlation
 * entries at once; then all answer. Cost per request and retained heap per in-flight request.
 */
import { LeakLedger } from '../lib/leaks.ts';
import { heapMethodDescription } from '../lib/heap.ts';
import { sizesFor } from '../lib/plan.ts';
import { connectPair } from '../lib/sdkPair.ts';
import type { BenchSuite } from '../lib/suite.ts';
import { roundTrip } from '../lib/workloads.ts';
import { sdkCurve } from '../lib/curves.ts';

export const requestResponseSuite: BenchSuite = {
  name: 'request-response',
  description: 'tools/call request -> response through the SDK Protocol over InMemoryTransport, N in flight',
  async run(ctx) {
    const ledger = new LeakLedger();
    const curve = sdkCurve(ctx.sdk.version, {
      id: 'request-response',
      floor: 'request-response',
      label: 'request->response',
      op: 'request',
      nMeaning: 'requests in flight',
    });
    const wctx = { make: () => connectPair(ctx.sdk), quick: ctx.quick, ledger, curveId: `${curve.id}@${ctx.sdk.version}` };
    for (const n of sizesFor('inflight', ctx.quick, ctx.maxN)) {
      ctx.log(`${curve.label}: N=${n}`);
      curve.points.push(await roundTrip(wctx, n));
    }
    return {
      name: this.name,
      description: this.description,
      sdkVersion: ctx.sdk.version,
      curves: [curve],
      leaks: ledger.leaks,
      notes: [`heap per in-flight request: ${heapMethodDescription()}`, ...ledger.notes()],
    };
  },
};
