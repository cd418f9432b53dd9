// mcp-sim's TypeScript SDK test bed (testbeds/PROGRAM.md): one tool `run` whose `program`
// argument is a scripted handler program (program.mjs), interpreted in real time with the SDK's
// low-level `Server` (1.x `@modelcontextprotocol/sdk` or 2.x `@modelcontextprotocol/server`,
// probed by sdk.mjs): the low layer; `--layer high` serves it with `McpServer.registerTool` instead
// (high.mjs). Handler events go to stderr as `mcp-sim-event {json}` lines (the side channel); the
// wire is the SDK's own.
//
//   node server.mjs <cache dir of one release> [--layer low|high]                       (stdio)
//   node server.mjs <cache dir> [--layer low|high] --http --port N --mode <stateful|stateless>-<sse|json>
//
// The SDK is loaded from the cache that install.sh filled, not from mcp-sim's own node_modules,
// so this process runs exactly the pinned release of testbeds/typescript/releases/<version>/.
import { loadSdk } from './sdk.mjs';
import { serveHttp } from './http.mjs';
import { createHighServer } from './high.mjs';
import { INVALID_PARAMS, runProgram } from './program.mjs';

const [cacheDir, ...flags] = process.argv.slice(2);
if (!cacheDir) {
  process.stderr.write('usage: node server.mjs <cache dir> [--layer low|high] [--http --port N --mode M]\n');
  process.exit(2);
}
const sdk = await loadSdk(cacheDir);

/** A server with the one tool: one per stdio process, per HTTP session, or per stateless request. */
function createServer() {
  const server = new sdk.Server({ name: 'mcp-sim-testbed-typescript', version: sdk.version }, { capabilities: { tools: {} } });
  sdk.handle(server, 'tools/list', async () => ({
    tools: [
      {
        name: 'run',
        description: 'Runs the scripted handler program in `program` (mcp-sim testbeds/PROGRAM.md).',
        inputSchema: { type: 'object', properties: { program: { type: 'object' } }, required: ['program'] },
      },
    ],
  }));
  sdk.handle(server, 'tools/call', (request, scope) => {
    if (request.params.name !== 'run') throw sdk.error(INVALID_PARAMS, `tool ${JSON.stringify(request.params.name)} with arguments.program (a HandlerProgram) expected`);
    return runProgram(sdk, request.params.arguments, scope);
  });
  return server;
}

const flag = (name) => {
  const at = flags.indexOf(name);
  return at >= 0 ? flags[at + 1] : undefined;
};
const layer = flag('--layer') ?? 'low';
if (layer !== 'low' && layer !== 'high') {
  process.stderr.write(`mcp-sim testbed typescript: unknown --layer ${JSON.stringify(layer)} (low or high)\n`);
  process.exit(2);
}
const create = layer === 'high' ? () => createHighServer(sdk) : createServer;
if (flags.includes('--http')) {
  await serveHttp(sdk, create, { port: Number(flag('--port')), mode: flag('--mode') ?? 'stateful-sse' });
} else {
  const server = create();
  // Exit once the SDK has closed the connection (the Protocol's `onclose` runs after its own
  // close work: from 1.26.0 that aborts every handler still running), and after the handlers'
  // abort events are written.
  server.onclose = () => setImmediate(() => process.exit(0));
  // stdin EOF ends the connection.
  process.stdin.on('end', () => void server.close());
  process.on('SIGTERM', () => void server.close());
  await server.connect(new sdk.StdioServerTransport());
}
