import type { HandlerContext, IncomingRequest, RequestOptions, SdkAdapter, SdkMethod, SdkModules } from '../SdkAdapter.ts';
import { detectV1Capabilities } from './capabilities.ts';
import { v1Facts } from './facts.ts';
import { v1StreamableHttp } from './httpTransports.ts';
import { v1MethodSpecs, type MethodSpec } from './methods.ts';
import { v1Probe } from './probe.ts';
import { v1Hosting } from './hosting.ts';

/**
 * Scripted handlers use no output or elicitation schemas, and the SDK's default Ajv validator
 * costs about 2 ms per endpoint, more than a whole simulated run: a pass-through one replaces it
 * (SDK versions without the option ignore it).
 */
const passThroughValidator = {
  getValidator: () => (input: unknown) => ({ valid: true, data: input, errorMessage: undefined }),
};

/** The 1.x handler `extra`, as far as it is read (the SDK's typing is per schema). */
interface V1Extra {
  signal: AbortSignal;
  requestId: string | number;
  _meta?: { progressToken?: string | number };
  sendNotification(notification: unknown): Promise<void>;
  sendRequest(request: unknown, resultSchema: unknown, options?: RequestOptions): Promise<unknown>;
}

/** A 1.x `Protocol` (`Client` or `Server`) with one generic handler type for every schema. */
interface V1Protocol {
  setRequestHandler(schema: unknown, handler: (request: IncomingRequest, extra: V1Extra) => Promise<Record<string, unknown>>): void;
  request(request: unknown, resultSchema: unknown, options: RequestOptions): Promise<unknown>;
}

/** The adapter of one loaded 1.x release (only the low-level `Client`/`Server` API, in every 1.x). */
export async function createV1Adapter(
  identity: { readonly name: string; readonly version: string; readonly root: string },
  modules: SdkModules,
): Promise<SdkAdapter> {
  const { Client } = modules.client;
  const { Server } = modules.server;
  const specs = v1MethodSpecs(modules.types);
  const capabilities = await detectV1Capabilities(modules, passThroughValidator);
  const spec = (method: SdkMethod): MethodSpec => {
    const found = specs.get(method);
    if (!found) throw new Error(`${identity.name}@${identity.version} has no schemas for ${method}`);
    return found;
  };
  const context = (extra: V1Extra): HandlerContext => ({
    signal: extra.signal,
    requestId: extra.requestId,
    progressToken: extra._meta?.progressToken,
    sendNotification: (notification) => extra.sendNotification(notification),
    sendRequest: (method, params, options) => extra.sendRequest({ method, params }, spec(method).resultSchema, options),
  });

  return {
    ...identity,
    facts: v1Facts,
    capabilities,
    methods: [...specs.keys()],
    createClient: () =>
      new Client(
        { name: 'mcp-sim-client', version: '0.0.0' },
        {
          capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
          jsonSchemaValidator: passThroughValidator as never,
        },
      ),
    createServer: () =>
      new Server(
        { name: 'mcp-sim-server', version: '0.0.0' },
        { capabilities: { tools: {} }, jsonSchemaValidator: passThroughValidator as never },
      ),
    handle(endpoint, method, handler) {
      if (!capabilities.handlerRequestId) {
        throw new Error(`${identity.name}@${identity.version} does not give a request handler its request id; mcp-sim needs it to route requests.`);
      }
      (endpoint as unknown as V1Protocol).setRequestHandler(spec(method).requestSchema, (request, extra) => handler(request, context(extra)));
    },
    request: (endpoint, method, params, options) =>
      (endpoint as unknown as V1Protocol).request({ method, params }, spec(method).resultSchema, options),
    requestParams(method, handler, meta, args) {
      const params: Record<string, unknown> = { ...spec(method).params(handler) };
      if (args && method === 'tools/call') params.arguments = { ...args };
      if (meta) params._meta = { ...meta };
      return params;
    },
    result: (method) => ({ ...spec(method).result() }),
    errorCode(error) {
      // An `McpError` of any copy of the release: `instanceof` would only know the loaded copy's class.
      if (typeof error !== 'object' || error === null) return undefined;
      const { name, code } = error as { name?: unknown; code?: unknown };
      return name === 'McpError' && typeof code === 'number' ? code : undefined;
    },
    handlerError: (code, message) => new modules.types.McpError(code, message),
    deserializeMessage: (line) => modules.stdio.deserializeMessage(line),
    http:
      capabilities.streamableHttpServer && capabilities.streamableHttpClient
        ? v1StreamableHttp(modules.streamableHttpServer!, modules.streamableHttpClient!)
        : undefined,
    probe: v1Probe(v1Facts),
    hosting: v1Hosting(modules),
    modules,
  };
}
