import { passThroughValidator } from '../passThroughValidator.ts';
import type { SdkCapabilities } from '../SdkAdapter.ts';
import { declaredCallOptions } from '../declaredCallOptions.ts';
import { probeTimeoutBehaviour } from '../timeoutProbe.ts';
import type { V2Context, V2Modules } from './modules.ts';

/** What a loaded 2.x release offers, from its exports and two probes (a handler exchange, the timeout probe). */
export async function detectV2Capabilities(modules: V2Modules, declarationFiles: readonly string[]): Promise<SdkCapabilities> {
  const schemas = modules.server.specTypeSchemas ?? {};
  const handlerRequestId = await handlerSeesRequestId(modules);
  const timeouts = await probeTimeoutBehaviour({
    createServer: () => new modules.server.Server({ name: 'mcp-sim-probe', version: '0.0.0' }, { capabilities: {}, jsonSchemaValidator: passThroughValidator }),
  });
  return {
    streamableHttpServer: typeof modules.server.WebStandardStreamableHTTPServerTransport === 'function',
    streamableHttpClient: typeof modules.client.StreamableHTTPClientTransport === 'function',
    elicitation: schemas.ElicitRequest !== undefined && schemas.ElicitResult !== undefined,
    handlerRequestId,
    requestIdSource: handlerRequestId ? 'context' : 'none',
    // ctx.mcpReq.notify and ctx.mcpReq.send tie a handler's messages to its request.
    relatedMessages: true,
    ...timeouts,
    ...declaredCallOptions(declarationFiles),
  };
}

/**
 * One `tools/call` between a fresh `Client` (client package) and `Server` (server package) over
 * the client's `InMemoryTransport`: does `ctx.mcpReq.id` carry the request id? It also proves
 * that the two bundled copies of `Protocol` talk to each other at all.
 */
async function handlerSeesRequestId({ client: c, server: s }: V2Modules): Promise<boolean> {
  const options = { jsonSchemaValidator: passThroughValidator };
  const server = new s.Server({ name: 'mcp-sim-probe', version: '0.0.0' }, { capabilities: { tools: {} }, ...options });
  const client = new c.Client({ name: 'mcp-sim-probe', version: '0.0.0' }, { capabilities: {}, ...options });
  let seen: unknown;
  server.setRequestHandler('tools/call', async (_request, ctx: V2Context) => {
    seen = ctx.mcpReq?.id;
    return { content: [] };
  });
  try {
    const [clientEnd, serverEnd] = c.InMemoryTransport.createLinkedPair();
    await server.connect(serverEnd);
    await client.connect(clientEnd);
    await client.request({ method: 'tools/call', params: { name: 'probe', arguments: {} } });
  } catch {
    return false;
  } finally {
    await client.close().catch(() => {});
    await server.close().catch(() => {});
  }
  return typeof seen === 'string' || typeof seen === 'number';
}
