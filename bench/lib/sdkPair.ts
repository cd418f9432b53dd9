/**
 * A low-level SDK `Client` and `Server` wired over the SDK's `InMemoryTransport` pair.
 *
 * Why: this is the shortest path through the SDK's `Protocol` correlation code (request ids,
 * response handlers, timeouts, progress, cancellation) with no I/O in between, so its cost is
 * the correlation layer plus JSON-RPC/schema handling. The server's `tools/call` handler
 * waits at the pair's current `Gate`, which a suite swaps per batch.
 */
import type { Sdk } from './loadSdk.ts';
import { Gate } from './latch.ts';
import { PROTOCOL_MAPS, probeMaps, type MapProbe } from './leaks.ts';

/** What a server handler receives besides the request (the subset the benches use). */
export interface HandlerExtra {
  signal: AbortSignal;
  requestId: string | number;
  sendNotification: (notification: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number };
  }) => Promise<void>;
}

export interface SdkPair {
  sdk: Sdk;
  client: InstanceType<Sdk['Client']>;
  server: InstanceType<Sdk['Server']>;
  /** The gate every `tools/call` handler waits at; replace it before each batch. */
  gate: Gate;
  /** When set, handlers push their `extra` here (progress benches send through it). */
  extras: HandlerExtra[] | null;
  /** `onerror` reports from either side (unknown ids, failed sends, ...). */
  errors: string[];
  /** Sends one `tools/call` through the client's `Protocol.request`. */
  call(options?: CallOptions): Promise<unknown>;
  /** Sizes of the correlation maps on both sides. */
  probe(): MapProbe[];
  close(): Promise<void>;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeout?: number;
  onprogress?: (progress: { progress: number }) => void;
  resetTimeoutOnProgress?: boolean;
}

const RESULT = { content: [{ type: 'text' as const, text: 'ok' }] };

export async function connectPair(sdk: Sdk): Promise<SdkPair> {
  const client = new sdk.Client({ name: 'bench-client', version: '0.0.0' }, { capabilities: {} });
  const server = new sdk.Server({ name: 'bench-server', version: '0.0.0' }, { capabilities: { tools: {} } });
  const pair: SdkPair = {
    sdk,
    client,
    server,
    gate: new Gate(0),
    extras: null,
    errors: [],
    call(options) {
      const request = { method: 'tools/call' as const, params: { name: 'bench', arguments: {} } };
      return client.request(request, sdk.types.CallToolResultSchema, options);
    },
    probe() {
      return [probeMaps(client, 'client (Protocol)', PROTOCOL_MAPS), probeMaps(server, 'server (Protocol)', PROTOCOL_MAPS)];
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
  server.setRequestHandler(sdk.types.CallToolRequestSchema, async (_request, extra) => {
    const gate = pair.gate;
    pair.extras?.push(extra as unknown as HandlerExtra);
    await gate.wait(extra.signal);
    return RESULT;
  });
  client.onerror = (error) => pair.errors.push(`client: ${error.message}`);
  server.onerror = (error) => pair.errors.push(`server: ${error.message}`);
  const [clientTransport, serverTransport] = sdk.InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return pair;
}
