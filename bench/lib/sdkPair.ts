/**
 * An `Endpoint` made of an SDK client and low-level server over the release's own in-memory
 * linked transports, built through the `SdkAdapter`, so one code path measures 1.x and 2.x.
 *
 * Why: this is the shortest path through the SDK's `Protocol` correlation code (request ids,
 * response handlers, timeouts, progress, cancellation) with no I/O in between, so what it
 * costs beyond the floor is the correlation layer plus JSON-RPC and schema handling.
 */
import type { SdkAdapter, ServerHosting } from '../../src/sdk/SdkAdapter.ts';
import type { CallOptions, Endpoint } from './endpoint.ts';
import { Gate } from './latch.ts';
import { PROTOCOL_MAPS, mapSize, probeMaps } from './leaks.ts';

/** The bench's one tool; its name is all the scripted `tools/call` payload carries. */
const TOOL = 'bench';

/** The release's own linked in-memory transports, client end first (`hosting`, the adapter's one home for them). */
export function linkedPair(sdk: SdkAdapter): ReturnType<ServerHosting['createLinkedPair']> {
  if (sdk.hosting === undefined) throw new Error(`${sdk.name}@${sdk.version}: its adapter offers no in-memory transports, which the SDK benchmarks need`);
  return sdk.hosting.createLinkedPair();
}

export async function connectPair(sdk: SdkAdapter): Promise<Endpoint> {
  const client = sdk.createClient();
  const server = sdk.createServer();
  const result = sdk.result('tools/call');
  const endpoint: Endpoint = {
    label: `sdk ${sdk.version}`,
    gate: new Gate(0),
    progressSenders: null,
    errors: [],
    call(options: CallOptions = {}) {
      const { onprogress, ...rest } = options;
      return sdk.request(
        client,
        'tools/call',
        sdk.requestParams('tools/call', TOOL),
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
  sdk.handle(server, 'tools/call', async (_request, context) => {
    const token = context.progressToken;
    if (endpoint.progressSenders !== null && token !== undefined) {
      endpoint.progressSenders.push((progress) => {
        void context.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress } });
      });
    }
    await endpoint.gate.wait(context);
    return result;
  });
  client.onerror = (error) => endpoint.errors.push(`client: ${error.message}`);
  server.onerror = (error) => endpoint.errors.push(`server: ${error.message}`);
  const [clientTransport, serverTransport] = linkedPair(sdk);
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return endpoint;
}
