// The high layer of mcp-sim's TypeScript SDK test bed (testbeds/PROGRAM.md, "Layers"): the same
// program (program.mjs) as a tool registered the way the SDK's documentation writes one,
// `McpServer.registerTool('run', { inputSchema: z.object(...) }, callback)`: the SDK validates the
// arguments with zod, lists the tool with the JSON Schema it derives, and runs the callback with
// the request's `extra` (1.x) or `ctx` (2.x): its signal, its senders (progress with
// `sendNotification`/`ctx.mcpReq.notify`, the client's requests with `sendRequest`/`ctx.mcpReq.send`).
// What the callback throws, the scripted error included, `McpServer` answers as an `isError` result.
import { runProgram } from './program.mjs';

/**
 * A server with the one tool: `McpServer`'s low-level `Server` (what `McpServer.connect` connects;
 * the hosting code in server.mjs and http.mjs connects, closes and watches it as the low layer's).
 * @param {Awaited<ReturnType<typeof import('./sdk.mjs').loadSdk>>} sdk
 */
export function createHighServer(sdk) {
  const { z } = sdk;
  const mcp = new sdk.McpServer({ name: 'mcp-sim-testbed-typescript', version: sdk.version }, { capabilities: { tools: {} } });
  sdk.tool(
    mcp,
    'run',
    {
      description: 'Runs the scripted handler program in `program` (mcp-sim testbeds/PROGRAM.md).',
      inputSchema: z.object({ program: z.record(z.string(), z.unknown()), call: z.string().optional() }),
    },
    (args, scope) => runProgram(sdk, args, scope),
  );
  return mcp.server;
}
