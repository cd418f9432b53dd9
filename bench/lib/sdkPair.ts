/**
 * An `Endpoint` made of a low-level SDK `Client` and `Server` over `InMemoryTransport`.
 *
 * Why: this is the shortest path through the SDK's `Protocol` correlation code (request ids,
 * response handlers, timeouts, progress, cancellation) with no I/O in between, so what it
 * costs beyond the floor is the correlation layer plus JSON-RPC and schema handling.
 */
import type { SdkAdapter } from '../../src/sdk/SdkAdapter.ts';
import { v1ModulesOf } from '../../src/sdk/v1/modules.ts';
import type { CallOptions, Endpoint } from './endpoint.ts';
import { Gate } from './latch.ts';
import { PROTOCOL_MAPS, mapSize, probeMaps } from './leaks.ts';

/** The subset of the server handler's `extra` the benches use. */
interface HandlerExtra {
  signal: AbortSignal;
  sendNotification: (notification: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number };
  }) => Promise<void>;
}

const RESULT = { content: [{ type: 'text' as const, text: 'ok' }] };

export async function connectPair(sdk: SdkAdapter): Promise<Endpoint> {
  const { client: { Client }, server: { Server }, inMemory: { InMemoryTransport }, types } = v1ModulesOf(sdk, 'the SDK benchmarks');
  const client = new Client({ name: 'bench-client', version: '0.0.0' }, { capabilities: {} });
  const server = new Server({ name: 'bench-server', version: '0.0.0' }, { capabilities: { tools: {} } });
  const endpoint: Endpoint = {
    label: `sdk ${sdk.version}`,
    gate: new Gate(0),
    progressSenders: null,
    errors: [],
    call(options: CallOptions = {}) {
      const { onprogress, ...rest } = options;
      return client.request(
        { method: 'tools/call', params: { name: 'bench', arguments: {} } },
        types.CallToolResultSchema,
        onprogress === undefined ? rest : { ...rest, onprogress: (p: { progress: number }) => onprogress(p.progress) },
      );
    },
    inFlight: () => mapSize(client, '_responseHandlers'),
    probe: () => [probeMaps(client, 'client (Protocol)', PROTOCOL_MAPS), probeMaps(server, 'server (Protocol)', PROTOCOL_MAPS)],
    async close() {
      await client.close();
      await server.close();
    },
  };
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extraArg) => {
    const extra = extraArg as unknown as HandlerExtra;
    const gate = endpoint.gate;
    const token = request.params._meta?.progressToken;
    if (endpoint.progressSenders !== null && token !== undefined) {
      endpoint.progressSenders.push((progress) => {
        void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress } });
      });
    }
    await gate.wait(extra);
    return RESULT;
  });
  client.onerror = (error) => endpoint.errors.push(`client: ${error.message}`);
  server.onerror = (error) => endpoint.errors.push(`server: ${error.message}`);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return endpoint;
}
