import { isLowLevelServer, lowLevelServerOf, markToolStartsOn, shadowMethod, toolStartLimitOf } from '../hostingShared.ts';
import type { Endpoint, HostedHandler, ServerHosting, SdkModules, ToolInfo } from '../SdkAdapter.ts';

/**
 * Hosting a user's 1.x server: finding its low-level `Server`, wrapping the handler it
 * registered, capturing an import-time `connect`, and listing its tools.
 */
export function v1Hosting(modules: SdkModules): ServerHosting {
  return {
    serverOf: lowLevelServerOf,
    ownsServer: (server) => server instanceof modules.server.Server,
    createLinkedPair: () => modules.inMemory.InMemoryTransport.createLinkedPair(),
    wrapHandler(server, method, wrap) {
      if (!isLowLevelServer<HostedHandler>(server)) return false;
      const handlers = server._requestHandlers;
      const inner = handlers.get(method);
      if (!inner) return false;
      handlers.set(method, wrap(inner));
      return true;
    },
    markToolStarts: (started) => markToolStartsOn(modules.mcp?.McpServer, started),
    toolStartLimit: toolStartLimitOf(modules.mcp?.McpServer),
    async captureConnects(body) {
      // `McpServer.connect` delegates to its `Server`'s, which `Protocol` defines: shadowing it on
      // `Server.prototype` catches both, and the transport (stdio) is never started.
      const captured: Endpoint[] = [];
      const restore = shadowMethod(modules.server.Server.prototype, 'connect', function capturedConnect(this: Endpoint) {
        captured.push(this);
        return Promise.resolve();
      });
      try {
        return { value: await body(), servers: captured };
      } finally {
        restore();
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
