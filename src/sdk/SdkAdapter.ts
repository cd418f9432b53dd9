import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as HttpClientModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as InMemoryModule from '@modelcontextprotocol/sdk/inMemory.js';
import type * as ServerModule from '@modelcontextprotocol/sdk/server/index.js';
import type * as McpModule from '@modelcontextprotocol/sdk/server/mcp.js';
import type * as HttpServerModule from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type * as StdioModule from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { SdkFacts } from './facts.ts';
import type { ModernEra } from './modern/ModernEra.ts';

/**
 * Everything mcp-sim needs from one SDK release, so that nothing else loads the SDK or knows
 * its API. SDK types are the installed release's (type-only); other releases are assumed to
 * have the same shape, which holds for the low-level `Client`/`Server` API across 1.x, and
 * the 2.x adapter (`src/sdk/v2/`) maps the 2.x pair onto it.
 */
export interface SdkAdapter {
  /**
   * The package name in its package.json (an npm alias such as `sdk-1.20.0` keeps the real one);
   * for 2.x, `@modelcontextprotocol/server`, the name of the client + server pair of one release.
   */
  readonly name: string;
  readonly version: string;
  /** 1: `@modelcontextprotocol/sdk`; 2: the `@modelcontextprotocol/client` + `/server` pair. */
  readonly generation: 1 | 2;
  /** The folder the release was loaded from: 1.x its package folder; 2.x the scope folder holding both packages. */
  readonly root: string;
  /** What the oracle must know about this release. */
  readonly facts: SdkFacts;
  readonly capabilities: SdkCapabilities;
  /** The methods this release can send and serve, in a stable order (all four when their schemas exist). */
  readonly methods: readonly SdkMethod[];

  /** A `Client` with the capabilities the server-initiated methods need. */
  createClient(): Endpoint;
  /** A `Server` with the tools capability. */
  createServer(): Endpoint;
  /** Registers `handler` as `endpoint`'s one handler of `method`; throws when the release cannot say a request's id (`requestIdSource: 'none'`). */
  handle(endpoint: Endpoint, method: SdkMethod, handler: RequestHandler): void;
  /** Sends `method` from `endpoint` and resolves with the result the release's schema accepted. */
  request(endpoint: Endpoint, method: SdkMethod, params: Record<string, unknown>, options: RequestOptions): Promise<unknown>;
  /**
   * The params of a request of `method` naming scenario handler `handler`, with `meta` as `_meta`;
   * `args` are a `tools/call`'s arguments (a user's tool; scripted handlers take none).
   */
  requestParams(method: SdkMethod, handler: string, meta?: Readonly<Record<string, unknown>>, args?: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** A valid result of `method`. */
  result(method: SdkMethod): Record<string, unknown>;

  /**
   * The code of one of the release's own errors (read structurally: another copy of the SDK may
   * have thrown it): a JSON-RPC code (number), or the string code of an error that never
   * crosses the wire (2.x `SdkError`, such as `REQUEST_TIMEOUT`).
   */
  errorCode(error: unknown): number | string | undefined;
  /** What a handler throws so that the release answers with error `code` and `message`. */
  handlerError(code: number, message: string): Error;
  /** The release's stdio framing of one line: parse and validate as a JSON-RPC message, or throw. */
  deserializeMessage(line: string): JSONRPCMessage;
  /** The Streamable HTTP transports; absent unless both `capabilities.streamableHttp*` hold. */
  readonly http: StreamableHttp | undefined;
  /** Private state that no public API exposes. */
  readonly probe: SdkProbe;
  /** Hosting a user's own server built on this release (`mcp-sim fuzz`); absent when the adapter cannot. */
  readonly hosting?: ServerHosting;
  /** The raw modules of a 1.x release, for tests that reach into the SDK itself (never for the simulator nor the benchmarks); `undefined` for 2.x. */
  readonly modules: SdkModules | undefined;
  /**
   * The 2026-07-28 era (`src/sdk/modern/`): a 2.x release's negotiating client and per-request
   * HTTP entry. Absent on 1.x, which stops at 2025-11-25.
   */
  readonly modern?: ModernEra;
}

/** What a release offers, detected when it loads. */
export interface SdkCapabilities {
  /** `server/webStandardStreamableHttp.js` exports `WebStandardStreamableHTTPServerTransport`. */
  readonly streamableHttpServer: boolean;
  /** `client/streamableHttp.js` exports `StreamableHTTPClientTransport`. */
  readonly streamableHttpClient: boolean;
  /** `types.js` has the `elicitation/create` request and result schemas. */
  readonly elicitation: boolean;
  /** A request handler's context carries the request's JSON-RPC id (seen in a probe exchange; 1.11 and later). */
  readonly handlerRequestId: boolean;
  /**
   * Where the adapter reads a handler's request id, which routes a request to its scripted
   * handler: the context; the raw request the release's own handler wrapper receives, its id
   * put into the context by the adapter (1.0 to 1.10); or nowhere (no handler can be routed).
   */
  readonly requestIdSource: 'context' | 'raw-request' | 'none';
  /**
   * The handler's context has `sendNotification` and `sendRequest`, which tie a progress report or
   * a nested request to the request being handled (1.10 and later). Without them the adapter sends
   * through the endpoint: the same frames on the memory profile, but not tied to the request.
   */
  readonly relatedMessages: boolean;
  /**
   * What progress does to a pending request's timeout: nothing (`never`, before 1.6.1), reset it
   * always, asked or not (`always`, 1.6.1 to 1.8), or reset it when the caller set
   * `resetTimeoutOnProgress` (`when-asked`). Seen in a probe of `Protocol.request`; it names a
   * limit in the report, while `resetTimeoutOnProgress` decides whether the campaign uses the option.
   */
  readonly progressResetsTimeout: 'never' | 'always' | 'when-asked';
  /** The release's `RequestOptions` declares `resetTimeoutOnProgress` (1.6.1 and later; read from its type declarations). */
  readonly resetTimeoutOnProgress: boolean;
  /** The release's `RequestOptions` declares `maxTotalTimeout` (1.6.1 and later; read from its type declarations). */
  readonly maxTotalTimeout: boolean;
}

/** The request methods mcp-sim sends and serves through an SDK (the scenario's `RequestMethod`). */
export type SdkMethod = 'tools/call' | 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

export type { RequestOptions };

/** A `Client` or `Server` of the release, as far as the simulator touches it directly. */
export interface Endpoint {
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** An incoming request as the release parsed it. */
export interface IncomingRequest {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export type RequestHandler = (request: IncomingRequest, context: HandlerContext) => Promise<Record<string, unknown>>;

/** The request-scoped tools the release hands a handler (`extra` in 1.x). */
export interface HandlerContext {
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  /** The request's `_meta.progressToken`, if it carried one. */
  readonly progressToken: string | number | undefined;
  sendNotification(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  /** A request to the peer, related to this one (the release may route it on the same stream). */
  sendRequest(method: SdkMethod, params: Record<string, unknown>, options: RequestOptions): Promise<unknown>;
}

/** One correlation map of an endpoint: its size and keys, or why it could not be read. */
export interface MapProbe {
  readonly size?: number;
  readonly keys: readonly unknown[];
  /** The values, in key order, where every value is a string or a number (a request→stream id map); absent otherwise. */
  readonly values?: readonly (string | number)[];
  /** Why the size is unknown: this release lacks the field. */
  readonly missing?: string;
}

/** A reading of private state that tolerates a missing field and says so instead of throwing. */
export interface ProbeReading<T> {
  readonly value: T | undefined;
  /** Why `value` is missing, when it is. */
  readonly missing?: string;
}

export interface SdkProbe {
  /** The id the endpoint will give its next request. */
  nextRequestId(endpoint: Endpoint): ProbeReading<number>;
  /** The correlation maps `facts.correlationMaps` names, keyed by their private field name, in role order. */
  correlationMaps(endpoint: Endpoint): Readonly<Record<string, MapProbe>>;
  /** The maps `facts.httpServerTransportMaps` names of a Streamable HTTP server transport, keyed by field name, in role order. */
  httpServerTransportMaps(transport: HttpServerTransport): Readonly<Record<string, MapProbe>>;
}

export type HttpServerTransportOptions = HttpServerModule.WebStandardStreamableHTTPServerTransportOptions;
export type HttpClientTransportOptions = HttpClientModule.StreamableHTTPClientTransportOptions;

/** The release's web-standard server transport: one `Request` in, one `Response` out. */
export interface HttpServerTransport extends Transport {
  handleRequest(request: Request, options?: { readonly parsedBody?: unknown }): Promise<Response>;
}

/** The server transport with the simulator's observation hooks: it remembers being closed. */
export interface SimServerTransport extends HttpServerTransport {
  readonly closed: boolean;
}

/** The client transport, unchanged except that it remembers being closed (HTTP tells the server nothing). */
export interface SimClientTransport extends Transport {
  readonly closed: boolean;
  readonly protocolVersion?: string | undefined;
}

/** The Streamable HTTP transports of a release. */
export interface StreamableHttp {
  /** The SDK's server transport as it is. */
  createServerTransport(options: HttpServerTransportOptions): HttpServerTransport;
  /** The server transport reporting every `send()` the SDK makes to `onSend`, before it runs. */
  createSimServerTransport(options: HttpServerTransportOptions, onSend: (message: JSONRPCMessage) => void): SimServerTransport;
  createSimClientTransport(url: URL, options: HttpClientTransportOptions): SimClientTransport;
}

/** The raw modules of a 1.x release; the optional ones are absent in releases that predate them. */
export interface SdkModules {
  readonly client: typeof ClientModule;
  readonly server: typeof ServerModule;
  /** `server/mcp.js` (`McpServer`), absent in releases without it; hosting marks where a tool callback starts with it. */
  readonly mcp?: typeof McpModule | undefined;
  readonly types: typeof TypesModule;
  readonly inMemory: typeof InMemoryModule;
  readonly stdio: typeof StdioModule;
  readonly streamableHttpServer: typeof HttpServerModule | undefined;
  readonly streamableHttpClient: typeof HttpClientModule | undefined;
}

/** A request handler as the release stores it: the raw JSON-RPC request (with its `id`) and the release's `extra`. */
export type HostedHandler = (request: { readonly id?: string | number; readonly method: string; readonly params?: Record<string, unknown> }, extra: { readonly signal: AbortSignal; readonly requestId: string | number }) => Promise<unknown>;

/** A tool as `tools/list` names it. */
export interface ToolInfo {
  readonly name: string;
  readonly inputSchema: unknown;
}

/** What hosting a user's server needs from a release. */
/** How a tool callback settled: its result, or what it threw. */
export interface ToolSettlement {
  readonly threw: boolean;
  readonly value: unknown;
}

/** `ServerHosting.markToolStarts`' callback: a tool callback starts; what it returns hears how that callback settles. */
export type ToolStarted = () => ((settled: ToolSettlement) => void) | undefined;

export interface ServerHosting {
  /** The release's server endpoint inside `value` (a low-level server, a high-level one, or an object holding one), or `undefined`. */
  serverOf(value: unknown): Endpoint | undefined;
  /** `server` was built by this very copy of the release (not another copy, nor the 2.x packages, nor a bundled SDK). */
  ownsServer(server: Endpoint): boolean;
  /** The release's own linked in-memory transports, client end first (to list a server's tools before a campaign). */
  createLinkedPair(): readonly [Transport, Transport];
  /** Replaces `server`'s handler of `method` with `wrap(handler)`; false when it registered none. */
  wrapHandler(server: Endpoint, method: string, wrap: (handler: HostedHandler) => HostedHandler): boolean;
  /**
   * Calls `started` as each tool callback a high-level server (`McpServer`) registered starts,
   * inside the SDK's `tools/call` handler, until the returned function is called. The SDK's
   * handler checks a call's input asynchronously first, so only this says when the user's own
   * code began; the function `started` returns hears how the callback itself settled (returned or
   * threw), which the SDK's handler hides by turning a throw into an `isError` result. `undefined`
   * when the release offers no such point (a low-level `Server` never has one).
   */
  markToolStarts(started: ToolStarted): (() => void) | undefined;
  /** Why this copy's `McpServer` tool callbacks cannot be marked (`markToolStarts`), or `undefined` when they can (or it has no `McpServer`). */
  readonly toolStartLimit: string | undefined;
  /** Runs `body` with every server `connect` of this release captured: resolved at once, the transport never started. */
  captureConnects<T>(body: () => Promise<T>): Promise<{ readonly value: T; readonly servers: readonly Endpoint[] }>;
  /** The tools `client` (connected to the server) lists: one page, name and input schema. */
  listTools(client: Endpoint): Promise<readonly ToolInfo[]>;
}
