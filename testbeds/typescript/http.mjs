// Streamable HTTP hosting of the test bed (testbeds/PROGRAM.md, "Streamable HTTP") on node:http,
// 127.0.0.1 only, the way the SDK's own examples host it:
//
// - stateful (`sessionIdGenerator: randomUUID`): one transport and one server per session, made
//   at the `initialize` POST and found again by its `mcp-session-id`; GET streams and DELETE go
//   to that session's transport; an unknown session is the transport's business (404).
// - stateless (`sessionIdGenerator: undefined`): a fresh server and transport for every POST,
//   both closed when the response ends (the SDK's stateless example).
// - `-json` sets `enableJsonResponse` (one JSON body per POST), `-sse` leaves the SSE stream.
//
// The transport class is the release's node:http one (sdk.mjs): 1.x StreamableHTTPServerTransport,
// 2.x @modelcontextprotocol/node's NodeStreamableHTTPServerTransport, the same options and
// `handleRequest(req, res, body)` on both.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';

const MODES = ['stateful-sse', 'stateful-json', 'stateless-sse', 'stateless-json'];

/** The parsed JSON body of a POST (undefined for GET/DELETE or an empty body; the SDK rejects bad JSON itself when none is passed). */
async function readBody(req) {
  if (req.method !== 'POST') return undefined;
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
}

const isInitialize = (body) => (Array.isArray(body) ? body : [body]).some((m) => m?.method === 'initialize');

/**
 * Serves `createServer()`'s servers at http://127.0.0.1:<port>/mcp in `mode` until SIGTERM.
 * @param {Awaited<ReturnType<typeof import('./sdk.mjs').loadSdk>>} sdk
 * @param {() => any} createServer
 * @param {{ port: number, mode: string }} options
 */
export async function serveHttp(sdk, createServer, { port, mode }) {
  if (!MODES.includes(mode) || !Number.isInteger(port)) {
    process.stderr.write(`mcp-sim testbed typescript: --http needs --port N and --mode one of ${MODES.join(', ')}\n`);
    process.exit(2);
  }
  if (!sdk.HttpTransport) {
    process.stderr.write(`mcp-sim testbed typescript: ${sdk.name} ${sdk.version} has no Streamable HTTP server transport for node:http in this install\n`);
    process.exit(2);
  }
  const stateful = mode.startsWith('stateful');
  const enableJsonResponse = mode.endsWith('-json');
  /** Open sessions (stateful) by id. */
  const sessions = new Map();
  /** Every live server, so SIGTERM closes them all (their handlers aborted the SDK's way). */
  const live = new Set();

  const connect = async (options) => {
    const server = createServer();
    const transport = new sdk.HttpTransport({ enableJsonResponse, ...options });
    live.add(server);
    server.onclose = () => live.delete(server);
    await server.connect(transport);
    return { server, transport };
  };

  const handle = async (req, res) => {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const body = await readBody(req);
    if (!stateful) {
      const { server, transport } = await connect({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close().then(() => server.close()));
      await transport.handleRequest(req, res, body);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const open = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (open) {
      await open.handleRequest(req, res, body);
      return;
    }
    if (sessionId === undefined && req.method === 'POST' && isInitialize(body)) {
      const { transport } = await connect({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      transport.onclose = ((inner) => () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        inner?.();
      })(transport.onclose);
      await transport.handleRequest(req, res, body);
      return;
    }
    // No session, or one this server does not know (closed by DELETE, or never made): the spec's
    // 404 for an unknown session, 400 for a request that is not an initialize without one.
    const status = sessionId === undefined ? 400 : 404;
    res.writeHead(status, { 'content-type': 'application/json' }).end(
      JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: status === 404 ? 'Session not found' : 'Bad Request: no valid session id' } }),
    );
  };

  const http = createHttpServer((req, res) => {
    handle(req, res).catch((error) => {
      process.stderr.write(`mcp-sim testbed typescript: ${error?.stack ?? error}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  process.on('SIGTERM', () => {
    http.close();
    http.closeAllConnections();
    Promise.allSettled([...live].map((s) => s.close())).then(() => setImmediate(() => process.exit(0)));
  });
  await new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', resolve);
  });
  process.stderr.write(`mcp-sim testbed typescript: ${sdk.name} ${sdk.version} Streamable HTTP ${mode} on http://127.0.0.1:${port}/mcp\n`);
}
