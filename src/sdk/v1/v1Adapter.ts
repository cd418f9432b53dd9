import { join } from 'node:path';
import type { HandlerContext, IncomingRequest, RequestOptions, SdkAdapter, SdkMethod, SdkModules } from '../SdkAdapter.ts';
import { detectV1Capabilities, passRawRequestId } from './capabilities.ts';
import { passThroughValidator } from '../passThroughValidator.ts';
import { protocolProbe } from '../protocolProbe.ts';
import { simStreamableHttp } from '../simHttpTransports.ts';
import { v1Facts } from './facts.ts';
import { v1MethodSpecs, type MethodSpec } from './methods.ts';
import { v1Hosting } from './hosting.ts';

/**
 * The 1.x handler `extra`, as far as it is read (the SDK's typing is per schema). Only `signal`
 * is in every release; `requestId` is put in by `passRawRequestId` where the release lacks it.
 */
interface V1Extra {
  signal: AbortSignal;
  requestId: string | number;
  _meta?: { progressToken?: string | number };
  sendNotification?(notification: unknown): Promise<void>;
  sendRequest?(request: unknown, resultSchema: unknown, options?: RequestOptions): Promise<unknown>;
}

/** A 1.x `Protocol` (`Client` or `Server`) with one generic handler type for every schema. */
interface V1Protocol {
  setRequestHandler(schema: unknown, handler: (request: IncomingRequest, extra: V1Extra) => Promise<Record<string, unknown>>): void;
  request(request: unknown, resultSchema: unknown, options: RequestOptions): Promise<unknown>;
  notification(notification: unknown): Promise<void>;
}

/** The adapter of one loaded 1.x release (only the low-level `Client`/`Server` API, in every 1.x). */
export async function createV1Adapter(
  identity: { readonly name: string; readonly version: string; readonly root: string },
  modules: SdkModules,
): Promise<SdkAdapter> {
  const { Client } = modules.client;
  const { Server } = modules.server;
  const specs = v1MethodSpecs(modules.types);
  // 1.0.x lays out dist/ without esm/; later releases have both.
  const protocolTypes = ['dist/esm/shared/protocol.d.ts', 'dist/shared/protocol.d.ts'].map((f) => join(identity.root, f));
  const capabilities = await detectV1Capabilities(modules, passThroughValidator, protocolTypes);
  const spec = (method: SdkMethod): MethodSpec => {
    const found = specs.get(method);
    if (!found) throw new Error(`${identity.name}@${identity.version} has no schemas for ${method}`);
    return found;
  };
  /**
   * The handler's tools. Where the release's `extra` lacks them (before 1.10) progress and nested
   * requests go through the endpoint itself (`capabilities.relatedMessages` says they are not tied
   * to the request), and the progress token comes from the request's own `_meta` (before 1.12).
   */
  const context = (endpoint: V1Protocol, request: IncomingRequest, extra: V1Extra): HandlerContext => ({
    signal: extra.signal,
    requestId: extra.requestId,
    progressToken: (extra._meta ?? (request.params?._meta as V1Extra['_meta']))?.progressToken,
    sendNotification: (notification) => (extra.sendNotification ? extra.sendNotification(notification) : endpoint.notification(notification)),
    sendRequest: (method, params, options) =>
      extra.sendRequest
        ? extra.sendRequest({ method, params }, spec(method).resultSchema, options)
        : endpoint.request({ method, params }, spec(method).resultSchema, options),
  });

  return {
    ...identity,
    generation: 1,
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
      if (capabilities.requestIdSource === 'none') {
        throw new Error(`${identity.name}@${identity.version} does not let mcp-sim read a request handler's request id; mcp-sim needs it to route requests.`);
      }
      const protocol = endpoint as unknown as V1Protocol;
      protocol.setRequestHandler(spec(method).requestSchema, (request, extra) => handler(request, context(protocol, request, extra)));
      if (capabilities.requestIdSource === 'raw-request' && !passRawRequestId(endpoint, method)) {
        throw new Error(`${identity.name}@${identity.version}: no stored handler of ${method} to take its request id from.`);
      }
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
        ? simStreamableHttp(modules.streamableHttpServer!.WebStandardStreamableHTTPServerTransport, modules.streamableHttpClient!.StreamableHTTPClientTransport)
        : undefined,
    probe: protocolProbe(v1Facts),
    hosting: v1Hosting(modules),
    modules,
  };
}
