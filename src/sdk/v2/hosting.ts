import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isLowLevelServer, lowLevelServerOf, markToolStartsOn, shadowMethod, toolStartLimitOf } from '../hostingShared.ts';
import type { Endpoint, IncomingRequest, ServerHosting, ToolInfo } from '../SdkAdapter.ts';
import type { V2Context, V2Modules, V2Protocol } from './modules.ts';

/** A request handler as a 2.x `Protocol` stores it: the raw request (with its `id`) and the request context. */
type V2StoredHandler = (request: IncomingRequest & { readonly id?: string | number }, ctx: V2Context) => Promise<unknown>;

/**
 * The opening a 2025-11-25 client sends: `serveStdio(factory)` builds its server only when a
 * connection opens, so a captured stdio wire is opened with it to make the factory run.
 */
const LEGACY_OPENING: JSONRPCMessage = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcp-sim', version: '0.0.0' } },
};

/** Microtask turns an opening may take to reach the factory's `connect` (its own awaits included) before capture gives up. */
const OPENING_TURNS = 1_000;

/**
 * Hosting a user's 2.x server (`@modelcontextprotocol/server`): an `McpServer`, a low-level
 * `Server`, or a `{ server, cleanup }` holder; an import-time `server.connect(new
 * StdioServerTransport())` or `serveStdio(factory)` is captured without touching stdio.
 */
export function v2Hosting(modules: V2Modules): ServerHosting {
  const { Server, InMemoryTransport } = modules.server;
  return {
    serverOf: lowLevelServerOf,
    ownsServer: (server) => server instanceof Server,
    createLinkedPair: () => InMemoryTransport.createLinkedPair(),
    wrapHandler(server, method, wrap) {
      if (!isLowLevelServer<V2StoredHandler>(server)) return false;
      const handlers = server._requestHandlers;
      const inner = handlers.get(method);
      if (!inner) return false;
      // The hosted run reads the request's id and signal from 1.x's `extra` shape; 2.x keeps them
      // in `ctx.mcpReq`. The user's handler still gets the whole 2.x context.
      handlers.set(method, (request, ctx) =>
        wrap((req) => inner(req, ctx))(request, { requestId: ctx.mcpReq.id, signal: ctx.mcpReq.signal }),
      );
      return true;
    },
    markToolStarts: (started) => markToolStartsOn(modules.server.McpServer, started),
    toolStartLimit: toolStartLimitOf(modules.server.McpServer),
    async captureConnects(body) {
      const captured: Endpoint[] = [];
      const wires: Transport[] = [];
      // `McpServer.connect` delegates to its `Server`'s own `connect`: shadowing that catches both.
      const restores = [
        shadowMethod(Server.prototype, 'connect', function capturedConnect(this: Endpoint) {
          captured.push(this);
          return Promise.resolve();
        }),
      ];
      const stdio = modules.stdio?.StdioServerTransport;
      if (stdio) {
        restores.push(
          shadowMethod(stdio.prototype, 'start', function capturedStart(this: Transport) {
            wires.push(this);
            return Promise.resolve();
          }),
        );
      }
      try {
        const value = await body();
        for (const wire of wires) await open(wire, captured);
        return { value, servers: captured };
      } finally {
        for (const restore of restores.reverse()) restore();
      }
    },
    async listTools(client) {
      const listed = (await (client as V2Protocol).request({ method: 'tools/list', params: {} })) as { tools: ToolInfo[] };
      return listed.tools.map(({ name, inputSchema }) => ({ name, inputSchema }));
    },
  };
}

/** Opens a captured stdio wire as a 2025-11-25 client, and waits (in microtasks, no timers) until its factory's server connects. */
async function open(wire: Transport, captured: readonly Endpoint[]): Promise<void> {
  const before = captured.length;
  wire.onmessage?.(LEGACY_OPENING);
  for (let turn = 0; turn < OPENING_TURNS && captured.length === before; turn++) await Promise.resolve();
}
