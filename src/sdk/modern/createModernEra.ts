import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Endpoint, HandlerContext, IncomingRequest, SdkMethod, SimClientTransport } from '../SdkAdapter.ts';
import { MODERN_REVISION, type ModernEra, type PerRequestHandler, type PerRequestHandlerOptions } from './ModernEra.ts';
import { passThroughValidator } from '../passThroughValidator.ts';

/** The parts of `@modelcontextprotocol/server` the era uses (structural: no type dependency on 2.x). */
export interface ServerModule {
  Server: new (info: { name: string; version: string }, options: Record<string, unknown>) => Endpoint;
  createMcpHandler(factory: (ctx: { era: string; requestInfo?: Request }) => Endpoint, options: Record<string, unknown>): PerRequestHandler;
  ProtocolError: new (code: number, message: string) => Error;
}

/** The parts of `@modelcontextprotocol/client` the era uses. */
export interface ClientModule {
  Client: new (info: { name: string; version: string }, options: Record<string, unknown>) => Endpoint;
  StreamableHTTPClientTransport: new (url: URL, options: Record<string, unknown>) => TransportLike;
}

interface TransportLike {
  send(message: JSONRPCMessage, options?: unknown): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: JSONRPCMessage, extra?: unknown) => void) | undefined;
}

/** `ctx` of a 2.x request handler, as far as it is read. */
interface ModernCtx {
  mcpReq: {
    id: string | number;
    signal: AbortSignal;
    _meta?: { progressToken?: string | number };
    notify(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  };
}

interface ModernProtocol {
  setRequestHandler(method: string, handler: (request: IncomingRequest, ctx: ModernCtx) => Promise<Record<string, unknown>>): void;
  request(request: { method: string; params: Record<string, unknown> }, options: unknown): Promise<unknown>;
  _requestMessageId?: unknown;
}

/**
 * The 2026-07-28 era of a loaded 2.x release (its client and server modules), hung off the 2.x
 * adapter as `SdkAdapter.modern`. Errors are read by the adapter's own `errorCode`, so both eras
 * report the same codes and the oracle judges them with the same facts.
 */
export function createModernEra(
  client: ClientModule,
  server: ServerModule,
  identity: { packages: string[]; version: string; root: string },
  errorCode: (error: unknown) => number | string | undefined,
): ModernEra {
  /** The client transport, unchanged except that it remembers being closed (HTTP tells the server nothing). */
  const createClientTransport = (url: URL, options: Record<string, unknown>): SimClientTransport => {
    const transport = new client.StreamableHTTPClientTransport(url, options) as TransportLike & { closed: boolean };
    transport.closed = false;
    const close = transport.close.bind(transport);
    transport.close = () => {
      transport.closed = true;
      return close();
    };
    return transport as unknown as SimClientTransport;
  };
  const context = (ctx: ModernCtx): HandlerContext => ({
    signal: ctx.mcpReq.signal,
    requestId: ctx.mcpReq.id,
    progressToken: ctx.mcpReq._meta?.progressToken,
    sendNotification: (notification) => ctx.mcpReq.notify(notification),
    sendRequest: (method) => Promise.reject(new Error(`${method}: revision ${MODERN_REVISION} has no server-to-client requests`)),
  });
  return {
    revision: MODERN_REVISION,
    ...identity,
    methods: ['tools/call'],
    createClient: () =>
      new client.Client(
        { name: 'mcp-sim-client', version: '0.0.0' },
        { capabilities: {}, versionNegotiation: { mode: { pin: MODERN_REVISION } }, jsonSchemaValidator: passThroughValidator },
      ),
    createClientTransport: (url, options) => createClientTransport(url, options as Record<string, unknown>),
    createServer: () =>
      new server.Server({ name: 'mcp-sim-server', version: '0.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: passThroughValidator }),
    createHandler: (options) => perRequestHandler(server, options),
    handle(endpoint, method, handler) {
      (endpoint as unknown as ModernProtocol).setRequestHandler(method, (request, ctx) => handler(request, context(ctx)));
    },
    request: (endpoint, method, params, options) => (endpoint as unknown as ModernProtocol).request({ method, params }, options),
    requestParams(method, handler, meta) {
      if (method !== 'tools/call') throw new Error(`revision ${MODERN_REVISION}: mcp-sim sends only tools/call (asked for ${method})`);
      return { name: handler, arguments: {}, ...(meta && { _meta: { ...meta } }) };
    },
    result: () => ({ content: [{ type: 'text', text: 'ok' }] }),
    errorCode,
    handlerError: (code, message) => new server.ProtocolError(code, message),
    nextRequestId(endpoint) {
      const v = (endpoint as unknown as ModernProtocol)._requestMessageId;
      return typeof v === 'number' ? v : undefined;
    },
  };
}

/**
 * `createMcpHandler` in strict modern mode, its factory wrapping each per-request server's
 * `connect` so that the transport reports what it delivers and what the server sends.
 */
function perRequestHandler(server: ServerModule, options: PerRequestHandlerOptions): PerRequestHandler {
  const factory = (ctx: { era: string; requestInfo?: Request }): Endpoint => {
    const request = ctx.requestInfo!;
    const endpoint = options.createServer(request);
    const connect = endpoint.connect.bind(endpoint);
    endpoint.connect = (transport) => {
      const t = transport as unknown as TransportLike;
      const send = t.send.bind(t);
      t.send = (message, sendOptions) => {
        options.onSend(request, message);
        return send(message, sendOptions);
      };
      // Set before connecting: the SDK chains it, so a message is reported before it is handled.
      t.onmessage = (message) => options.onDeliver(request, message);
      return connect(transport);
    };
    return endpoint;
  };
  return server.createMcpHandler(factory, {
    legacy: 'reject',
    keepAliveMs: 0,
    responseMode: options.responseMode ?? 'auto',
    onerror: (error: Error) => options.onError(error),
  });
}
