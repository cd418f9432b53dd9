import type { SdkCapabilities, SdkModules } from '../SdkAdapter.ts';
import { declaredCallOptions } from '../declaredCallOptions.ts';
import { probeTimeoutBehaviour } from '../timeoutProbe.ts';

/** What a loaded 1.x release offers, from its modules and two probes (a handler exchange, a timeout probe). */
export async function detectV1Capabilities(modules: SdkModules, jsonSchemaValidator: unknown, declarationFiles: readonly string[]): Promise<SdkCapabilities> {
  const [handler, timeouts] = await Promise.all([
    probeHandlerContext(modules, jsonSchemaValidator),
    probeTimeoutBehaviour({
      createServer: () => new modules.server.Server({ name: 'mcp-sim-probe', version: '0.0.0' }, { capabilities: {}, jsonSchemaValidator: jsonSchemaValidator as never }),
      resultSchema: modules.types.EmptyResultSchema,
    }),
  ]);
  return {
    streamableHttpServer: typeof modules.streamableHttpServer?.WebStandardStreamableHTTPServerTransport === 'function',
    streamableHttpClient: typeof modules.streamableHttpClient?.StreamableHTTPClientTransport === 'function',
    elicitation: modules.types.ElicitRequestSchema !== undefined && modules.types.ElicitResultSchema !== undefined,
    ...handler,
    ...timeouts,
    ...declaredCallOptions(declarationFiles),
  };
}

/** A 1.x `Protocol`'s handler table: the release's own wrapper of each handler, which gets the raw JSON-RPC request. */
export type RawHandler = (request: { readonly id?: unknown }, extra: Record<string, unknown>) => unknown;

/** The release's stored handler of `method`, if it keeps them in a `_requestHandlers` map (every 1.x). */
export function rawHandlers(endpoint: unknown): Map<string, RawHandler> | undefined {
  const table = (endpoint as { _requestHandlers?: unknown })._requestHandlers;
  return table instanceof Map ? (table as Map<string, RawHandler>) : undefined;
}

/**
 * Puts the raw request's id into the `extra` the release's wrapper of `method` hands on: the
 * wrapper parses the request with the method's schema, which drops the id (1.0 to 1.10). Returns
 * false when the release keeps no such table.
 */
export function passRawRequestId(endpoint: unknown, method: string): boolean {
  const table = rawHandlers(endpoint);
  const stored = table?.get(method);
  if (!table || !stored) return false;
  table.set(method, (request, extra) => stored(request, { ...extra, requestId: request.id }));
  return true;
}

const isId = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number';

/**
 * One `tools/call` between a fresh `Client` and `Server` over the release's `InMemoryTransport`:
 * does the handler's `extra` carry the request id, or can the adapter get it from the raw
 * request (`passRawRequestId`)? Does `extra` tie messages to the request (`sendNotification`,
 * `sendRequest`)? Nothing in the release's exports says so.
 */
async function probeHandlerContext(
  modules: SdkModules,
  jsonSchemaValidator: unknown,
): Promise<Pick<SdkCapabilities, 'handlerRequestId' | 'requestIdSource' | 'relatedMessages'>> {
  const { Client } = modules.client;
  const { Server } = modules.server;
  const { CallToolRequestSchema, CallToolResultSchema } = modules.types;
  const server = new Server({ name: 'mcp-sim-probe', version: '0.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: jsonSchemaValidator as never });
  const client = new Client({ name: 'mcp-sim-probe', version: '0.0.0' }, { capabilities: {}, jsonSchemaValidator: jsonSchemaValidator as never });
  let seen: Record<string, unknown> | undefined;
  let raw: unknown;
  server.setRequestHandler(CallToolRequestSchema, (_request, extra) => {
    seen = extra as unknown as Record<string, unknown>;
    return { content: [] };
  });
  const table = rawHandlers(server);
  const stored = table?.get('tools/call');
  if (table && stored) {
    table.set('tools/call', (request, extra) => {
      raw = request.id;
      return stored(request, extra);
    });
  }
  try {
    const [clientEnd, serverEnd] = modules.inMemory.InMemoryTransport.createLinkedPair();
    await server.connect(serverEnd);
    await client.connect(clientEnd);
    await client.request({ method: 'tools/call', params: { name: 'probe', arguments: {} } }, CallToolResultSchema);
  } catch {
    seen = undefined;
  } finally {
    await client.close().catch(() => {});
    await server.close().catch(() => {});
  }
  const inContext = isId(seen?.requestId);
  return {
    handlerRequestId: inContext,
    requestIdSource: inContext ? 'context' : seen !== undefined && isId(raw) ? 'raw-request' : 'none',
    relatedMessages: typeof seen?.sendNotification === 'function' && typeof seen.sendRequest === 'function',
  };
}
