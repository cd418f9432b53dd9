import type { Endpoint, HostedHandler, ServerHosting, SdkModules, ToolInfo } from '../SdkAdapter.ts';

/** The private request-handler map every 1.x `Protocol` keeps, by method. */
interface WithHandlers {
  _requestHandlers: Map<string, HostedHandler>;
}

/** A low-level 1.x `Server`, told by its shape: another copy of the SDK has other classes. */
function isLowLevelServer(value: unknown): value is Endpoint & WithHandlers {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<WithHandlers> & { connect?: unknown; setRequestHandler?: unknown };
  return v._requestHandlers instanceof Map && typeof v.connect === 'function' && typeof v.setRequestHandler === 'function';
}

/**
 * Hosting a user's 1.x server: finding its low-level `Server`, wrapping the handler it
 * registered, capturing an import-time `connect`, and listing its tools.
 */
export function v1Hosting(modules: SdkModules): ServerHosting {
  const serverOf = (value: unknown): Endpoint | undefined => {
    if (isLowLevelServer(value)) return value;
    // An `McpServer` holds its low-level `Server` as `server`; so does a `{ server, cleanup }` holder.
    if (typeof value === 'object' && value !== null && 'server' in value) return serverOf((value as { server: unknown }).server);
    return undefined;
  };
  return {
    serverOf,
    ownsServer: (server) => server instanceof modules.server.Server,
    createLinkedPair: () => modules.inMemory.InMemoryTransport.createLinkedPair(),
    wrapHandler(server, method, wrap) {
      const handlers = (server as unknown as WithHandlers)._requestHandlers;
      const inner = handlers.get(method);
      if (!inner) return false;
      handlers.set(method, wrap(inner));
      return true;
    },
    async captureConnects(body) {
      // `McpServer.connect` delegates to its `Server`'s, which `Protocol` defines: shadowing it on
      // `Server.prototype` catches both, and the transport (stdio) is never started.
      const proto = modules.server.Server.prototype as unknown as { connect: (t: unknown) => Promise<void> };
      const captured: Endpoint[] = [];
      const own = Object.getOwnPropertyDescriptor(proto, 'connect');
      Object.defineProperty(proto, 'connect', {
        configurable: true,
        writable: true,
        value: function capturedConnect(this: Endpoint) {
          captured.push(this);
          return Promise.resolve();
        },
      });
      try {
        return { value: await body(), servers: captured };
      } finally {
        if (own) Object.defineProperty(proto, 'connect', own);
        else delete (proto as { connect?: unknown }).connect;
      }
    },
    async listTools(client) {
      const listed = (await (client as unknown as { request(r: unknown, s: unknown): Promise<{ tools: ToolInfo[]; nextCursor?: string }> }).request(
        { method: 'tools/list', params: {} },
        modules.types.ListToolsResultSchema,
      )) as { tools: ToolInfo[] };
      return listed.tools.map(({ name, inputSchema }) => ({ name, inputSchema }));
    },
  };
}
