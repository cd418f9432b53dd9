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
import type { SdkAdapter } from '../../src/sdk/SdkAdapter.ts';
import { v1ModulesOf } from '../../src/sdk/v1/modules.ts';
import type { HttpEndpoint } from './endpoint.ts';
import { Gate } from './latch.ts';
import { HTTP_TRANSPORT_MAPS, PROTOCOL_MAPS, probeMaps } from './leaks.ts';

export type HttpMode = 'json' | 'sse';

const URL_ = 'http://bench.invalid/mcp';
const RESULT = { content: [{ type: 'text' as const, text: 'ok' }] };
const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let sessions = 0;

/** Opens a session: connects a fresh low-level Server, POSTs initialize and initialized. */
export async function openHttpSession(sdk: SdkAdapter, mode: HttpMode): Promise<HttpEndpoint> {
  const modules = v1ModulesOf(sdk, 'the HTTP benchmarks');
  const { server: { Server }, types } = modules;
  const Transport = modules.streamableHttpServer?.WebStandardStreamableHTTPServerTransport;
  if (Transport === undefined) throw new Error(`SDK ${sdk.version} has no server/webStandardStreamableHttp.js`);
  const sessionId = `bench-session-${String(++sessions).padStart(4, '0')}`;
  const transport = new Transport({
    sessionIdGenerator: () => sessionId,
    enableJsonResponse: mode === 'json',
    keepAliveMs: 0,
  } as ConstructorParameters<typeof Transport>[0]);
  const server = new Server({ name: 'bench-http-server', version: '0.0.0' }, { capabilities: { tools: {} } });
  const protocolVersion = types.LATEST_PROTOCOL_VERSION;
  const sessionHeaders = { ...BASE_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
  const endpoint: HttpEndpoint = {
    label: `sdk ${sdk.version} ${mode}`,
    gate: new Gate(0),
    errors: [],
    prepare(id) {
      return new Request(URL_, {
        method: 'POST',
        headers: sessionHeaders,
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'bench', arguments: {} } }),
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
  server.setRequestHandler(types.CallToolRequestSchema, async (_request, extra) => {
    await endpoint.gate.wait(extra);
    return RESULT;
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
        params: { protocolVersion, capabilities: {}, clientInfo: { name: 'bench-http-client', version: '0.0.0' } },
      }),
    }),
  );
  const initBody = await init.text();
  if (init.status !== 200 || init.headers.get('mcp-session-id') !== sessionId) {
    throw new Error(`initialize failed: HTTP ${init.status} ${initBody.slice(0, 200)}`);
  }
  const initialized = await transport.handleRequest(
    new Request(URL_, { method: 'POST', headers: sessionHeaders, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }),
  );
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered HTTP ${initialized.status}`);
  return endpoint;
}
