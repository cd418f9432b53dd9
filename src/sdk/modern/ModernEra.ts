import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Endpoint, RequestHandler, RequestOptions, SdkMethod, SimClientTransport, HttpClientTransportOptions } from '../SdkAdapter.ts';

/** The newest protocol revision, the first of the "modern" wire era (per-request envelope, no sessions). */
export const MODERN_REVISION = '2026-07-28';

/**
 * What mcp-sim needs of a 2.x release to run the 2026-07-28 era: a client that negotiates it
 * (`server/discover`, `versionNegotiation: { pin }`), and the per-request HTTP entry
 * (`createMcpHandler`: a fresh server instance from a factory for every POST, the request's
 * `signal` as the client's disconnect). A general 2.x `SdkAdapter` exposes it as
 * `SdkAdapter.modern`; `createModernEra` builds it from the modules of
 * `@modelcontextprotocol/client` and `/server` the 2.x adapter loaded. Types are structural: the 2.x packages are
 * not mcp-sim's dependency by type, and two copies of them can be loaded side by side.
 */
export interface ModernEra {
  readonly revision: typeof MODERN_REVISION;
  /** `@modelcontextprotocol/client@V`, `@modelcontextprotocol/server@V`, as reports name them. */
  readonly packages: readonly string[];
  /** The server package's version (the release the era's findings are judged against). */
  readonly version: string;
  /** The folder of the server package (where its package.json is). */
  readonly root: string;
  /**
   * The request methods of the era that mcp-sim sends: `tools/call` only. 2026-07-28 has no
   * server-to-client requests (sampling, elicitation and roots became `input_required` results).
   */
  readonly methods: readonly SdkMethod[];

  /** A `Client` pinned to 2026-07-28: `connect` probes with `server/discover`, never `initialize`. */
  createClient(): Endpoint;
  /** The 2.x Streamable HTTP client transport (one POST per request, `hasPerRequestStream`), remembering its close. */
  createClientTransport(url: URL, options: HttpClientTransportOptions): SimClientTransport;
  /** A fresh low-level `Server` with the tools capability: what a per-request factory returns. */
  createServer(): Endpoint;
  /**
   * The per-request HTTP entry (`createMcpHandler(factory, { legacy: 'reject' })`): each POST gets
   * a server from `options.createServer`, connected to a fresh `PerRequestHTTPServerTransport`,
   * whose every inbound message and every `send()` are reported first (the trace needs both).
   */
  createHandler(options: PerRequestHandlerOptions): PerRequestHandler;

  /** Registers `handler` as `server`'s handler of `method` (`ctx.mcpReq` read into a `HandlerContext`). */
  handle(server: Endpoint, method: SdkMethod, handler: RequestHandler): void;
  /** Sends `method` from `client` and resolves with the result. */
  request(client: Endpoint, method: SdkMethod, params: Record<string, unknown>, options: RequestOptions): Promise<unknown>;
  /** A hosted server's tool arguments (`args`) are not sent in this era: it drives only scripted handlers. */
  requestParams(method: SdkMethod, handler: string, meta?: Readonly<Record<string, unknown>>, args?: Readonly<Record<string, unknown>>): Record<string, unknown>;
  result(method: SdkMethod): Record<string, unknown>;
  /** The JSON-RPC code of a 2.x `ProtocolError`/`SdkError`, read structurally. */
  errorCode(error: unknown): number | string | undefined;
  handlerError(code: number, message: string): Error;
  /** The id `endpoint` gives its next request (`_requestMessageId`, as in 1.x). */
  nextRequestId(endpoint: Endpoint): number | undefined;
}

export interface PerRequestHandlerOptions {
  /** A fresh server for one POST, with the scenario's handlers; `request` is the POST being served. */
  createServer(request: Request): Endpoint;
  /** Every message the per-request server sends, before its transport handles it. */
  onSend(request: Request, message: JSONRPCMessage): void;
  /** Every message the per-request transport delivers to its server, before the server handles it. */
  onDeliver(request: Request, message: JSONRPCMessage): void;
  /** Out-of-band errors and rejected requests the entry reports. */
  onError(error: Error): void;
  /** `auto` (the default: JSON unless the handler emits first), `sse` or `json`. */
  readonly responseMode?: 'auto' | 'sse' | 'json';
}

/** The web-standard face of the entry: one `Request` in, one `Response` out. */
export interface PerRequestHandler {
  fetch(request: Request): Promise<Response>;
  /** Aborts in-flight exchanges and closes their per-request servers. */
  close(): Promise<void>;
}
