/**
 * Suite 4: the Streamable HTTP server transport answering N in-flight requests in one
 * stateful session, JSON mode (`enableJsonResponse: true`) and SSE mode (false).
 *
 * Each request is its own POST through `transport.handleRequest(new Request(...))`; all N
 * handlers wait at a gate, then all answer. sdk-facts: each response's `send()` scans every
 * entry of the request->stream map, so the cost per response should grow with N; the
 * "response phase" curve isolates that part (gate opened -> last body read).
 */
import { LeakLedger } from '../lib/leaks.ts';
import { heapMethodDescription } from '../lib/heap.ts';
import { openHttpSession, type HttpMode } from '../lib/httpSession.ts';
import { sizesFor } from '../lib/plan.ts';
import type { BenchSuite, SuiteResult } from '../lib/suite.ts';
import { HTTP_HEAP_MAX_N, httpInFlight, retainedPerCompletedPost } from '../lib/workloads.ts';
import { sdkCurve } from '../lib/curves.ts';

export const streamableHttpSuite: BenchSuite = {
  name: 'streamable-http',
  description: 'WebStandardStreamableHTTPServerTransport (stateful) answering N in-flight POSTs in one session, JSON and SSE modes',
  async run(ctx) {
    const v = ctx.sdk.version;
    const base: SuiteResult = { name: this.name, description: this.description, sdkVersion: v, curves: [], leaks: [], notes: [] };
    if (!ctx.sdk.capabilities.streamableHttpServer) {
      return { ...base, skipped: `SDK ${v} has no server/webStandardStreamableHttp.js (WebStandardStreamableHTTPServerTransport)` };
    }
    const ledger = new LeakLedger();
    const retained: string[] = [];
    for (const mode of ['json', 'sse'] as HttpMode[]) {
      const exchange = sdkCurve(v, {
        id: `http-${mode}`,
        floor: 'http',
        label: `HTTP ${mode.toUpperCase()} exchange`,
        op: 'request (POST -> body read)',
        nMeaning: 'POSTs in flight in one session',
      });
      const respond = sdkCurve(v, {
        id: `http-${mode}-respond`,
        floor: 'http-respond',
        label: `HTTP ${mode.toUpperCase()} response phase`,
        op: 'response (gate open -> body read)',
        nMeaning: 'POSTs in flight in one session',
      });
      const wctx = { make: () => openHttpSession(ctx.sdk, mode), quick: ctx.quick, ledger, curveId: `${exchange.id}@${v}` };
      for (const n of sizesFor('http', ctx.quick, ctx.maxN)) {
        ctx.log(`${exchange.label}: N=${n}`);
        const points = await httpInFlight(wctx, n);
        exchange.points.push(points.exchange);
        respond.points.push(points.respond);
      }
      base.curves.push(exchange, respond);
      const count = ctx.quick ? 2_000 : 10_000;
      ctx.log(`SDK ${v} HTTP ${mode.toUpperCase()}: heap retained per completed POST (${count} sequential)`);
      const { bytesPerPost, probes } = await retainedPerCompletedPost(wctx, count);
      const sizes = probes.flatMap((p) => Object.entries(p.sizes).filter(([, size]) => size > 0).map(([field, size]) => `${field}=${size}`));
      retained.push(
        `${mode.toUpperCase()} mode: ${Math.round(bytesPerPost).toLocaleString('en-US')} B of heap retained per completed POST after ${count.toLocaleString('en-US')} sequential POSTs in one open session` +
          (sizes.length > 0 ? ` (non-empty maps after them: ${sizes.join(', ')})` : ' (all correlation maps empty)'),
      );
    }
    return {
      ...base,
      leaks: ledger.leaks,
      notes: [
        'sessions are stateful with a deterministic sessionIdGenerator and keepAliveMs: 0; the POSTs are built before timing',
        ...retained,
        `heap per in-flight request (probed up to N=${HTTP_HEAP_MAX_N.toLocaleString('en-US')}): ${heapMethodDescription()}`,
        ...ledger.notes(),
      ],
    };
  },
};
