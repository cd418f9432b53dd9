import type { SdkCapabilities, SdkModules } from '../SdkAdapter.ts';

/** What a loaded 1.x release offers, from its modules and one probe exchange. */
export async function detectV1Capabilities(modules: SdkModules, jsonSchemaValidator: unknown): Promise<SdkCapabilities> {
  return {
    streamableHttpServer: typeof modules.streamableHttpServer?.WebStandardStreamableHTTPServerTransport === 'function',
    streamableHttpClient: typeof modules.streamableHttpClient?.StreamableHTTPClientTransport === 'function',
    elicitation: modules.types.ElicitRequestSchema !== undefined && modules.types.ElicitResultSchema !== undefined,
    handlerRequestId: await handlerSeesRequestId(modules, jsonSchemaValidator),
  };
}

/**
 * One `tools/call` between a fresh `Client` and `Server` over the release's `InMemoryTransport`:
 * does the handler's `extra` carry the request id? Nothing in the release's exports says so.
 */
async function handlerSeesRequestId(modules: SdkModules, jsonSchemaValidator: unknown): Promise<boolean> {
  const { Client } = modules.client;
  const { Server } = modules.server;
  const { CallToolRequestSchema, CallToolResultSchema } = modules.types;
  const server = new Server({ name: 'mcp-sim-probe', version: '0.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: jsonSchemaValidator as never });
  const client = new Client({ name: 'mcp-sim-probe', version: '0.0.0' }, { capabilities: {}, jsonSchemaValidator: jsonSchemaValidator as never });
  let seen: unknown;
  server.setRequestHandler(CallToolRequestSchema, (_request, extra) => {
    seen = (extra as { requestId?: unknown }).requestId;
    return { content: [] };
  });
  try {
    const [clientEnd, serverEnd] = modules.inMemory.InMemoryTransport.createLinkedPair();
    await server.connect(serverEnd);
    await client.connect(clientEnd);
    await client.request({ method: 'tools/call', params: { name: 'probe', arguments: {} } }, CallToolResultSchema);
  } catch {
    return false;
  } finally {
    await client.close().catch(() => {});
    await server.close().catch(() => {});
  }
  return typeof seen === 'string' || typeof seen === 'number';
}
