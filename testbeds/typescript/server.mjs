// mcp-sim's TypeScript SDK test bed (testbeds/PROGRAM.md): one tool `run` whose `program`
// argument is a scripted handler program, interpreted with the SDK's low-level `Server` (1.x
// `@modelcontextprotocol/sdk` or 2.x `@modelcontextprotocol/server`, probed by sdk.mjs), in real
// time. Handler events go to stderr as `mcp-sim-event {json}` lines (the side channel); the wire
// is the SDK's own.
//
//   node server.mjs <cache dir of one release>                       (stdio)
//   node server.mjs <cache dir> --http --port N --mode <stateful|stateless>-<sse|json>
//
// The SDK is loaded from the cache that install.sh filled, not from mcp-sim's own node_modules,
// so this process runs exactly the pinned release of testbeds/typescript/releases/<version>/.
import { loadSdk } from './sdk.mjs';
import { serveHttp } from './http.mjs';

const [cacheDir, ...flags] = process.argv.slice(2);
if (!cacheDir) {
  process.stderr.write('usage: node server.mjs <cache dir> [--http --port N --mode M]\n');
  process.exit(2);
}
const sdk = await loadSdk(cacheDir);

/** One side-channel line: the oracle reads these to judge the handler, not only the wire. */
const writeEvent = (body) => process.stderr.write(`mcp-sim-event ${JSON.stringify(body)}\n`);

const RESULT = { content: [{ type: 'text', text: 'ok' }] };
/** The params of each request a `call` step sends to the client (PROGRAM.md). */
const DOWNSTREAM = {
  'sampling/createMessage': { messages: [{ role: 'user', content: { type: 'text', text: 'run' } }], maxTokens: 16 },
  'elicitation/create': { mode: 'form', message: 'run', requestedSchema: { type: 'object', properties: {} } },
  'roots/list': {},
};

class Aborted extends Error {}

/** -32602: the JSON-RPC code of a tool called with arguments that are not a program. */
const INVALID_PARAMS = -32602;

/**
 * Runs one `tools/call run {program}` with the SDK's request scope: the request's own progress
 * token, its own senders to the client, its own cancellation signal.
 * @param {any} request
 * @param {import('./sdk.mjs').RequestScope} scope
 */
async function runProgram(request, { signal, progressToken: token, notify, send }) {
  const program = request.params.arguments?.program;
  if (request.params.name !== 'run' || typeof program !== 'object' || program === null || !Array.isArray(program.steps)) {
    throw sdk.error(INVALID_PARAMS, `tool ${JSON.stringify(request.params.name)} with arguments.program (a HandlerProgram) expected`);
  }
  const call = request.params.arguments?.call;
  // Named by `call` alone (as go-sdk's bed must), so every bed's side channel reads the same.
  const event = (body) => writeEvent({ ...body, ...(call !== undefined && { call }) });
  const listens = program.onAbort !== 'ignore';
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
          await notify({
            method: 'notifications/progress',
            params: { progressToken: t, progress: step.progress, ...(step.total !== undefined && { total: step.total }), ...(step.message !== undefined && { message: step.message }) },
          });
        }
      } else if (step.kind === 'sleep') {
        let timer;
        await abortable(new Promise((resolve) => (timer = setTimeout(resolve, step.ms))), () => clearTimeout(timer));
      } else if (step.kind === 'call') {
        try {
          await abortable(
            send({ method: step.method, params: DOWNSTREAM[step.method] ?? {} }, {
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
      throw sdk.error(program.end.code, program.end.message ?? 'scripted error');
    }
    await abortable(new Promise(() => {}));
  } catch (error) {
    if (!(error instanceof Aborted)) {
      if (!sdk.isError(error)) end('error');
      throw error;
    }
    if (program.onAbort === 'swallow') {
      end('swallowed');
      return RESULT;
    }
    end('aborted');
    throw error;
  }
}

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
  sdk.handle(server, 'tools/call', runProgram);
  return server;
}

const flag = (name) => {
  const at = flags.indexOf(name);
  return at >= 0 ? flags[at + 1] : undefined;
};
if (flags.includes('--http')) {
  await serveHttp(sdk, createServer, { port: Number(flag('--port')), mode: flag('--mode') ?? 'stateful-sse' });
} else {
  const server = createServer();
  // Exit once the SDK has closed the connection (the Protocol's `onclose` runs after its own
  // close work: from 1.26.0 that aborts every handler still running), and after the handlers'
  // abort events are written.
  server.onclose = () => setImmediate(() => process.exit(0));
  // stdin EOF ends the connection.
  process.stdin.on('end', () => void server.close());
  process.on('SIGTERM', () => void server.close());
  await server.connect(new sdk.StdioServerTransport());
}
