/**
 * The measured workloads, written once and run against any `Endpoint` (SDK or floor).
 *
 * Why: each suite is a list of (workload, endpoint, N) points; keeping the loops here means
 * the SDK and the floor do byte-for-byte the same bench-side work, and every workload ends
 * with the same leak check (after a settle, before close: `close()` clears the maps).
 */
import FakeTimers from '@sinonjs/fake-timers';
import type { Endpoint, HttpEndpoint } from './endpoint.ts';
import { afterForcedGc, heapUsed } from './heap.ts';
import { Gate, Latch } from './latch.ts';
import type { LeakLedger, MapProbe } from './leaks.ts';
import { measure, pointFromSamples } from './measure.ts';
import { planFor } from './plan.ts';
import { realNow, settle } from './realClock.ts';
import type { Point } from './suite.ts';

export type EndpointFactory = () => Promise<Endpoint>;

export interface WorkloadContext {
  make: EndpointFactory;
  quick: boolean;
  ledger: LeakLedger;
  /** Label for leaks and errors, e.g. `sdk/request-response`. */
  curveId: string;
}

const noop = (): void => {};

/** Settles, records leaks and errors, closes. Runs after every phase of every point. */
async function finish(endpoint: Endpoint | HttpEndpoint, ctx: { ledger: LeakLedger; curveId: string }, n: number): Promise<void> {
  await settle(3);
  const context = `${ctx.curveId} N=${n}`;
  for (const probe of endpoint.probe()) ctx.ledger.check(probe, context);
  ctx.ledger.errors(endpoint.errors, context);
  endpoint.errors.length = 0;
  await endpoint.close();
}

/** Launches `n` calls, opens the gate once all `n` handlers wait, awaits every response. */
async function roundTripBatch(endpoint: Endpoint, n: number, atPeak?: () => void): Promise<void> {
  const gate = new Gate(n);
  endpoint.gate = gate;
  void gate.arrived.done.then(() => {
    atPeak?.();
    gate.open();
  });
  const calls: Promise<unknown>[] = new Array(n);
  for (let i = 0; i < n; i++) calls[i] = endpoint.call();
  await Promise.all(calls);
}

/**
 * Request -> response with `n` in flight: cost per request, peak in-flight count and, in a
 * separate untimed batch, heap retained per in-flight request.
 */
/**
 * One curve point measured on one endpoint made for the whole point: the endpoint's lifecycle
 * (made before the samples, leak-checked after them) and the peak in-flight count are the same
 * for every batch workload; `sample` times its batch and reports in-flight counts via `seen`.
 */
async function measureOnEndpoint(
  ctx: WorkloadContext,
  n: number,
  opsPerSample: number,
  sample: (ep: Endpoint, seen: (inFlight: number | undefined) => void) => Promise<number>,
): Promise<Point> {
  let endpoint: Endpoint | undefined;
  let peak = 0;
  const point = await measure({
    name: `${ctx.curveId} N=${n}`,
    n,
    opsPerSample,
    plan: planFor(n, ctx.quick),
    beforeAll: async () => {
      endpoint = await ctx.make();
    },
    sample: () => sample(endpoint!, (inFlight) => (peak = Math.max(peak, inFlight ?? 0))),
    afterAll: () => finish(endpoint!, ctx, n),
  });
  point.peakInFlight = peak;
  return point;
}

export async function roundTrip(ctx: WorkloadContext, n: number): Promise<Point> {
  const point = await measureOnEndpoint(ctx, n, n, async (ep, seen) => {
    const start = realNow();
    await roundTripBatch(ep, n, () => seen(ep.inFlight()));
    return realNow() - start;
  });
  if (n >= HEAP_MIN_N) point.heapBytesPerInFlight = await heapPerInFlight(ctx, n);
  return point;
}

/** Below this N the retained heap is within GC noise (tens of kB), so it is not reported. */
export const HEAP_MIN_N = 100;

/** Heap retained per in-flight request: heap with all `n` waiting at the gate minus baseline. */
async function heapPerInFlight(ctx: WorkloadContext, n: number): Promise<number> {
  const endpoint = await ctx.make();
  await roundTripBatch(endpoint, Math.min(n, 100)); // warm the paths once
  await settle(3);
  const base = heapUsed();
  let atPeak = base;
  await roundTripBatch(endpoint, n, () => {
    atPeak = heapUsed();
  });
  await finish(endpoint, ctx, n);
  await afterForcedGc();
  return (atPeak - base) / n;
}

/** Spreads progress notifications over all tokens (7919 is prime, so coprime with every N used). */
const STRIDE = 7919;

/**
 * Progress routing with `tokens` requests in flight, each with its own progress token:
 * cost per notification (server send -> client routes it by token -> callback), sending
 * `perSample` notifications spread over all tokens per sample.
 */
export async function progressRouting(ctx: WorkloadContext, tokens: number, perSample: number): Promise<Point> {
  let endpoint: Endpoint | undefined;
  let calls: Promise<unknown>[] = [];
  let received = new Latch(0);
  let value = 0;
  const point = await measure({
    name: `${ctx.curveId} N=${tokens}`,
    n: tokens,
    opsPerSample: perSample,
    plan: planFor(perSample, ctx.quick),
    beforeAll: async () => {
      const ep = await ctx.make();
      endpoint = ep;
      ep.progressSenders = [];
      ep.gate = new Gate(tokens);
      const onprogress = (): void => received.hit();
      calls = Array.from({ length: tokens }, () => ep.call({ onprogress }));
      await ep.gate.arrived.done;
      if (ep.progressSenders.length !== tokens) throw new Error(`expected ${tokens} progress tokens, got ${ep.progressSenders.length}`);
    },
    sample: async () => {
      const senders = endpoint!.progressSenders!;
      received = new Latch(perSample);
      const start = realNow();
      for (let k = 0; k < perSample; k++) senders[(k * STRIDE) % tokens]!(++value);
      await received.done;
      return realNow() - start;
    },
    afterAll: async () => {
      endpoint!.gate.open();
      await Promise.all(calls);
      endpoint!.progressSenders = null;
      await finish(endpoint!, ctx, tokens);
    },
  });
  point.peakInFlight = tokens;
  return point;
}

/**
 * A progress storm: `storm` notifications on one token of one in-flight request, optionally
 * with `resetTimeoutOnProgress` (each notification re-arms the request timer).
 */
export async function progressStorm(ctx: WorkloadContext, storm: number, resetTimeoutOnProgress: boolean): Promise<Point> {
  let endpoint: Endpoint | undefined;
  let call: Promise<unknown> = Promise.resolve();
  let received = new Latch(0);
  let value = 0;
  return measure({
    name: `${ctx.curveId} N=${storm}`,
    n: storm,
    opsPerSample: storm,
    plan: planFor(storm, ctx.quick),
    beforeAll: async () => {
      const ep = await ctx.make();
      endpoint = ep;
      ep.progressSenders = [];
      ep.gate = new Gate(1);
      call = ep.call({ onprogress: () => received.hit(), resetTimeoutOnProgress });
      await ep.gate.arrived.done;
    },
    sample: async () => {
      const send = endpoint!.progressSenders![0]!;
      received = new Latch(storm);
      const start = realNow();
      for (let k = 0; k < storm; k++) send(++value);
      await received.done;
      return realNow() - start;
    },
    afterAll: async () => {
      endpoint!.gate.open();
      await call;
      endpoint!.progressSenders = null;
      await finish(endpoint!, ctx, storm);
    },
  });
}

/**
 * Cancellation storm: `n` in flight, every other one (K = ceil(n/2)) cancelled through its
 * AbortSignal. Timed from the first abort until the requester rejected all K and the
 * receiver aborted all K handlers; cost per cancellation.
 */
export async function cancelStorm(ctx: WorkloadContext, n: number): Promise<Point> {
  const k = Math.ceil(n / 2);
  return measureOnEndpoint(ctx, n, k, async (ep, seen) => {
    const gate = new Gate(n, k);
    ep.gate = gate;
    const rejected = new Latch(k);
    const controllers = Array.from({ length: n }, () => new AbortController());
    const calls = controllers.map((c) => ep.call({ signal: c.signal }).then(noop, () => rejected.hit()));
    await gate.arrived.done;
    seen(ep.inFlight());
    const start = realNow();
    for (let i = 0; i < n; i += 2) controllers[i]!.abort('bench cancel');
    await Promise.all([rejected.done, gate.aborted.done]);
    const elapsed = realNow() - start;
    gate.open();
    await Promise.all(calls);
    return elapsed;
  });
}

/** The virtual timeout every request gets in the timeout storm. */
const STORM_TIMEOUT_MS = 1_000;

/**
 * Timeout storm: `n` in flight, all timing out at the same virtual instant. Timers are
 * @sinonjs/fake-timers (installed only for this sample, faking setTimeout/clearTimeout/Date,
 * which is all the SDK's timeout code uses); one `clock.tick` fires all `n`. Timed with the
 * real clock from the tick until the requester rejected all `n` and the receiver aborted all
 * `n` handlers; cost per timeout. The fake clock's own timer heap is part of both the SDK's
 * and the floor's cost.
 */
export async function timeoutStorm(ctx: WorkloadContext, n: number): Promise<Point> {
  return measureOnEndpoint(ctx, n, n, async (ep, seen) => {
    const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const gate = new Gate(n, n);
      ep.gate = gate;
      const timedOut = new Latch(n);
      const calls = Array.from({ length: n }, () => ep.call({ timeout: STORM_TIMEOUT_MS }).then(noop, () => timedOut.hit()));
      await gate.arrived.done;
      seen(ep.inFlight());
      const start = realNow();
      clock.tick(STORM_TIMEOUT_MS);
      await Promise.all([timedOut.done, gate.aborted.done]);
      const elapsed = realNow() - start;
      await Promise.all(calls);
      return elapsed;
    } finally {
      clock.uninstall();
    }
  });
}

export interface HttpWorkloadContext {
  make: () => Promise<HttpEndpoint>;
  quick: boolean;
  ledger: LeakLedger;
  curveId: string;
}

let nextHttpId = 1;

/** Heap per in-flight POST is flat well before this; a probe batch beyond it costs ~20 s. */
export const HTTP_HEAP_MAX_N = 10_000;

/** Prepares (untimed) and sends `n` POSTs, opens the gate when all `n` handlers wait, reads every body. */
async function httpBatch(endpoint: HttpEndpoint, n: number, atPeak?: () => void): Promise<{ totalMs: number; respondMs: number }> {
  const ids = Array.from({ length: n }, () => nextHttpId++);
  const prepared = ids.map((id) => endpoint.prepare(id));
  const gate = new Gate(n);
  endpoint.gate = gate;
  let opened = 0;
  void gate.arrived.done.then(() => {
    atPeak?.();
    opened = realNow();
    gate.open();
  });
  const start = realNow();
  const bodies = await Promise.all(prepared.map((p) => endpoint.exchange(p)));
  const end = realNow();
  for (let i = 0; i < n; i++) {
    if (!bodies[i]!.includes(`"id":${ids[i]}`)) endpoint.errors.push(`response ${i} does not carry id ${ids[i]}: ${bodies[i]!.slice(0, 120)}`);
  }
  return { totalMs: end - start, respondMs: end - opened };
}

/**
 * Streamable HTTP: `n` POSTs in flight in one session, each answered once all `n` handlers
 * wait. Returns two points from the same samples: the whole exchange (POST -> body read) per
 * request, and the response phase alone (gate opened -> last body read) per response, where
 * the transport's per-response work is.
 */
export async function httpInFlight(ctx: HttpWorkloadContext, n: number): Promise<{ exchange: Point; respond: Point }> {
  let endpoint: HttpEndpoint | undefined;
  let respondSamples: number[] = [];
  const exchange = await measure({
    name: `${ctx.curveId} N=${n}`,
    n,
    opsPerSample: n,
    plan: planFor(n, ctx.quick),
    beforeAll: async () => {
      endpoint = await ctx.make();
      respondSamples = []; // keep the run phase's samples only
    },
    sample: async () => {
      const { totalMs, respondMs } = await httpBatch(endpoint!, n);
      respondSamples.push(respondMs);
      return totalMs;
    },
    afterAll: () => finish(endpoint!, ctx, n),
  });
  exchange.peakInFlight = n;
  if (n >= HEAP_MIN_N && n <= HTTP_HEAP_MAX_N) {
    const ep = await ctx.make();
    await httpBatch(ep, Math.min(n, 100));
    await settle(3);
    const base = heapUsed();
    let atPeak = base;
    await httpBatch(ep, n, () => {
      atPeak = heapUsed();
    });
    await finish(ep, ctx, n);
    await afterForcedGc();
    exchange.heapBytesPerInFlight = (atPeak - base) / n;
  }
  return { exchange, respond: pointFromSamples(n, n, respondSamples) };
}

/**
 * Heap still retained per *completed* POST: `count` sequential exchanges in one open session,
 * heap after minus heap before. Zero is the expected answer (every correlation entry should
 * be gone once its response is read); anything else is a leak's per-request cost.
 */
export async function retainedPerCompletedPost(ctx: HttpWorkloadContext, count: number): Promise<{ bytesPerPost: number; probes: MapProbe[] }> {
  const endpoint = await ctx.make();
  const one = async (): Promise<void> => {
    const id = nextHttpId++;
    const prepared = endpoint.prepare(id);
    const gate = new Gate(1);
    endpoint.gate = gate;
    void gate.arrived.done.then(() => gate.open());
    await endpoint.exchange(prepared);
  };
  for (let i = 0; i < Math.min(count, 200); i++) await one(); // warm up
  await settle(3);
  const base = heapUsed();
  for (let i = 0; i < count; i++) await one();
  await settle(3);
  const bytesPerPost = (heapUsed() - base) / count;
  const probes = endpoint.probe();
  await finish(endpoint, { ledger: ctx.ledger, curveId: `${ctx.curveId} (sequential)` }, count);
  await afterForcedGc();
  return { bytesPerPost, probes };
}
