// The TypeScript SDK release the test bed runs on, behind one small surface, so server.mjs
// interprets programs with one source for both lines (testbeds/PROGRAM.md, "Releases": select by
// an import probe, never a copy of the interpreter):
//
// - 1.x, `@modelcontextprotocol/sdk`: the low-level `Server`, handlers keyed by request schema,
//   given `extra` (`requestId`, `signal`, `sendNotification`, `sendRequest(req, schema, opts)`),
//   errors as `McpError`, Streamable HTTP on node:http as `StreamableHTTPServerTransport`; the
//   high-level `McpServer`, whose `registerTool` callback gets the validated arguments and the same `extra`.
// - 2.x, `@modelcontextprotocol/server`: the low-level `Server`, handlers keyed by method name,
//   given `ctx.mcpReq` (`id`, `signal`, `notify`, `send(req, opts)`), errors as `ProtocolError`,
//   Streamable HTTP on node:http as `@modelcontextprotocol/node`'s `NodeStreamableHTTPServerTransport`;
//   `McpServer.registerTool`, its callback given the arguments and the same `ctx`.
//
// Both lines take a zod object as a tool's `inputSchema`: zod is the SDK's own dependency, in the
// same pinned install.
//
// Which line is installed is read from the cache directory install.sh filled (the package that is
// there), never from mcp-sim's own node_modules.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * What a `tools/call` handler gets, the same on both lines: the request's id, its cancellation
 * signal, its progress token, and the SDK's own request-scoped senders.
 * @typedef {{ id: string | number, signal: AbortSignal, progressToken: string | number | undefined,
 *   notify(n: { method: string, params: object }): Promise<void>,
 *   send(r: { method: string, params: object }, options: { signal?: AbortSignal, timeout?: number }): Promise<unknown> }} RequestScope
 */

/**
 * How to import a module of the release in `dir` (its node_modules/@modelcontextprotocol/…) and
 * read a package's version: shared by the server (here) and the client (client.mjs).
 * @param {string} dir
 */
export function releaseModules(dir) {
  const cacheDir = resolve(dir);
  const require = createRequire(join(cacheDir, 'package.json'));
  const load = async (spec) => import(pathToFileURL(require.resolve(spec)).href);
  // The packages' `exports` do not all expose `./package.json`, so read the real one by path.
  const versionOf = (name) => {
    const file = join(cacheDir, 'node_modules', name, 'package.json');
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
  };
  return { load, versionOf };
}

/**
 * Loads the release in `cacheDir` (a directory with node_modules/@modelcontextprotocol/…).
 * @param {string} cacheDir
 */
export async function loadSdk(dir) {
  const { load, versionOf } = releaseModules(dir);

  const v1 = versionOf('@modelcontextprotocol/sdk');
  if (v1 !== undefined) {
    const { Server } = await load('@modelcontextprotocol/sdk/server/index.js');
    const { StdioServerTransport } = await load('@modelcontextprotocol/sdk/server/stdio.js');
    const { StreamableHTTPServerTransport } = await load('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const types = await load('@modelcontextprotocol/sdk/types.js');
    const { McpServer } = await load('@modelcontextprotocol/sdk/server/mcp.js');
    const { z } = await load('zod');
    const schemas = { 'tools/list': types.ListToolsRequestSchema, 'tools/call': types.CallToolRequestSchema };
    const results = {
      'sampling/createMessage': types.CreateMessageResultSchema,
      'elicitation/create': types.ElicitResultSchema,
      'roots/list': types.ListRootsResultSchema,
    };
    /** The request scope of a handler's `extra`; the progress token as the request carried it. */
    const scope = (extra, request) => ({
      id: extra.requestId,
      signal: extra.signal,
      progressToken: request?.params?._meta?.progressToken ?? extra._meta?.progressToken,
      notify: (n) => extra.sendNotification(n),
      send: (r, options) => extra.sendRequest(r, results[r.method] ?? types.EmptyResultSchema, options),
    });
    return {
      line: 1,
      name: '@modelcontextprotocol/sdk',
      version: v1,
      Server,
      McpServer,
      z,
      StdioServerTransport,
      HttpTransport: StreamableHTTPServerTransport,
      error: (code, message) => new types.McpError(code, message),
      isError: (e) => e instanceof types.McpError,
      /** @param {(request: any, scope: RequestScope) => Promise<object>} handler */
      handle(server, method, handler) {
        server.setRequestHandler(schemas[method], (request, extra) => handler(request, scope(extra, request)));
      },
      /** @param {(args: any, scope: RequestScope) => Promise<object>} handler */
      tool(mcp, name, config, handler) {
        mcp.registerTool(name, config, (args, extra) => handler(args, scope(extra)));
      },
    };
  }

  const v2 = versionOf('@modelcontextprotocol/server');
  if (v2 !== undefined) {
    const { Server, McpServer, ProtocolError } = await load('@modelcontextprotocol/server');
    const { z } = await load('zod');
    const { StdioServerTransport } = await load('@modelcontextprotocol/server/stdio');
    // The node:http adapter is a package of its own; a cache without it offers stdio only.
    const node = versionOf('@modelcontextprotocol/node') !== undefined ? await load('@modelcontextprotocol/node') : undefined;
    /** The request scope of a handler's `ctx`; the progress token as the request carried it. */
    const scope = (ctx, request) => ({
      id: ctx.mcpReq.id,
      signal: ctx.mcpReq.signal,
      progressToken: ctx.mcpReq._meta?.progressToken ?? request?.params?._meta?.progressToken,
      notify: (n) => ctx.mcpReq.notify(n),
      send: (r, options) => ctx.mcpReq.send(r, options),
    });
    return {
      line: 2,
      name: '@modelcontextprotocol/server',
      version: v2,
      Server,
      McpServer,
      z,
      StdioServerTransport,
      HttpTransport: node?.NodeStreamableHTTPServerTransport,
      error: (code, message) => new ProtocolError(code, message),
      isError: (e) => e instanceof ProtocolError,
      /** @param {(request: any, scope: RequestScope) => Promise<object>} handler */
      handle(server, method, handler) {
        server.setRequestHandler(method, (request, ctx) => handler(request, scope(ctx, request)));
      },
      /** @param {(args: any, scope: RequestScope) => Promise<object>} handler */
      tool(mcp, name, config, handler) {
        mcp.registerTool(name, config, (args, ctx) => handler(args, scope(ctx)));
      },
    };
  }
  throw new Error(`${cacheDir} holds neither @modelcontextprotocol/sdk (1.x) nor @modelcontextprotocol/server (2.x): run testbeds/typescript/install.sh`);
}
