// mcp-sim's TypeScript SDK test-bed client (testbeds/CLIENT.md): a thin interpreter of a client
// script (the caller's actions), written with the SDK's ordinary client API: `Client`,
// `StdioClientTransport` (spawning `server.stdio`) or `StreamableHTTPClientTransport` (to
// `server.url`), `client.callTool(..., { signal, timeout, resetTimeoutOnProgress, maxTotalTimeout,
// onprogress })`, an `AbortController` per call for the caller's abort, request handlers for the
// server's sampling/elicitation/roots requests, `client.close()`. Events go to stderr as
// `mcp-sim-event {json}` lines (the side channel); the wire is the SDK's own.
//
//   node client.mjs <cache dir of one release> <script.json>
//
// One source for both lines, selected by the package install.sh put in the cache (as sdk.mjs does
// for the server):
// - 1.x, `@modelcontextprotocol/sdk`: handlers keyed by request schema, given `extra`
//   (`requestId`, `signal`); `callTool(params, resultSchema, options)`; every error of a call is an
//   `McpError` (the server's JSON-RPC errors and the SDK's own timeout, abort and close alike).
// - 2.x, `@modelcontextprotocol/client`: handlers keyed by method name, given `ctx.mcpReq` (`id`,
//   `signal`); `callTool(params, options)`; the server's errors are `ProtocolError`, the SDK's own
//   are `SdkError` with a string code.
import { readFileSync } from 'node:fs';
import { releaseModules } from './sdk.mjs';

/** One side-channel line, written at once (stderr is synchronous for pipes and files). */
const writeEvent = (body) => process.stderr.write(`mcp-sim-event ${JSON.stringify(body)}\n`);
const fail = (message) => {
  process.stderr.write(`mcp-sim testbed typescript client: ${message}\n`);
  process.exit(1);
};

/** Loads the client API of the release in `dir` (a directory with node_modules/@modelcontextprotocol/…). */
async function loadClientSdk(dir) {
  const { load, versionOf } = releaseModules(dir);

  const v1 = versionOf('@modelcontextprotocol/sdk');
  if (v1 !== undefined) {
    const { Client } = await load('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await load('@modelcontextprotocol/sdk/client/stdio.js');
    const { StreamableHTTPClientTransport } = await load('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const types = await load('@modelcontextprotocol/sdk/types.js');
    const schemas = {
      'sampling/createMessage': types.CreateMessageRequestSchema,
      'elicitation/create': types.ElicitRequestSchema,
      'roots/list': types.ListRootsRequestSchema,
    };
    const { RequestTimeout, ConnectionClosed } = types.ErrorCode;
    return {
      name: '@modelcontextprotocol/sdk',
      version: v1,
      Client,
      StdioClientTransport,
      StreamableHTTPClientTransport,
      handle: (client, method, handler) =>
        client.setRequestHandler(schemas[method], (request, extra) => handler(request, { id: extra.requestId, signal: extra.signal })),
      callTool: (client, params, options) => client.callTool(params, types.CallToolResultSchema, options),
      /**
       * 1.x gives one error type, McpError, for the server's JSON-RPC errors and the SDK's own
       * endings, so those are told apart by code, message and data, as shared/protocol.js makes
       * them: a timeout is -32001 "Request timed out" with data.timeout (request()) or "Maximum
       * total timeout exceeded" with data.maxTotalTimeout (_resetTimeout()); an abort is -32001
       * with String(signal.reason) as message and no data (request()'s cancel()); a close is
       * -32000 "Connection closed" with no data (_onclose()).
       */
      classify(error, aborted) {
        if (error instanceof types.McpError) {
          const bare = error.message.replace(/^MCP error -?\d+: /, '');
          const data = error.data;
          if (error.code === RequestTimeout && (bare === 'Request timed out' || bare === 'Maximum total timeout exceeded') && data !== undefined && (data.timeout !== undefined || data.maxTotalTimeout !== undefined)) {
            return { outcome: 'timeout' };
          }
          if (error.code === RequestTimeout && aborted && data === undefined) return { outcome: 'aborted' };
          if (error.code === ConnectionClosed && bare === 'Connection closed' && data === undefined) return { outcome: 'closed' };
          return { outcome: 'error', code: error.code };
        }
        if (error instanceof Error && error.message === 'Not connected') return { outcome: 'closed' };
        return { outcome: 'other' };
      },
    };
  }

  const v2 = versionOf('@modelcontextprotocol/client');
  if (v2 !== undefined) {
    const { Client, StreamableHTTPClientTransport, ProtocolError, SdkError, SdkErrorCode } = await load('@modelcontextprotocol/client');
    const { StdioClientTransport } = await load('@modelcontextprotocol/client/stdio');
    return {
      name: '@modelcontextprotocol/client',
      version: v2,
      Client,
      StdioClientTransport,
      StreamableHTTPClientTransport,
      handle: (client, method, handler) => client.setRequestHandler(method, (request, ctx) => handler(request, { id: ctx.mcpReq.id, signal: ctx.mcpReq.signal })),
      callTool: (client, params, options) => client.callTool(params, options),
      /**
       * 2.x: the server's JSON-RPC errors are ProtocolError; the SDK's own endings are SdkError,
       * but timeout and abort share SdkErrorCode.RequestTimeout: a timeout carries
       * data.timeout ("Request timed out") or data.maxTotalTimeout ("Maximum total timeout
       * exceeded"); an abort has String(signal.reason) as message and no data
       * (Protocol._requestWithSchemaViaCodec's cancel()).
       */
      classify(error, aborted) {
        if (error instanceof SdkError) {
          const data = error.data;
          if (error.code === SdkErrorCode.RequestTimeout && data !== undefined && (data.timeout !== undefined || data.maxTotalTimeout !== undefined)) return { outcome: 'timeout' };
          if (error.code === SdkErrorCode.RequestTimeout && aborted) return { outcome: 'aborted' };
          if (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected) return { outcome: 'closed' };
          return { outcome: 'other' };
        }
        if (error instanceof ProtocolError) return { outcome: 'error', code: error.code };
        if (error instanceof Error && error.message === 'Not connected') return { outcome: 'closed' };
        return { outcome: 'other' };
      },
    };
  }
  throw new Error(`${cacheDir} holds neither @modelcontextprotocol/sdk (1.x) nor @modelcontextprotocol/client (2.x): run testbeds/typescript/install.sh`);
}

/** The client script (testbeds/CLIENT.md, "The client script"), checked enough to run. */
function readScript(path) {
  let script;
  try {
    script = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    fail(`cannot read the client script ${path}: ${error.message}`);
  }
  const server = script?.server;
  const stdio = Array.isArray(server?.stdio) && server.stdio.length > 0 && server.stdio.every((a) => typeof a === 'string');
  const url = typeof server?.url === 'string';
  if (stdio === url) fail('script.server must be {"stdio": [argv...]} or {"url": "http://…/mcp"}');
  if (!Array.isArray(script.actions)) fail('script.actions must be an array');
  for (const action of script.actions) {
    const ok =
      typeof action?.atMs === 'number' &&
      ((action.kind === 'call' && typeof action.call === 'string') || (action.kind === 'abort' && typeof action.call === 'string') || action.kind === 'close');
    if (!ok) fail(`bad action ${JSON.stringify(action)}`);
  }
  return {
    server,
    // In order of atMs, equal times in list order (Array.prototype.sort is stable).
    actions: [...script.actions].sort((a, b) => a.atMs - b.atMs),
    serverRequests: { delayMs: Number(script.serverRequests?.delayMs ?? 0), hang: script.serverRequests?.hang === true },
    deadlineMs: Number(script.deadlineMs ?? 10_000),
  };
}

const ANSWERS = {
  'sampling/createMessage': { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'mcp-sim', stopReason: 'endTurn' },
  'elicitation/create': { action: 'accept', content: {} },
  'roots/list': { roots: [] },
};

const [cacheDir, scriptPath] = process.argv.slice(2);
if (!cacheDir || !scriptPath) {
  process.stderr.write('usage: node client.mjs <cache dir> <script.json>\n');
  process.exit(2);
}
const script = readScript(scriptPath);
let sdk;
try {
  sdk = await loadClientSdk(cacheDir);
} catch (error) {
  fail(error.message);
}

const client = new sdk.Client(
  { name: 'mcp-sim-client', version: sdk.version },
  { capabilities: { sampling: {}, elicitation: {}, roots: {} } },
);
// What the SDK reports beside a call (an unknown progress token, a response for an unknown id, a
// failed send): plain stderr text, kept by mcp-sim as it is.
client.onerror = (error) => process.stderr.write(`mcp-sim testbed typescript client: SDK onerror: ${error?.message ?? error}\n`);

/**
 * A handler for one server request method: answers after `delayMs` (a wait the SDK's cancel ends)
 * or never (`hang`), with the side channel's server-request events.
 */
const serverRequestHandler = (method) => async (_request, { id, signal }) => {
  const tag = { method, ...(id !== undefined && { id }) };
  writeEvent({ event: 'server-request', ...tag });
  const cancelled = new Promise((resolveCancelled) => {
    const onAbort = () => {
      writeEvent({ event: 'server-request-cancelled', ...tag });
      resolveCancelled();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  const { delayMs, hang } = script.serverRequests;
  if (hang) {
    await cancelled;
  } else if (delayMs > 0) {
    let timer;
    await Promise.race([cancelled, new Promise((r) => (timer = setTimeout(r, delayMs)))]);
    clearTimeout(timer);
  }
  if (signal.aborted) {
    writeEvent({ event: 'server-request-end', ...tag, outcome: 'aborted' });
    // The SDK sends nothing for a handler whose request was cancelled, whatever it returns.
    throw signal.reason instanceof Error ? signal.reason : new Error(`cancelled: ${String(signal.reason)}`);
  }
  writeEvent({ event: 'server-request-end', ...tag, outcome: 'result' });
  return ANSWERS[method];
};
for (const method of Object.keys(ANSWERS)) sdk.handle(client, method, serverRequestHandler(method));

const transport = script.server.stdio
  ? new sdk.StdioClientTransport({
      command: script.server.stdio[0],
      args: script.server.stdio.slice(1),
      // The server's stderr is piped and relayed as prefixed text, so the side channel stays ours.
      stderr: 'pipe',
    })
  : new sdk.StreamableHTTPClientTransport(new URL(script.server.url));
if (script.server.stdio) {
  transport.stderr?.on('data', (chunk) => {
    for (const line of String(chunk).split('\n')) if (line !== '') process.stderr.write(`scripted server stderr: ${line}\n`);
  });
}

try {
  await client.connect(transport);
} catch (error) {
  fail(`cannot connect to ${JSON.stringify(script.server)}: ${error?.stack ?? error}`);
}
const readyAt = performance.now();
writeEvent({ event: 'ready' });

/** The caller's abort handle of each call label, made up front so an abort may come first. */
const controllers = new Map();
const controllerOf = (label) => {
  if (!controllers.has(label)) controllers.set(label, new AbortController());
  return controllers.get(label);
};
/** Every call's settlement (never rejects). */
const calls = [];
let closing;
const close = () => (closing ??= client.close().catch((error) => process.stderr.write(`mcp-sim testbed typescript client: close failed: ${error?.stack ?? error}\n`)));

function startCall(action) {
  const label = action.call;
  const controller = controllerOf(label);
  const options = {
    signal: controller.signal,
    ...(action.timeoutMs !== undefined && { timeout: action.timeoutMs }),
    ...(action.resetTimeoutOnProgress !== undefined && { resetTimeoutOnProgress: action.resetTimeoutOnProgress }),
    ...(action.maxTotalTimeoutMs !== undefined && { maxTotalTimeout: action.maxTotalTimeoutMs }),
    ...(action.progress === true && {
      onprogress: (p) => writeEvent({ event: 'progress', call: label, progress: p.progress, ...(p.total !== undefined && { total: p.total }) }),
    }),
  };
  writeEvent({ event: 'call-start', call: label });
  let settled;
  try {
    settled = sdk.callTool(client, { name: 'run', arguments: { call: label } }, options);
  } catch (error) {
    settled = Promise.reject(error);
  }
  calls.push(
    settled.then(
      (result) => writeEvent({ event: 'call-end', call: label, outcome: 'result', ...(result?.isError === true && { isError: true }) }),
      (error) => {
        const { outcome, code } = sdk.classify(error, controller.signal.aborted);
        writeEvent({ event: 'call-end', call: label, outcome, ...(code !== undefined && { code }), message: String(error?.message ?? error) });
      },
    ),
  );
}

/** How long the client waits, after the last call settled, before its own close. */
const LINGER_MS = 200;
const sleepUntil = (atMs) => new Promise((r) => setTimeout(r, Math.max(0, readyAt + atMs - performance.now())));
const deadline = sleepUntil(script.deadlineMs);

for (const action of script.actions) {
  await sleepUntil(action.atMs);
  if (action.kind === 'call') {
    startCall(action);
  } else if (action.kind === 'abort') {
    writeEvent({ event: 'abort', call: action.call });
    controllerOf(action.call).abort();
  } else {
    writeEvent({ event: 'close' });
    void close();
  }
}

// Every call settled, or the deadline; then the client closed (if the script did not), and a last
// short wait for the calls the close settles. Before that close, a short linger (within the
// deadline): the SDK sends notifications/cancelled without awaiting the send, and over Streamable
// HTTP client.close() aborts every fetch still in flight, so a close at once after an abort or a
// timeout would drop that POST (a race of the test bed's own, not of the script).
await Promise.race([Promise.all(calls), deadline]);
if (closing === undefined) {
  await Promise.race([new Promise((r) => setTimeout(r, LINGER_MS)), deadline]);
  writeEvent({ event: 'close' });
}
await close();
await Promise.race([Promise.all(calls), new Promise((r) => setTimeout(r, 1000))]);
writeEvent({ event: 'closed' });
// CLIENT.md: linger, so a stdio server the close left running shows as running.
await new Promise((r) => setTimeout(r, 300));
process.exit(0);
