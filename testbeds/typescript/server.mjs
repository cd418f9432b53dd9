// mcp-sim's TypeScript SDK test bed (testbeds/PROGRAM.md): one tool `run` whose `program`
// argument is a scripted handler program, interpreted with the 1.x SDK's low-level
// `Server.setRequestHandler`, in real time. Handler events go to stderr as
// `mcp-sim-event {json}` lines (the side channel); the wire is the SDK's own.
//
//   node server.mjs <cache dir with node_modules/@modelcontextprotocol/sdk> [--http --port N]
//
// The SDK is loaded from the cache that install.sh filled, not from mcp-sim's own node_modules,
// so this process runs exactly the pinned release of testbeds/typescript/package-lock.json.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [cacheDir, ...flags] = process.argv.slice(2);
if (!cacheDir) {
  process.stderr.write('usage: node server.mjs <cache dir> [--http --port N]\n');
  process.exit(2);
}
const require = createRequire(join(cacheDir, 'package.json'));
const load = (path) => import(pathToFileURL(require.resolve(`@modelcontextprotocol/sdk/${path}`)).href);
const { Server } = await load('server/index.js');
const { StdioServerTransport } = await load('server/stdio.js');
const types = await load('types.js');
// The package's `exports` map `./package.json` to dist/cjs's stub, so read the real one by path.
const sdkVersion = JSON.parse(readFileSync(join(cacheDir, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')).version;

/** One side-channel line: the oracle reads these to judge the handler, not only the wire. */
const writeEvent = (body) => process.stderr.write(`mcp-sim-event ${JSON.stringify(body)}\n`);

const RESULT = { content: [{ type: 'text', text: 'ok' }] };
const DOWNSTREAM = {
  'sampling/createMessage': [{ messages: [{ role: 'user', content: { type: 'text', text: 'run' } }], maxTokens: 16 }, types.CreateMessageResultSchema],
  'elicitation/create': [{ mode: 'form', message: 'run', requestedSchema: { type: 'object', properties: {} } }, types.ElicitResultSchema],
  'roots/list': [{}, types.ListRootsResultSchema],
};

class Aborted extends Error {}

const server = new Server({ name: 'mcp-sim-testbed-typescript', version: sdkVersion }, { capabilities: { tools: {} } });

server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'run',
      description: 'Runs the scripted handler program in `program` (mcp-sim testbeds/PROGRAM.md).',
      inputSchema: { type: 'object', properties: { program: { type: 'object' } }, required: ['program'] },
    },
  ],
}));

server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
  const program = request.params.arguments?.program;
  if (request.params.name !== 'run' || typeof program !== 'object' || program === null || !Array.isArray(program.steps)) {
    throw new types.McpError(types.ErrorCode.InvalidParams, `tool ${JSON.stringify(request.params.name)} with arguments.program (a HandlerProgram) expected`);
  }
  const id = extra.requestId;
  const call = request.params.arguments?.call;
  const event = (body) => writeEvent({ ...body , ...(call !== undefined && { call }) });
  const signal = extra.signal;
  const listens = program.onAbort !== 'ignore';
  const token = request.params._meta?.progressToken;
  event({ event: 'handler-start' });
  const observed = () => event({ event: 'abort-observed' });
  if (signal.aborted) observed();
  else signal.addEventListener('abort', observed, { once: true });

  /** Races `work` with the abort unless the program ignores aborts (`ignore`: the work just goes on). */
  const abortable = (work, onAbort) => {
    if (!listens) return work;
    if (signal.aborted) {
      onAbort?.();
      return Promise.reject(new Aborted());
    }
    return new Promise((resolve, reject) => {
      const abort = () => {
        onAbort?.();
        reject(new Aborted());
      };
      signal.addEventListener('abort', abort, { once: true });
      work.then(
        (v) => (signal.removeEventListener('abort', abort), resolve(v)),
        (e) => (signal.removeEventListener('abort', abort), reject(e)),
      );
    });
  };
  const end = (outcome) => event({ event: 'handler-end', outcome });

  try {
    for (const [index, step] of program.steps.entries()) {
      if (listens && signal.aborted) throw new Aborted();
      event({ event: 'step', index });
      if (step.kind === 'progress') {
        const t = program.faults?.progressToken === 'invent' ? `invented-${index}` : token;
        if (t !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: t, progress: step.progress, ...(step.total !== undefined && { total: step.total }), ...(step.message !== undefined && { message: step.message }) },
          });
        }
      } else if (step.kind === 'sleep') {
        let timer;
        await abortable(new Promise((resolve) => (timer = setTimeout(resolve, step.ms))), () => clearTimeout(timer));
      } else if (step.kind === 'call') {
        const [params, schema] = DOWNSTREAM[step.method] ?? [{}, types.EmptyResultSchema];
        try {
          await abortable(
            extra.sendRequest({ method: step.method, params }, schema, {
              ...(listens && { signal }),
              ...(step.timeoutMs !== undefined && { timeout: step.timeoutMs }),
            }),
          );
        } catch (error) {
          // A failed downstream call is the handler's business; only an abort stops the script.
          if (error instanceof Aborted) throw error;
        }
      }
    }
    if (program.end.kind === 'result') {
      end('result');
      return RESULT;
    }
    if (program.end.kind === 'error') {
      end('error');
      throw new types.McpError(program.end.code, program.end.message ?? 'scripted error');
    }
    await abortable(new Promise(() => {}));
  } catch (error) {
    if (!(error instanceof Aborted)) {
      if (!(error instanceof types.McpError)) end('error');
      throw error;
    }
    if (program.onAbort === 'swallow') {
      end('swallowed');
      return RESULT;
    }
    end('aborted');
    throw error;
  }
});

if (flags.includes('--http')) {
  process.stderr.write('mcp-sim testbed typescript: --http is not built yet (stdio only)\n');
  process.exit(2);
}
const transport = new StdioServerTransport();
// stdin EOF ends the connection: every handler still running is aborted by the SDK's close.
transport.onclose = () => process.exit(0);
process.stdin.on('end', () => void server.close());
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
await server.connect(transport);
