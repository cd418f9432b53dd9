import { readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CAMPAIGN_SEED } from '../../src/options/defaults.ts';
import { resolveCampaignOptions } from '../../src/options/index.ts';
import { loadBaseline } from '../../src/baseline/baseline.ts';
import { campaignOn } from '../../src/campaign/check.ts';
import { runChecked } from '../../src/check/index.ts';
import { loadSdk, V2_SERVER_PACKAGE } from '../../src/sdk/load.ts';
import type { Endpoint, HandlerContext, SdkAdapter } from '../../src/sdk/SdkAdapter.ts';
import { v2Facts } from '../../src/sdk/v2/facts.ts';
import { runScenario } from '../../src/sim/runScenario.ts';
import { memoryPair } from './memoryPair.ts';
import type { Scenario } from '../../src/sim/scenario.ts';

/** The 2.x pair installed in the project (devDependencies): their scope folder. */
const PAIR = realpathSync(resolve('node_modules/@modelcontextprotocol'));
const pairVersion = (JSON.parse(readFileSync(join(PAIR, 'server', 'package.json'), 'utf8')) as { version: string }).version;

const v2 = (): Promise<SdkAdapter> => loadSdk({ kind: 'folder', path: PAIR });

/** A connected client and server of `sdk`, with `serve` as the server's `tools/call`. */
async function connected(sdk: SdkAdapter, serve: (context: HandlerContext) => Promise<Record<string, unknown>>): Promise<{ client: Endpoint; server: Endpoint }> {
  const { client: clientEnd, server: serverEnd } = memoryPair();
  const server = sdk.createServer();
  sdk.handle(server, 'tools/call', (_request, context) => serve(context));
  const client = sdk.createClient();
  await server.connect(serverEnd);
  await client.connect(clientEnd);
  return { client, server };
}

describe('the 2.x adapter on the installed client + server pair', () => {
  it('should load the pair from the project and name it by the server package and their one version', async () => {
    const sdk = await v2();
    expect(sdk.generation).toBe(2);
    expect(sdk.name).toBe(V2_SERVER_PACKAGE);
    expect(sdk.version).toBe(pairVersion);
    expect(sdk.root).toBe(PAIR);
    expect(sdk.modules).toBeUndefined();
    // Either package's folder names the same pair: one load.
    expect(await loadSdk({ kind: 'folder', path: join(PAIR, 'server') })).toBe(sdk);
    expect(await loadSdk({ kind: 'folder', path: join(PAIR, 'client') })).toBe(sdk);
  });

  it('should detect what 2.4.0 offers and carry the 2.x facts', async () => {
    const sdk = await v2();
    expect(sdk.capabilities).toEqual({
      streamableHttpServer: true,
      streamableHttpClient: true,
      elicitation: true,
      handlerRequestId: true,
      requestIdSource: 'context',
      relatedMessages: true,
      // The shared timeout probe (src/sdk/timeoutProbe.ts) on the server package's own Protocol copy.
      progressResetsTimeout: 'when-asked',
      resetTimeoutOnProgress: true,
      maxTotalTimeout: true,
    });
    expect(sdk.methods).toEqual(['tools/call', 'sampling/createMessage', 'elicitation/create', 'roots/list']);
    expect(sdk.http).toBeDefined();
    expect(sdk.facts).toBe(v2Facts);
    expect(sdk.facts.requestTimeoutCode).toBe('REQUEST_TIMEOUT');
  });

  it("should probe both bundled copies of Protocol: the client's maps and the server's, with a request in flight and after", async () => {
    const sdk = await v2();
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { client, server } = await connected(sdk, async () => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
      return sdk.result('tools/call');
    });
    expect(sdk.probe.nextRequestId(client)).toEqual({ value: 1 }); // initialize was 0
    const call = sdk.request(client, 'tools/call', sdk.requestParams('tools/call', 'held'), { onprogress: () => {} });
    await running;
    const inFlight = sdk.probe.correlationMaps(client);
    expect(inFlight._responseHandlers).toEqual({ size: 1, keys: [1] });
    expect(inFlight._progressHandlers).toEqual({ size: 1, keys: [1] });
    expect(inFlight._timeoutInfo).toEqual({ size: 1, keys: [1] });
    expect(sdk.probe.correlationMaps(server)._requestHandlerAbortControllers).toEqual({ size: 1, keys: [1] });
    // Tasks left Protocol in 2.x: their maps are reported missing, not read as empty.
    expect(inFlight._requestResolvers).toEqual({ keys: [], missing: '_requestResolvers is not a Map in this SDK version' });
    expect(sdk.probe.correlationMaps(server)._taskProgressTokens?.missing).toBeDefined();
    release();
    await call;
    await new Promise((resolve) => setImmediate(resolve));
    for (const field of ['_responseHandlers', '_progressHandlers', '_timeoutInfo']) expect(sdk.probe.correlationMaps(client)[field]).toEqual({ size: 0, keys: [] });
    expect(sdk.probe.correlationMaps(server)._requestHandlerAbortControllers).toEqual({ size: 0, keys: [] });
    await client.close();
  });

  it("should read the codes of either copy's errors: ProtocolError of the server's copy and of the client's, SdkError of each", async () => {
    const sdk = await v2();
    const thrown = sdk.handlerError(-32042, 'refused'); // the server package's ProtocolError
    expect(sdk.errorCode(thrown)).toBe(-32042);
    const { client } = await connected(sdk, () => Promise.reject(thrown));
    const received = await sdk.request(client, 'tools/call', sdk.requestParams('tools/call', 'x'), {}).catch((e: unknown) => e);
    // The client rebuilt it from the wire with its own copy's class: another class, the same brand.
    expect(received).not.toBe(thrown);
    expect(Object.getPrototypeOf(received)).not.toBe(Object.getPrototypeOf(thrown));
    expect(sdk.errorCode(received)).toBe(-32042);
    expect((received as Error).message).toBe('refused');
    await client.close();

    const { client: waiting, server } = await connected(sdk, () => new Promise(() => {}));
    sdk.handle(waiting, 'roots/list', () => new Promise(() => {}));
    // A timeout on each side: an SdkError of the client's copy, then of the server's.
    for (const [endpoint, method] of [
      [waiting, 'tools/call'],
      [server, 'roots/list'],
    ] as const) {
      const timedOut = await sdk.request(endpoint, method, sdk.requestParams(method, 'x'), { timeout: 5 }).catch((e: unknown) => e);
      expect(sdk.errorCode(timedOut)).toBe('REQUEST_TIMEOUT');
      expect((timedOut as Error).message).toMatch(sdk.facts.errorText.requestTimeout);
    }
    await waiting.close();
  });

  it("should give no code for errors that are not the SDK's own", async () => {
    const sdk = await v2();
    expect(sdk.errorCode(new Error('plain'))).toBeUndefined();
    expect(sdk.errorCode(Object.assign(new Error('coded'), { code: -32000 }))).toBeUndefined();
    expect(sdk.errorCode('REQUEST_TIMEOUT')).toBeUndefined();
    expect(sdk.errorCode(undefined)).toBeUndefined();
  });

  it('should frame stdio lines as the release does', async () => {
    const sdk = await v2();
    expect(sdk.deserializeMessage('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(() => sdk.deserializeMessage('not json')).toThrow();
  });
});

/** One call whose handler reports progress twice before answering. */
const progressScenario = (profile: 'memory' | 'http'): Scenario => ({
  handlers: {
    h1: { steps: [{ kind: 'progress', progress: 1 }, { kind: 'progress', progress: 2, total: 2 }], end: { kind: 'result' }, onAbort: 'honour' },
  },
  actions: [{ kind: 'call', call: 'c1', method: 'tools/call', options: { timeoutMs: 30_000, onprogress: true }, handler: 'h1' }],
  profile,
  ...(profile === 'http' && { http: { stateful: true, response: 'sse', eventStore: false } }),
});

describe('the simulator on the 2.x pair', () => {
  for (const profile of ['memory', 'http'] as const) {
    it(`should carry a handler's progress to the caller and settle the call (${profile})`, async () => {
      const sdk = await v2();
      const run = await runScenario(progressScenario(profile), { sdk });
      expect(run.sdk).toMatchObject({ name: V2_SERVER_PACKAGE, version: pairVersion });
      expect(run.outcome).toEqual({ kind: 'quiescent' });
      expect(run.trace.filter((e) => e.kind === 'onprogress').map((e) => (e as { progress: number }).progress)).toEqual([1, 2]);
      expect(run.trace.find((e) => e.kind === 'call-settle')).toMatchObject({ call: 'c1', outcome: 'resolved' });
    });
  }

  it('should run a short campaign on both profiles to the end', async () => {
    const sdk = await v2();
    const options = resolveCampaignOptions({ runs: 60, seed: DEFAULT_CAMPAIGN_SEED, shrink: false, workers: 1 }, {});
    const report = await campaignOn(sdk, options);
    expect(report.runs).toBe(60);
    expect(report.workload.profiles).toEqual(['memory', 'http']);
    expect(report.outcomes).toEqual({ quiescent: 60 });
  });
});

describe('the 2.4.0 baseline: what the pair is known to break', () => {
  /** The pair's baseline entries of `invariant` whose shape has every word of `shape`. */
  const entries = (invariant: string, shape: readonly string[] = []) =>
    loadBaseline(V2_SERVER_PACKAGE, pairVersion)!.entries.filter((e) => e.invariant === invariant && shape.every((w) => e.shape.split('+').includes(w)));
  const findingsOn = async (sdk: SdkAdapter, entry: ReturnType<typeof entries>[number]) =>
    (await runChecked(entry.counterexample.scenario, { tape: entry.counterexample.tape, seed: entry.counterexample.seed, sdk })).findings.map((f) => f.invariant);

  it('should hold the hung POST of a cancelled request (stateful Streamable HTTP), reproducing on the pair', async () => {
    const sdk = await v2();
    const hung = entries('http.exchange-completes').filter((e) => e.variant.startsWith('http/stateful/'));
    expect(hung.length).toBeGreaterThan(0);
    for (const entry of hung) expect(await findingsOn(sdk, entry)).toContain('http.exchange-completes');
  });

  it("should hold an aborted handler's progress sent on the next connection, which 1.32.2 drops", async () => {
    const sdk = await v2();
    const [entry] = entries('progress.token-requested', ['close', 'reconnect', 'ignore']);
    expect(entry).toBeDefined();
    expect(await findingsOn(sdk, entry!)).toContain('progress.token-requested');
    expect(await findingsOn(await loadSdk(), entry!)).not.toContain('progress.token-requested');
  });
});
