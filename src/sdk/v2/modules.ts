import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Endpoint, IncomingRequest, RequestOptions } from '../SdkAdapter.ts';
import type { HttpClientTransportClass, HttpServerTransportClass } from '../simHttpTransports.ts';
import type { SdkV2Release } from '../sdkRelease.ts';
import { moduleUrl } from '../sdkPackage.ts';

/**
 * The parts of the 2.x packages mcp-sim uses, typed by shape rather than by the packages' own
 * declarations: mcp-sim depends on no 2.x package, and any 2.x release that has these parts runs.
 */

/** The request-scoped context 2.x hands a handler (`ctx.mcpReq`), as far as it is read. */
export interface V2Context {
  readonly mcpReq: {
    readonly id: string | number;
    readonly _meta?: { readonly progressToken?: string | number };
    readonly signal: AbortSignal;
    send(request: { method: string; params?: Record<string, unknown> }, options?: RequestOptions): Promise<unknown>;
    notify(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  };
}

/** A 2.x `Protocol` (`Client` or `Server`, of either bundled copy): spec methods by name, no schemas. */
export interface V2Protocol extends Endpoint {
  setRequestHandler(method: string, handler: (request: IncomingRequest, ctx: V2Context) => Promise<Record<string, unknown>>): void;
  request(request: { method: string; params?: Record<string, unknown> }, options?: RequestOptions): Promise<unknown>;
}

type Info = { name: string; version: string };
type EndpointClass = new (info: Info, options: Record<string, unknown>) => V2Protocol;

/** A linked pair of in-memory transports (`InMemoryTransport.createLinkedPair()`). */
interface InMemoryTransportClass {
  createLinkedPair(): [Transport, Transport];
}

/** `@modelcontextprotocol/client`. */
export interface V2ClientModule {
  readonly Client: EndpointClass;
  readonly InMemoryTransport: InMemoryTransportClass;
  readonly StreamableHTTPClientTransport?: HttpClientTransportClass;
}

/** `@modelcontextprotocol/server`. */
export interface V2ServerModule {
  readonly Server: EndpointClass;
  /** The high-level server; hosting reads only its prototype (`markToolStartsOn`). */
  readonly McpServer?: { readonly prototype: object };
  readonly InMemoryTransport: InMemoryTransportClass;
  readonly WebStandardStreamableHTTPServerTransport?: HttpServerTransportClass;
  /** A `ProtocolError`: `new ProtocolError(code, message)` answers a request with that error. */
  readonly ProtocolError: new (code: number, message: string) => Error;
  /** The spec schemas by type name (`CallToolRequest`, …), which say what methods the release knows. */
  readonly specTypeSchemas?: Readonly<Record<string, unknown>>;
  deserializeMessage(line: string): JSONRPCMessage;
}

/** `@modelcontextprotocol/server/stdio`: what a user's stdio entry starts at import (`mcp-sim fuzz` captures it). */
export interface V2StdioModule {
  readonly StdioServerTransport: new (...args: never[]) => Transport;
}

export interface V2Modules {
  readonly client: V2ClientModule;
  readonly server: V2ServerModule;
  /** Absent when the release exports no `./stdio` entry. */
  readonly stdio?: V2StdioModule;
}

/** Imports the main entries of the two packages of `release`, and the server's `./stdio` entry when it has one. */
export async function importV2Modules(release: SdkV2Release): Promise<V2Modules> {
  const entry = async <T>(pkg: SdkV2Release['client']): Promise<T> => {
    const href = moduleUrl(pkg, '.');
    if (href === undefined) throw new Error(`${pkg.name} exports no main entry`);
    return (await import(href)) as T;
  };
  const stdioHref = moduleUrl(release.server, 'stdio');
  const [client, server, stdio] = await Promise.all([
    entry<V2ClientModule>(release.client),
    entry<V2ServerModule>(release.server),
    stdioHref === undefined ? undefined : (import(stdioHref) as Promise<V2StdioModule>),
  ]);
  return { client, server, ...(stdio && { stdio }) };
}
