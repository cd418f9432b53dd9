/**
 * The harness benchmark: what one simulated run costs, against the bare SDK doing the same
 * exchange over its own `InMemoryTransport`. Real timers, outside any run's fake clock.
 *
 * Run alone with `node --import tsx bench/harness.bench.ts`, or as part of `npm run bench`.
 * Every claim is a ratio measured in this one process: the machines are noisy.
 */
import { Bench } from 'tinybench';
import { fileURLToPath } from 'node:url';
import { caseAt } from '../src/campaign/simCase.ts';
import { runChecked } from '../src/check/index.ts';
import { resolveCampaignOptions } from '../src/options/index.ts';
import type { Profile } from '../src/sim/index.ts';
import { defaultSdk } from '../src/sdk/load.ts';
import type { HttpServerTransportOptions, SdkAdapter } from '../src/sdk/SdkAdapter.ts';
import { runScenario, type Scenario } from '../src/sim/index.ts';
import { linkedPair } from './lib/sdkPair.ts';
import type { BenchSuite, SuiteResult } from './lib/suite.ts';

/** A scenario of `n` tool calls, each answering after one progress notification. */
export function requestsScenario(n: number): Scenario {
  return {
    profile: 'memory',
    handlers: { tool: { steps: [{ kind: 'progress', progress: 1 }], end: { kind: 'result' }, onAbort: 'honour' } },
    actions: Array.from({ length: n }, (_, i) => ({
      kind: 'call' as const,
      call: `c${i + 1}`,
      method: 'tools/call' as const,
      handler: 'tool',
      options: { onprogress: true },
    })),
  };
}

/** A tool that sleeps ten virtual minutes between two progress steps, called with a long timeout. */
const tenMinutes: Scenario = {
  profile: 'memory',
  handlers: {
    slow: {
      steps: [{ kind: 'progress', progress: 1 }, { kind: 'sleep', ms: 600_000 }, { kind: 'progress', progress: 2 }],
      end: { kind: 'result' },
      onAbort: 'honour',
    },
  },
  actions: [{ kind: 'call', call: 'c1', method: 'tools/call', handler: 'slow', options: { onprogress: true, timeoutMs: 3_600_000 } }],
};

/** The bare exchanges' server: its tool answers after one progress notification, as `requestsScenario`'s handler does. */
function answeringServer(sdk: SdkAdapter): ReturnType<SdkAdapter['createServer']> {
  const server = sdk.createServer();
  sdk.handle(server, 'tools/call', async (_request, context) => {
    const token = context.progressToken;
    if (token !== undefined) await context.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1 } });
    return sdk.result('tools/call');
  });
  return server;
}

/** `n` tool calls at once, each with a progress callback; their results. */
function callTool(sdk: SdkAdapter, client: ReturnType<SdkAdapter['createClient']>, n: number): Promise<unknown[]> {
  return Promise.all(Array.from({ length: n }, () => sdk.request(client, 'tools/call', sdk.requestParams('tools/call', 'tool'), { onprogress: () => {} })));
}

/**
 * The same exchange as `requestsScenario(n)` on the bare SDK, the release the runs use: fresh
 * pair, handshake, n calls, each answered after one progress notification. It goes through the
 * same adapter as the simulator (its endpoints, pass-through validator and handler context), so
 * the ratio is what the simulated world adds, on either generation.
 */
export async function bareSdk(sdk: SdkAdapter, n: number): Promise<unknown[]> {
  const [clientEnd, serverEnd] = linkedPair(sdk);
  const server = answeringServer(sdk);
  const client = sdk.createClient();
  await server.connect(serverEnd);
  await client.connect(clientEnd);
  const results = await callTool(sdk, client, n);
  await client.close();
  return results;
}

/**
 * The same exchange over the release's own Streamable HTTP transports (stateful, SSE responses),
 * bare: the client transport's `fetch` hands each `Request` straight to the server transport's
 * `handleRequest`, no network, no scheduling, no trace. What this costs against `bareSdk` is the
 * floor of the http profile's ratio to the memory profile: the SDK's transports, their zod
 * parses and web streams, on this Node, with nothing of the harness.
 */
export async function bareSdkHttp(sdk: SdkAdapter, n: number): Promise<unknown[]> {
  if (sdk.http === undefined) throw new Error(`${sdk.name}@${sdk.version}: the bare HTTP exchange needs the release's web-standard transports (sdk.http)`);
  const serverTransport = sdk.http.createServerTransport({ sessionIdGenerator: () => 'bare-session', keepAliveMs: 0 } as HttpServerTransportOptions);
  const server = answeringServer(sdk);
  // A JSON body goes as `parsedBody` (a `Request` with a body costs several times one without),
  // as the simulated network sends it: the floor is the cheapest way to drive the transports.
  const fetch = async (url: string | URL, init: RequestInit = {}) => {
    const { body, ...rest } = init;
    return typeof body === 'string'
      ? serverTransport.handleRequest(new Request(url, rest), { parsedBody: JSON.parse(body) })
      : serverTransport.handleRequest(new Request(url, init));
  };
  const clientTransport = sdk.http.createSimClientTransport(new URL('http://bare.invalid/mcp'), { fetch });
  const client = sdk.createClient();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  const results = await callTool(sdk, client, n);
  await client.close();
  await server.close();
  return results;
}

/** Messages a scenario delivers: handshake (3) plus request, progress, response per call. */
const messagesOf = (n: number) => 3 + 3 * n;

export interface HarnessNumbers {
  scenariosPerSec: Record<string, number>;
  /** Generated cases per second, drawn and judged as `mcp-sim check` does (mean, not median: cases differ). */
  campaignRunsPerSec: { memory: number; both: number };
  nsPerMessage: { harness: number; bare: number; ratio: number };
  tenMinuteScenarioMs: number;
  oracle: { withoutPerSec: number; withPerSec: number; shareOfRunTime: number };
  /**
   * `vsMemory`: the http scenario's cost over the memory one's. `bareVsBare`: the bare SDK over
   * HTTP against the bare SDK in memory; `bareVsMemory`: the bare SDK over HTTP against the
   * simulated memory scenario, the ratio a harness adding nothing to the SDK's transports would have.
   * `harnessOverBare`: what the simulation adds to the bare SDK on each profile (1-request scenario).
   */
  http: { perSec: number; withOraclePerSec: number; vsMemory: number; bareVsBare: number; bareVsMemory: number; harnessOverBare: { memory: number; http: number } };
}

/**
 * One case after another of the default campaign on `profiles`, drawn with `caseAt` from the
 * resolved default workload and run by `runChecked` with coverage, as `check` runs them.
 */
function campaignTask(sdk: SdkAdapter, profiles: Profile[]): () => Promise<void> {
  const { seed, workload } = resolveCampaignOptions({ workload: { profiles } }, {});
  let index = 0;
  return async () => {
    const c = caseAt(seed, index++, workload);
    await runChecked(c.scenario, { tape: c.tape, seed: c.seed, coverage: true, sdk });
  };
}

/** The 1-request scenario on the Streamable HTTP profile (stateful, SSE responses). */
const oneOverHttp: Scenario = { ...requestsScenario(1), profile: 'http', http: { stateful: true, response: 'sse', eventStore: false } };

/** Measures the harness on `sdk` (its simulated runs and the bare baseline both use it). */
export async function measureHarness(sdk: SdkAdapter, quick = false): Promise<{ numbers: HarnessNumbers; table: unknown[] }> {
  const bench = new Bench({ name: 'harness', time: quick ? 300 : 1_500, warmup: true, warmupTime: quick ? 100 : 300 });
  const one = requestsScenario(1);
  const five = requestsScenario(5);
  bench
    .add('harness: 1-request scenario', async () => { await runScenario(one, { sdk }); })
    .add('harness: 5-request scenario', async () => { await runScenario(five, { sdk }); })
    .add('bare SDK: 1-request exchange', () => bareSdk(sdk, 1))
    .add('bare SDK: 5-request exchange', () => bareSdk(sdk, 5))
    .add('harness: 10 virtual minutes', async () => { await runScenario(tenMinutes, { sdk }); });
  bench
    .add('harness + oracle: 1-request scenario', async () => { await runChecked(one, { sdk }); })
    .add('http profile: 1-request scenario', async () => { await runScenario(oneOverHttp, { sdk }); })
    .add('http profile + oracle: 1-request scenario', async () => { await runChecked(oneOverHttp, { sdk }); })
    .add('bare SDK over HTTP: 1-request exchange', async () => { await bareSdkHttp(sdk, 1); })
    .add('campaign: memory profile', campaignTask(sdk, ['memory']))
    .add('campaign: memory and http profiles', campaignTask(sdk, ['memory', 'http']));
  // Task functions are declared `async`: tinybench would otherwise call one to detect whether it
  // returns a promise, and two runs would overlap (runs share the process's globals).
  await bench.run();
  // Medians: on a noisy shared machine a few slow samples (GC, the other core's work) skew means.
  const mean = (name: string) => {
    const r = bench.tasks.find((t) => t.name === name)?.result;
    if (!r || !('latency' in r)) throw new Error(`harness bench: task "${name}" did not complete`);
    return r.latency.p50; // ms
  };
  const perSec = (name: string) => 1000 / mean(name);
  const meanPerSec = (name: string) => {
    const r = bench.tasks.find((t) => t.name === name)?.result;
    if (!r || !('latency' in r)) throw new Error(`harness bench: task "${name}" did not complete`);
    return 1000 / r.latency.mean;
  };
  const harnessNs = (mean('harness: 5-request scenario') * 1e6) / messagesOf(5);
  const bareNs = (mean('bare SDK: 5-request exchange') * 1e6) / messagesOf(5);
  const numbers: HarnessNumbers = {
    scenariosPerSec: {
      '1-request': perSec('harness: 1-request scenario'),
      '5-request': perSec('harness: 5-request scenario'),
    },
    campaignRunsPerSec: { memory: meanPerSec('campaign: memory profile'), both: meanPerSec('campaign: memory and http profiles') },
    nsPerMessage: { harness: harnessNs, bare: bareNs, ratio: harnessNs / bareNs },
    tenMinuteScenarioMs: mean('harness: 10 virtual minutes'),
    oracle: {
      withoutPerSec: perSec('harness: 1-request scenario'),
      withPerSec: perSec('harness + oracle: 1-request scenario'),
      shareOfRunTime: 1 - mean('harness: 1-request scenario') / mean('harness + oracle: 1-request scenario'),
    },
    http: {
      perSec: perSec('http profile: 1-request scenario'),
      withOraclePerSec: perSec('http profile + oracle: 1-request scenario'),
      vsMemory: mean('http profile: 1-request scenario') / mean('harness: 1-request scenario'),
      bareVsBare: mean('bare SDK over HTTP: 1-request exchange') / mean('bare SDK: 1-request exchange'),
      bareVsMemory: mean('bare SDK over HTTP: 1-request exchange') / mean('harness: 1-request scenario'),
      harnessOverBare: {
        memory: mean('harness: 1-request scenario') / mean('bare SDK: 1-request exchange'),
        http: mean('http profile: 1-request scenario') / mean('bare SDK over HTTP: 1-request exchange'),
      },
    },
  };
  return { numbers, table: bench.table() };
}

export function formatHarnessNumbers(n: HarnessNumbers): string[] {
  return [
    `1-request scenarios/s: ${n.scenariosPerSec['1-request']!.toFixed(0)} (target ≥ 1000 on one core)`,
    `5-request scenarios/s: ${n.scenariosPerSec['5-request']!.toFixed(0)}`,
    `campaign (cases drawn and judged as check does): ${n.campaignRunsPerSec.memory.toFixed(0)} runs/s on the memory profile, ${n.campaignRunsPerSec.both.toFixed(0)} on memory and http`,
    `cost per delivered message: harness ${(n.nsPerMessage.harness / 1000).toFixed(1)} µs, bare SDK ${(n.nsPerMessage.bare / 1000).toFixed(1)} µs, ratio ${n.nsPerMessage.ratio.toFixed(2)}× (target ≤ 3×)`,
    `a scenario spanning 10 virtual minutes: ${n.tenMinuteScenarioMs.toFixed(2)} ms of wall time`,
    `oracle: ${n.oracle.withoutPerSec.toFixed(0)} scenarios/s without, ${n.oracle.withPerSec.toFixed(0)} with; it takes ${(n.oracle.shareOfRunTime * 100).toFixed(0)}% of a checked run (target ≤ 50%)`,
    `http profile (stateful, SSE): ${n.http.perSec.toFixed(0)} scenarios/s, ${n.http.withOraclePerSec.toFixed(0)} with the oracle; ${n.http.vsMemory.toFixed(1)}× the memory profile's cost`,
    `http floor: the bare SDK over its own HTTP transports costs ${n.http.bareVsBare.toFixed(1)}× the bare SDK in memory, ${n.http.bareVsMemory.toFixed(1)}× the simulated memory scenario (what an http profile adding nothing would cost); the simulation adds ${n.http.harnessOverBare.memory.toFixed(2)}× to the bare SDK in memory, ${n.http.harnessOverBare.http.toFixed(2)}× over HTTP`,
  ];
}

/** Plugs into `bench/run.ts`. */
export const harnessSuite: BenchSuite = {
  name: 'harness',
  description: 'simulated runs per second and cost per delivered message against the bare SDK',
  // The harness drives one SDK through src/sim (the first one asked); it runs once, not per compared version.
  sdkIndependent: true,
  async run(ctx): Promise<SuiteResult> {
    const { numbers } = await measureHarness(ctx.sdk, ctx.quick);
    const lines = [`on ${ctx.sdk.name}@${ctx.sdk.version} (simulated runs and the bare baseline alike)`, ...formatHarnessNumbers(numbers)];
    for (const l of lines) ctx.log(`harness: ${l}`);
    return { name: 'harness', description: this.description, curves: [], leaks: [], notes: lines };
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { numbers, table } = await measureHarness(await defaultSdk(), process.argv.includes('--quick'));
  console.table(table);
  for (const line of formatHarnessNumbers(numbers)) console.log(line);
}
