/**
 * One stateful Streamable HTTP session, driven in-process through
 * `WebStandardStreamableHTTPServerTransport.handleRequest(new Request(...))`: no sockets.
 *
 * Why: the transport keeps its own request->stream correlation (`_requestToStreamMapping`,
 * `_requestResponseMap`, `_streamMapping`) on top of the `Protocol` maps, and its `send()`
 * scans every in-flight entry to find a response's siblings. Driving it directly isolates
 * that cost from networking. Session ids are deterministic; SSE keep-alive is off
 * (`keepAliveMs: 0`) so no interval timers run during the measurement.
 */
import type { Sdk } from './loadSdk.ts';
import { Gate } from './latch.ts';
import { HTTP_TRANSPORT_MAPS, PROTOCOL_MAPS, probeMaps, type MapProbe } from './leaks.ts';

export type HttpMode = 'json' | 'sse';

export interface HttpSession {
  mode: HttpMode;
  server: InstanceType<Sdk['Server']>;
  transport: InstanceType<NonNullable<Sdk['WebStandardStreamableHTTPServerTransport']>>;
  sessionId: string;
  /** The gate every `tools/call` handler waits at; replace it before each batch. */
  gate: Gate;
  errors: string[];
  /** Builds (untimed) the POST for one `tools/call` with JSON-RPC id `id`. */
  buildCall(id: number): Request;
  /** Sends one POST and reads the whole response body (JSON document or SSE stream). */
  exchange(request: Request): Promise<string>;
  probe(): MapProbe[];
  close(): Promise<void>;
}

const URL_ = 'http://bench.invalid/mcp';
const RESULT = { content: [{ type: 'text' as const, text: 'ok' }] };

export async function openHttpSession(sdk: Sdk, mode: HttpMode, sessionNumber: number): Promise<HttpSession> {
  const Transport = sdk.WebStandardStreamableHTTPServerTransport;
  if (Transport === undefined) throw new Error(`SDK ${sdk.version} has no server/webStandardStreamableHttp.js`);
  const sessionId = `bench-session-${String(sessionNumber).padStart(4, '0')}`;
  const transport = new Transport({
    sessionIdGenerator: () => sessionId,
    enableJsonResponse: mode === 'json',
    keepAliveMs: 0,
  } as ConstructorParameters<typeof Transport>[0]);
  const server = new sdk.Server({ name: 'bench-http-server', version: '0.0.0' }, { capabilities: { tools: {} } });
  const protocolVersion = sdk.types.LATEST_PROTOCOL_VERSION;
  const baseHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const session: HttpSession = {
    mode,
    server,
    transport,
    sessionId,
    gate: new Gate(0),
    errors: [],
    buildCall(id) {
      return new Request(URL_, {
        method: 'POST',
        headers: { ...baseHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'bench', arguments: {} } }),
      });
    },
    async exchange(request) {
      const response = await transport.handleRequest(request);
      const text = await response.text();
      if (response.status !== 200) session.errors.push(`HTTP ${response.status}: ${text.slice(0, 200)}`);
      return text;
    },
    probe() {
      return [probeMaps(transport, `http transport (${mode})`, HTTP_TRANSPORT_MAPS), probeMaps(server, `http server (Protocol, ${mode})`, PROTOCOL_MAPS)];
    },
    async close() {
      await server.close();
    },
  };
  server.setRequestHandler(sdk.types.CallToolRequestSchema, async (_request, extra) => {
    await session.gate.wait(extra.signal);
    return RESULT;
  });
  server.onerror = (error) => session.errors.push(`server: ${error.message}`);
  transport.onerror = (error) => session.errors.push(`transport: ${error.message}`);
  await server.connect(transport);

  const init = await transport.handleRequest(
    new Request(URL_, {
      method: 'POST',
      headers: baseHeaders,
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
    new Request(URL_, {
      method: 'POST',
      headers: { ...baseHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }),
  );
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered HTTP ${initialized.status}`);
  return session;
}
