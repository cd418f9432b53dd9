/**
 * One stateful Streamable HTTP session as an `HttpEndpoint`, driven in-process through
 * `WebStandardStreamableHTTPServerTransport.handleRequest(new Request(...))`: no sockets.
 *
 * Why: the transport keeps its own request->stream correlation (`_requestToStreamMapping`,
 * `_requestResponseMap`, `_streamMapping`) on top of the `Protocol` maps, and its `send()`
 * scans every in-flight entry to find a response's siblings. Driving it directly isolates
 * that cost from networking. Session ids are deterministic; SSE keep-alive is off
 * (`keepAliveMs: 0`) so no interval timers run during the measurement.
 */
import { DEFAULT_SPEC } from '../../src/options/defaults.ts';
import type { HttpServerTransportOptions, SdkAdapter } from '../../src/sdk/SdkAdapter.ts';
import { splitSse } from '../../src/sim/http/sse.ts';
import type { HttpEndpoint } from './endpoint.ts';
import { Gate } from './latch.ts';
import { HTTP_TRANSPORT_MAPS, PROTOCOL_MAPS, probeMaps } from './leaks.ts';

export type HttpMode = 'json' | 'sse';

const URL_ = 'http://bench.invalid/mcp';
const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let sessions = 0;

/** The one JSON-RPC message of a response body, whether the transport answered in JSON or as one SSE event. */
function messageOf(body: string): { result?: { protocolVersion?: unknown } } {
  const event = splitSse(body).blocks.find((block) => block.data !== undefined);
  return JSON.parse(event?.data ?? body) as { result?: { protocolVersion?: unknown } };
}

/** Opens a session: connects a fresh low-level Server, POSTs initialize and initialized. */
export async function openHttpSession(sdk: SdkAdapter, mode: HttpMode): Promise<HttpEndpoint> {
  if (sdk.http === undefined) throw new Error(`${sdk.name}@${sdk.version} has no web-standard Streamable HTTP transports, which the HTTP benchmarks need`);
  const sessionId = `bench-session-${String(++sessions).padStart(4, '0')}`;
  const transport = sdk.http.createServerTransport({
    sessionIdGenerator: () => sessionId,
    enableJsonResponse: mode === 'json',
    keepAliveMs: 0,
  } as HttpServerTransportOptions);
  const server = sdk.createServer();
  const result = sdk.result('tools/call');
  // Set from the initialize response: the version this release negotiates, whatever its generation.
  let sessionHeaders: Record<string, string> = { ...BASE_HEADERS, 'mcp-session-id': sessionId };
  const endpoint: HttpEndpoint = {
    label: `sdk ${sdk.version} ${mode}`,
    gate: new Gate(0),
    errors: [],
    prepare(id) {
      return new Request(URL_, {
        method: 'POST',
        headers: sessionHeaders,
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: sdk.requestParams('tools/call', 'bench') }),
      });
    },
    async exchange(prepared) {
      const response = await transport.handleRequest(prepared as Request);
      const text = await response.text();
      if (response.status !== 200) endpoint.errors.push(`HTTP ${response.status}: ${text.slice(0, 200)}`);
      return text;
    },
    probe: () => [
      probeMaps(transport, `http transport (${mode})`, HTTP_TRANSPORT_MAPS),
      probeMaps(server, `http server (Protocol, ${mode})`, PROTOCOL_MAPS),
    ],
    async close() {
      await server.close();
    },
  };
  sdk.handle(server, 'tools/call', async (_request, context) => {
    await endpoint.gate.wait(context);
    return result;
  });
  // Protocol.connect routes the transport's errors here too.
  server.onerror = (error) => endpoint.errors.push(`server: ${error.message}`);
  await server.connect(transport);

  const init = await transport.handleRequest(
    new Request(URL_, {
      method: 'POST',
      headers: BASE_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: DEFAULT_SPEC, capabilities: {}, clientInfo: { name: 'bench-http-client', version: '0.0.0' } },
      }),
    }),
  );
  const initBody = await init.text();
  if (init.status !== 200 || init.headers.get('mcp-session-id') !== sessionId) {
    throw new Error(`initialize failed: HTTP ${init.status} ${initBody.slice(0, 200)}`);
  }
  // The server answers a version it speaks (the one offered, else its latest); every later POST names it.
  const negotiated = messageOf(initBody).result?.protocolVersion;
  if (typeof negotiated !== 'string') throw new Error(`initialize answered no protocolVersion: ${initBody.slice(0, 200)}`);
  sessionHeaders = { ...sessionHeaders, 'mcp-protocol-version': negotiated };
  const initialized = await transport.handleRequest(
    new Request(URL_, { method: 'POST', headers: sessionHeaders, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }),
  );
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered HTTP ${initialized.status}`);
  return endpoint;
}
