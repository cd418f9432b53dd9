import { join } from 'node:path';
import { declarationFilesIn } from '../declaredCallOptions.ts';
import { methodPayloads, type MethodPayload } from '../methodPayloads.ts';
import { passThroughValidator } from '../passThroughValidator.ts';
import { protocolProbe } from '../protocolProbe.ts';
import type { HandlerContext, SdkAdapter, SdkMethod } from '../SdkAdapter.ts';
import { simStreamableHttp } from '../simHttpTransports.ts';
import { detectV2Capabilities } from './capabilities.ts';
import { v2Facts } from './facts.ts';
import { v2Hosting } from './hosting.ts';
import { createModernEra, type ClientModule, type ServerModule } from '../modern/createModernEra.ts';
import type { V2Context, V2Modules, V2Protocol } from './modules.ts';

/** The spec type names of each method's request and result in 2.x `specTypeSchemas`. */
const specTypes: Readonly<Record<SdkMethod, readonly [string, string]>> = {
  'tools/call': ['CallToolRequest', 'CallToolResult'],
  'sampling/createMessage': ['CreateMessageRequest', 'CreateMessageResult'],
  'elicitation/create': ['ElicitRequest', 'ElicitResult'],
  'roots/list': ['ListRootsRequest', 'ListRootsResult'],
};

/** The symbol under which 2.x stamps its errors' brands: one registry key, shared by every bundled copy. */
const ERROR_BRANDS = Symbol.for('mcp.sdk.errorBrands');

/** Whether `error` is of the 2.x error family `brand` (its brand set, else its name: a copy from before branding). */
function hasBrand(error: object, brand: 'ProtocolError' | 'SdkError'): boolean {
  const brands = (error as Record<symbol, unknown>)[ERROR_BRANDS];
  if (brands instanceof Set) return brands.has(`mcp.${brand}`);
  return (error as { name?: unknown }).name === brand;
}

/**
 * The code of either copy's `ProtocolError` (a JSON-RPC code) or `SdkError` (a local string
 * code), read by brand: the client's and the server's bundles each have their own classes.
 */
function errorCode(error: unknown): number | string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code } = error as { code?: unknown };
  if (typeof code === 'number' && hasBrand(error, 'ProtocolError')) return code;
  if (typeof code === 'string' && hasBrand(error, 'SdkError')) return code;
  return undefined;
}

/**
 * The adapter of one loaded 2.x release: `Client` of `@modelcontextprotocol/client`, low-level
 * `Server` of `@modelcontextprotocol/server`, each on its own bundled copy of `Protocol`, in the
 * 2025-11-25 era (the client's default legacy negotiation: `initialize`, sessions on HTTP).
 */
export async function createV2Adapter(
  identity: { readonly name: string; readonly version: string; readonly root: string },
  modules: V2Modules,
): Promise<SdkAdapter> {
  const { client: c, server: s } = modules;
  const schemas = s.specTypeSchemas ?? {};
  const payloads = new Map([...methodPayloads].filter(([method]) => specTypes[method].every((type) => schemas[type] !== undefined)));
  // The client package's own copy of `Protocol` sends the campaign's calls: its types say what it takes.
  const capabilities = await detectV2Capabilities(modules, declarationFilesIn(join(identity.root, 'client', 'dist')));
  const payload = (method: SdkMethod): MethodPayload => {
    const found = payloads.get(method);
    if (!found) throw new Error(`${identity.name}@${identity.version} has no schemas for ${method}`);
    return found;
  };
  const context = (ctx: V2Context): HandlerContext => ({
    signal: ctx.mcpReq.signal,
    requestId: ctx.mcpReq.id,
    progressToken: ctx.mcpReq._meta?.progressToken,
    sendNotification: (notification) => ctx.mcpReq.notify(notification),
    sendRequest: (method, params, options) => ctx.mcpReq.send({ method, params }, options),
  });

  return {
    ...identity,
    generation: 2,
    facts: v2Facts,
    capabilities,
    methods: [...payloads.keys()],
    createClient: () =>
      new c.Client(
        { name: 'mcp-sim-client', version: '0.0.0' },
        { capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} }, jsonSchemaValidator: passThroughValidator },
      ),
    createServer: () => new s.Server({ name: 'mcp-sim-server', version: '0.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: passThroughValidator }),
    handle(endpoint, method, handler) {
      if (!capabilities.handlerRequestId) {
        throw new Error(`${identity.name}@${identity.version} does not give a request handler its request id; mcp-sim needs it to route requests.`);
      }
      payload(method); // a method the release has no spec types for is refused here, not registered
      (endpoint as V2Protocol).setRequestHandler(method, (request, ctx) => handler(request, context(ctx)));
    },
    request: (endpoint, method, params, options) => (endpoint as V2Protocol).request({ method, params }, options),
    requestParams(method, handler, meta, args) {
      const params: Record<string, unknown> = { ...payload(method).params(handler) };
      if (args && method === 'tools/call') params.arguments = { ...args };
      if (meta) params._meta = { ...meta };
      return params;
    },
    result: (method) => ({ ...payload(method).result() }),
    errorCode,
    handlerError: (code, message) => new s.ProtocolError(code, message),
    deserializeMessage: (line) => s.deserializeMessage(line),
    http:
      capabilities.streamableHttpServer && capabilities.streamableHttpClient
        ? simStreamableHttp(s.WebStandardStreamableHTTPServerTransport!, c.StreamableHTTPClientTransport!)
        : undefined,
    probe: protocolProbe(v2Facts),
    hosting: v2Hosting(modules),
    modules: undefined,
    modern: createModernEra(
      c as unknown as ClientModule,
      s as unknown as ServerModule,
      { packages: [`@modelcontextprotocol/client@${identity.version}`, `${identity.name}@${identity.version}`], version: identity.version, root: identity.root },
      errorCode,
    ),
  };
}
