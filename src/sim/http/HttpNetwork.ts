import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Endpoint, SimServerTransport, StreamableHttp } from '../../sdk/SdkAdapter.ts';
import type { ModernEra, PerRequestHandler } from '../../sdk/modern/ModernEra.ts';
import { messageOf } from '../../util/errors.ts';
import { canonicalJson, type JsonValue } from '../../util/json.ts';
import { summarizeFrame } from '../../util/jsonrpc.ts';
import type { TraceEventBody, WireId } from '../trace.ts';
import { HttpConnection } from './HttpConnection.ts';
import { HttpExchange, type DownItem, type ExchangeState, type SeqFrame } from './HttpExchange.ts';
import type { ResolvedHttpMode } from './resolveHttpMode.ts';
import { SimEventStore } from './simEventStore.ts';
import { SseReader, type SseBlock } from './sse.ts';

/** The endpoint every simulated request goes to. No socket is ever opened. */
export const MCP_URL = 'http://mcp-sim.test/mcp';

/** Request header naming the exchange, so the server's `onmessage` can say which POST a frame came in. */
const EXCHANGE_HEADER = 'x-mcp-sim-exchange';

/** What the network needs from the world. */
export interface HttpHost {
  /** The world's global send order. */
  nextSeq(): number;
  record(event: TraceEventBody): void;
  /** A `Server` with the world's handlers, unconnected (stateless mode builds one per POST). */
  createServer(): Endpoint;
}

/** One schedulable HTTP delivery: the head of one direction's queue of one exchange. */
export interface HttpDelivery {
  readonly exchange: HttpExchange;
  readonly dir: 'up' | 'down';
}

/** An exchange that has not reached a final state, as the liveness check reads it. */
export interface OpenExchange {
  readonly conn: number;
  /** The exchange's number in the trace (the seq of its request). */
  readonly exchange: number;
  readonly method: string;
  /** JSON-RPC requests the request body carried. */
  readonly requestIds: readonly WireId[];
  readonly state: ExchangeState;
}

const encoder = new TextEncoder();

/**
 * The Streamable HTTP network: the SDK's real client transport with an in-memory `fetch`, and
 * the SDK's real web-standard server transport behind it, served through `handleRequest` (or,
 * in revision 2026-07-28, the SDK's per-request entry, a fresh server for every POST).
 * Nothing moves by itself: `fetch` only queues the request; the scheduler picks each delivery
 * (request to server, response head, each SSE event, stream end, client disconnect) from
 * `deliveries()` and `perform`s it. Each exchange's queues are FIFO, exchanges are independent.
 */
export class HttpNetwork {
  readonly connections: HttpConnection[] = [];
  private readonly exchanges: HttpExchange[] = [];
  private readonly eventStore: SimEventStore | undefined;
  /** Per-request serving (2026-07-28): the SDK's entry that builds a server per POST. */
  private readonly perRequest: PerRequestHandler | undefined;

  constructor(
    private readonly host: HttpHost,
    readonly mode: ResolvedHttpMode,
    /** The SDK release's transports: the network serves its server transport and feeds its client transport. */
    private readonly transports: StreamableHttp | undefined,
    /**
     * The 2026-07-28 era instead: the era's client transport, and every POST served by its
     * per-request entry (`createMcpHandler`), which builds a server for it from `host.createServer`.
     * No sessions, no GET stream, no resumption; a client's disconnect aborts the POST's `Request.signal`.
     */
    private readonly modern?: ModernEra,
  ) {
    // One store for the whole server, as a deployment would share it across sessions.
    this.eventStore = mode.eventStore && !modern ? new SimEventStore() : undefined;
    this.perRequest = modern?.createHandler({
      createServer: () => host.createServer(),
      onSend: (request, message) => this.noteServerSend(this.exchangeOf(request).connection, message),
      onDeliver: (request, message) => this.noteServerDelivery(this.exchangeOf(request), message),
      onError: (error) => host.record({ kind: 'onerror', side: 'server', message: error.message }),
    });
    if (!transports && !modern) throw new Error('HttpNetwork: needs the session-era transports or the 2026-07-28 era.');
  }

  /** The newest connection of client `client` (of the only client, by default). */
  current(client = 0): HttpConnection | undefined {
    for (let k = this.connections.length - 1; k >= 0; k--) if (this.connections[k]!.clientIndex === client) return this.connections[k];
    return undefined;
  }

  /**
   * A new connection of client `client`: a client transport whose fetch leads here and, when
   * stateful, the session's server transport (the world connects that client's `Server` to it).
   */
  connect(conn: number, client = 0): { client: Transport; server?: Transport } {
    const connection = new HttpConnection(conn, client);
    const fetch = (_url: string | URL, init?: RequestInit) => this.open(connection, init ?? {});
    connection.client = this.modern
      ? this.modern.createClientTransport(new URL(MCP_URL), { fetch })
      : this.transports!.createSimClientTransport(new URL(MCP_URL), { fetch });
    if (this.mode.stateful && !this.modern) connection.server = this.serverTransport(connection, () => `session-${conn}`);
    this.connections.push(connection);
    return { client: connection.client, ...(connection.server && { server: connection.server }) };
  }

  /** Enabled deliveries, oldest head first. */
  deliveries(): HttpDelivery[] {
    const out: (HttpDelivery & { seq: number })[] = [];
    for (const exchange of this.exchanges) {
      if (exchange.up[0]) out.push({ exchange, dir: 'up', seq: exchange.up[0].seq });
      if (exchange.down[0]) out.push({ exchange, dir: 'down', seq: exchange.down[0].seq });
    }
    return out.sort((a, b) => a.seq - b.seq).map(({ exchange, dir }) => ({ exchange, dir }));
  }

  perform(d: HttpDelivery): void {
    if (d.dir === 'up') this.deliverUp(d.exchange);
    else this.deliverDown(d.exchange);
  }

  /**
   * The exchange's place among its connection's exchanges (0 for the first): a name that does not
   * depend on how other clients' steps interleave, as the global `id` does.
   */
  ordinalOf(exchange: HttpExchange): number {
    return this.exchanges.filter((e) => e.connection === exchange.connection).indexOf(exchange);
  }

  /** Exchanges not in a final state (GET streams included: the checker decides what matters). */
  openExchanges(): OpenExchange[] {
    return this.exchanges
      .filter((e) => !e.isFinal)
      .map((e) => ({ conn: e.conn, exchange: e.id, method: e.method, requestIds: e.requestIds, state: e.state }));
  }

  /**
   * POSTs `body` through the current connection's fetch with the client's session headers,
   * bypassing the SDK client; the response is read to its end and discarded.
   */
  async post(body: JsonValue, client = 0): Promise<void> {
    const connection = this.current(client);
    if (!connection) throw new Error('HttpNetwork.post: no connection; connect first.');
    const headers = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    if (connection.client.sessionId) headers.set('mcp-session-id', connection.client.sessionId);
    if (connection.client.protocolVersion) headers.set('mcp-protocol-version', connection.client.protocolVersion);
    const response = await this.open(connection, { method: 'POST', headers, body: JSON.stringify(body) }, true);
    const reader = response.body?.getReader();
    if (!reader) return;
    for (;;) if ((await reader.read()).done) return;
  }

  /** Breaks every SSE stream the current connection of `client` is reading, as a network failure would. */
  dropStreams(client = 0): void {
    const current = this.current(client);
    for (const exchange of this.exchanges) {
      if (exchange.connection === current && exchange.state === 'streaming') {
        // What undici's fetch reports when the connection goes away mid-body.
        this.clientDrops(exchange, new TypeError('terminated'));
      }
    }
  }

  // ── client end ────────────────────────────────────────────────────────────────────────────

  /** The in-memory fetch: records the request and queues it; resolves when its head is delivered. */
  private open(connection: HttpConnection, init: RequestInit, raw = false): Promise<Response> {
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const body = typeof init.body === 'string' ? init.body : undefined;
    const id = this.host.nextSeq();
    const frames = parseFrames(body).map((frame) => ({ seq: this.host.nextSeq(), frame }));
    const exchange = new HttpExchange(connection, id, method, headers, body, frames, sessionAndCursor(headers));
    exchange.raw = raw;
    this.host.record({
      kind: 'http-request',
      at: 'client',
      conn: connection.conn,
      exchange: id,
      method,
      ...exchange.sessionAndCursor,
      seqs: frames.map((f) => f.seq),
      ...(raw && { raw: true }),
    });
    for (const f of frames) this.host.record({ kind: 'send', from: 'client', conn: connection.conn, seq: f.seq, frame: f.frame });
    const fetched = new Promise<Response>((resolve, reject) => {
      exchange.resolveFetch = resolve;
      exchange.rejectFetch = reject;
    });
    const signal = init.signal ?? undefined;
    if (signal?.aborted) {
      exchange.state = 'disconnected';
      this.host.record({ kind: 'http-disconnect', at: 'client', conn: connection.conn, exchange: id });
      for (const f of frames) this.host.record({ kind: 'drop', to: 'server', conn: connection.conn, seq: f.seq, frame: f.frame });
      exchange.rejectFetch(signal.reason);
      return fetched;
    }
    if (signal) {
      const onAbort = () => this.clientDrops(exchange, signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      exchange.detachSignal = () => signal.removeEventListener('abort', onAbort);
    }
    exchange.up.push({ kind: 'request', seq: id });
    this.exchanges.push(exchange);
    return fetched;
  }

  /** The client gives the exchange up (its transport closed, or it cancelled the body). */
  private clientDrops(exchange: HttpExchange, reason: unknown, bodyCancelled = false): void {
    if (exchange.isFinal) return;
    const { conn } = exchange;
    const before = exchange.state;
    exchange.state = 'disconnected';
    exchange.detachSignal();
    this.host.record({ kind: 'http-disconnect', at: 'client', conn, exchange: exchange.id });
    if (before === 'queued') {
      // Never left the client: the request is lost with it.
      exchange.up.length = 0;
      for (const f of exchange.frames) this.host.record({ kind: 'drop', to: 'server', conn, seq: f.seq, frame: f.frame });
    } else {
      exchange.up.push({ kind: 'disconnect', seq: this.host.nextSeq() });
    }
    for (const item of exchange.down.splice(0)) this.dropDown(exchange, item);
    if (before === 'queued' || before === 'at-server' || before === 'responded') exchange.rejectFetch(reason);
    else if (before === 'streaming' && !bodyCancelled) exchange.clientBody?.error(reason);
  }

  private dropDown(exchange: HttpExchange, item: DownItem): void {
    const frames = item.kind === 'head' ? item.frames : item.kind === 'event' && item.frame ? [item.frame] : [];
    for (const f of frames) this.host.record({ kind: 'drop', to: 'client', conn: exchange.conn, seq: f.seq, frame: f.frame });
  }

  private deliverDown(exchange: HttpExchange): void {
    const item = exchange.down.shift();
    if (!item) throw new Error(`HttpNetwork.deliverDown: nothing queued for the client on exchange #${exchange.id}`);
    const { conn } = exchange;
    switch (item.kind) {
      case 'head': {
        const contentType = item.headers.find(([k]) => k === 'content-type')?.[1];
        this.host.record({
          kind: 'http-response',
          at: 'client',
          conn,
          exchange: exchange.id,
          status: item.status,
          ...(contentType !== undefined && { contentType }),
          seqs: item.frames.map((f) => f.seq),
        });
        for (const f of exchange.raw ? [] : item.frames) {
          this.host.record({ kind: 'deliver', to: 'client', conn, seq: f.seq, frame: f.frame, burst: item.frames.length });
        }
        let response: Response;
        if (item.sse) {
          const body = new ReadableStream<Uint8Array>({
            start: (controller) => {
              exchange.clientBody = controller;
            },
            cancel: (reason) => this.clientDrops(exchange, reason, true),
          });
          response = new Response(body, { status: item.status, headers: item.headers });
          exchange.state = 'streaming';
        } else {
          response = new Response(item.body, { status: item.status, headers: item.headers });
          exchange.state = 'complete';
          exchange.detachSignal();
        }
        exchange.resolveFetch(response);
        return;
      }
      case 'event': {
        const block = item.block;
        this.host.record({
          kind: 'sse-event',
          at: 'client',
          conn,
          exchange: exchange.id,
          ...(item.frame && { seq: item.frame.seq }),
          ...(block.id !== undefined && { eventId: block.id }),
          ...(block.comment && { comment: true }),
        });
        if (item.frame && !exchange.raw) this.host.record({ kind: 'deliver', to: 'client', conn, seq: item.frame.seq, frame: item.frame.frame, burst: 1 });
        exchange.clientBody?.enqueue(item.bytes ?? encoder.encode(`${block.raw}\n\n`));
        return;
      }
      case 'end':
        this.host.record({ kind: 'sse-end', at: 'client', conn, exchange: exchange.id });
        exchange.state = 'complete';
        exchange.detachSignal();
        exchange.clientBody?.close();
        return;
    }
  }

  // ── server end ────────────────────────────────────────────────────────────────────────────

  private serverTransport(connection: HttpConnection, sessionId: (() => string) | undefined): SimServerTransport {
    const transport = this.transports!.createSimServerTransport(
      {
        sessionIdGenerator: sessionId,
        enableJsonResponse: this.mode.response === 'json',
        keepAliveMs: this.mode.keepAliveMs,
        ...(this.eventStore && { eventStore: this.eventStore }),
      },
      (message: JSONRPCMessage) => this.noteServerSend(connection, message),
    );
    // Set before the `Server` connects: the SDK chains it, so the frame is recorded before it is handled.
    transport.onmessage = (message, extra) => {
      const exchange = this.exchanges.find((e) => String(e.id) === extra?.requestInfo?.headers?.[EXCHANGE_HEADER]);
      this.noteServerDelivery(exchange, message, connection);
    };
    return transport;
  }

  /** Records a server `send()` before its transport handles it, so the body or stream carrying it finds its seq. */
  private noteServerSend(connection: HttpConnection, message: JSONRPCMessage): void {
    const seq = this.host.nextSeq();
    const text = JSON.stringify(message);
    const frame = JSON.parse(text) as JsonValue;
    this.host.record({ kind: 'send', from: 'server', conn: connection.conn, seq, frame });
    connection.noteSend({ text, seq, frame });
  }

  /** Records a message the server transport hands its `Server`, matched to its wire frame by content. */
  private noteServerDelivery(exchange: HttpExchange | undefined, message: JSONRPCMessage, connection = exchange?.connection): void {
    // The SDK hands over its schema-parsed copy (keys reordered): match the wire frame by content.
    const text = canonicalJson(message);
    const f = exchange?.frames.find((x) => canonicalOf(x.frame) === text);
    this.host.record({
      kind: 'deliver',
      to: 'server',
      conn: connection?.conn ?? 0,
      seq: f?.seq ?? this.host.nextSeq(),
      frame: f?.frame ?? (JSON.parse(JSON.stringify(message)) as JsonValue),
      burst: exchange?.frames.length ?? 1,
    });
  }

  /** The exchange a per-request server serves, by the header the network put on its `Request`. */
  private exchangeOf(request: Request): HttpExchange {
    const id = request.headers.get(EXCHANGE_HEADER);
    const exchange = this.exchanges.find((e) => String(e.id) === id);
    if (!exchange) throw new Error(`HttpNetwork: a per-request server got a Request of no exchange (${EXCHANGE_HEADER}: ${id})`);
    return exchange;
  }

  private deliverUp(exchange: HttpExchange): void {
    const item = exchange.up.shift();
    if (!item) throw new Error(`HttpNetwork.deliverUp: nothing queued for the server on exchange #${exchange.id}`);
    const { conn } = exchange;
    if (item.kind === 'disconnect') {
      this.host.record({ kind: 'http-disconnect', at: 'server', conn, exchange: exchange.id });
      exchange.serverGone = true;
      void exchange.serverReader?.cancel().catch(() => {});
      // 2026-07-28: the runtime aborts the request's signal when its client goes away.
      exchange.serverAbort?.abort(new DOMException('The client disconnected', 'AbortError'));
      this.finishServer(exchange);
      return;
    }
    exchange.state = 'at-server';
    this.host.record({
      kind: 'http-request',
      at: 'server',
      conn,
      exchange: exchange.id,
      method: exchange.method,
      ...exchange.sessionAndCursor,
      seqs: exchange.frames.map((f) => f.seq),
    });
    if (this.perRequest) exchange.serverAbort = new AbortController();
    // A JSON body goes to the transport parsed, as a framework's body parser hands it over
    // (`handleRequest(req, { parsedBody })`): the `Request` then carries no body stream, which
    // cost a sixth of an HTTP run (a web stream per POST, read back by the transport). A body
    // that is not JSON is sent as it is, for the transport to refuse. Per-request serving
    // (2026-07-28) takes a plain `Request` only.
    const parsedBody = this.perRequest ? undefined : jsonOf(exchange.body);
    // The `Request` copies the client's headers into its own, and the network's header goes on
    // that copy: no intermediate `Headers` (the set is the same, and `Headers` iterate sorted).
    const request = new Request(MCP_URL, {
      method: exchange.method,
      headers: exchange.headers,
      ...(exchange.body !== undefined && parsedBody === undefined && { body: exchange.body }),
      ...(exchange.serverAbort && { signal: exchange.serverAbort.signal }),
    });
    request.headers.set(EXCHANGE_HEADER, String(exchange.id));
    void this.serve(exchange, request, parsedBody).then(
      (response) => this.serverResponds(exchange, response),
      (error: unknown) => {
        // What a web framework does with a handler that throws: a 500.
        this.host.record({ kind: 'onerror', side: 'server', message: `handleRequest threw: ${messageOf(error)}` });
        return this.serverResponds(exchange, new Response(null, { status: 500 }));
      },
    );
  }

  private async serve(exchange: HttpExchange, request: Request, parsedBody: JsonValue | undefined): Promise<Response> {
    const connection = exchange.connection;
    if (this.perRequest) return this.perRequest.fetch(request);
    // One endpoint for every client: a request naming a session goes to that session's transport.
    // A request naming none (initialize) or an unknown one goes to the transport made for its
    // connection, which answers it (or refuses it, as the SDK does an unknown session).
    const session = exchange.sessionAndCursor.session;
    const routed = session === undefined ? undefined : this.connections.find((c) => c.server?.sessionId === session)?.server;
    const target = routed ?? connection.server;
    if (target) return target.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    // Stateless, as the SDK's example: a fresh transport and server per POST, no GET stream.
    if (exchange.method !== 'POST') {
      return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }), {
        status: 405,
        headers: { 'content-type': 'application/json' },
      });
    }
    const server = this.host.createServer();
    const transport = this.serverTransport(connection, undefined);
    exchange.perRequest = { server, transport, closed: false };
    await server.connect(transport);
    return transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
  }

  private async serverResponds(exchange: HttpExchange, response: Response): Promise<void> {
    const { conn } = exchange;
    const contentType = response.headers.get('content-type') ?? undefined;
    const headers = [...response.headers.entries()];
    const sse = contentType?.startsWith('text/event-stream') ?? false;
    const recordHead = (seqs: number[], error?: string) =>
      this.host.record({
        kind: 'http-response',
        at: 'server',
        conn,
        exchange: exchange.id,
        status: response.status,
        ...(contentType !== undefined && { contentType }),
        ...sessionOf(response.headers),
        seqs,
        ...(error !== undefined && { error }),
      });
    if (sse && response.body) {
      recordHead([]);
      this.queueDown(exchange, { kind: 'head', seq: this.host.nextSeq(), status: response.status, headers, body: null, sse: true, frames: [] });
      return this.pump(exchange, response.body);
    }
    const body = response.body ? await response.text() : null;
    const frames: SeqFrame[] = [];
    let error: string | undefined;
    if (body !== null && response.ok) {
      for (const frame of parseFrames(body)) {
        const seq = exchange.connection.takeSend(JSON.stringify(frame))?.seq ?? this.host.nextSeq();
        frames.push({ seq, frame });
      }
    } else if (body !== null) {
      error = errorSummary(body);
    }
    recordHead(
      frames.map((f) => f.seq),
      error,
    );
    this.queueDown(exchange, { kind: 'head', seq: this.host.nextSeq(), status: response.status, headers, body, sse: false, frames });
    this.finishServer(exchange);
  }

  /** Reads the server's SSE body as it is written, one event per queued delivery. */
  private async pump(exchange: HttpExchange, body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    exchange.serverReader = reader;
    if (exchange.serverGone) void reader.cancel().catch(() => {});
    const sse = new SseReader();
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        break;
      }
      if (chunk.done) break;
      // The SDK writes each event as one chunk: such a chunk is the very bytes the client gets.
      const { blocks, alone } = sse.read(chunk.value);
      for (const block of blocks) this.serverWrites(exchange, block, alone ? chunk.value : undefined);
    }
    if (!exchange.serverGone) {
      this.host.record({ kind: 'sse-end', at: 'server', conn: exchange.conn, exchange: exchange.id });
      this.queueDown(exchange, { kind: 'end', seq: this.host.nextSeq() });
    }
    this.finishServer(exchange);
  }

  /** `bytes`: the event as the server's stream carried it, when it is exactly `${block.raw}\n\n` encoded. */
  private serverWrites(exchange: HttpExchange, block: SseBlock, bytes?: Uint8Array): void {
    const { conn } = exchange;
    let frame: SeqFrame | undefined;
    let replay = false;
    if (block.data !== undefined) {
      // The text of a send of the SDK: its seq, and the frame its `send` event holds (the same
      // text parsed once, as the memory profile shares one frame between send and delivery).
      const sent = exchange.connection.takeSend(block.data);
      if (sent) {
        frame = { seq: sent.seq, frame: sent.frame };
      } else {
        // Not from a send of the SDK: the event store replaying a stored message.
        let parsed: JsonValue;
        try {
          parsed = JSON.parse(block.data) as JsonValue;
        } catch {
          parsed = block.data;
        }
        replay = true;
        const seq = this.host.nextSeq();
        this.host.record({ kind: 'send', from: 'server', conn, seq, frame: parsed });
        frame = { seq, frame: parsed };
      }
    }
    this.host.record({
      kind: 'sse-event',
      at: 'server',
      conn,
      exchange: exchange.id,
      ...(frame && { seq: frame.seq }),
      ...(block.id !== undefined && { eventId: block.id }),
      ...(replay && { replay: true }),
      ...(block.comment && { comment: true }),
    });
    this.queueDown(exchange, { kind: 'event', seq: frame?.seq ?? this.host.nextSeq(), block, ...(frame && { frame }), ...(bytes && { bytes }) });
  }

  /** Queues toward the client, unless the client already left: then what the server wrote is lost. */
  private queueDown(exchange: HttpExchange, item: DownItem): void {
    if (exchange.state === 'disconnected') return this.dropDown(exchange, item);
    if (item.kind === 'head') exchange.state = 'responded';
    exchange.down.push(item);
  }

  /**
   * Stateless mode: the response is finished (or the client left), so the per-POST server and
   * transport are closed, as the SDK's example does on the response's `close` event.
   */
  private finishServer(exchange: HttpExchange): void {
    const own = exchange.perRequest;
    if (!own || own.closed) return;
    own.closed = true;
    void own.server.close().catch(() => {});
  }
}

/** The delivery by meaning, as the trace and the action log print it. */
export function describeHttpDelivery(d: HttpDelivery): string {
  const ex = d.exchange;
  if (d.dir === 'up') {
    const item = ex.up[0];
    if (item?.kind === 'disconnect') return `http →server #${ex.id} disconnect`;
    const what = ex.frames.map((f) => summarizeFrame(f.frame)).join(', ');
    return `http →server #${ex.id} ${ex.method}${what ? ` ${what}` : ''}`;
  }
  const item = ex.down[0];
  switch (item?.kind) {
    case 'head':
      return `http →client #${ex.id} response ${item.status}${item.sse ? ' sse' : item.body ? ' json' : ''}`;
    case 'event':
      return `http →client #${ex.id} sse ${item.frame ? `[${item.frame.seq}] ${summarizeFrame(item.frame.frame)}` : item.block.comment ? 'comment' : `priming id=${item.block.id ?? ''}`}`;
    case 'end':
      return `http →client #${ex.id} sse end`;
    default:
      return `http →client #${ex.id} nothing`;
  }
}

function parseFrames(body: string | undefined | null): JsonValue[] {
  if (body === undefined || body === null || body === '') return [];
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(body) as JsonValue;
  } catch {
    return [body];
  }
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** The body as JSON, or undefined when there is none or it does not parse. */
function jsonOf(body: string | undefined): JsonValue | undefined {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body) as JsonValue;
  } catch {
    return undefined;
  }
}

function sessionAndCursor(headers: Headers): { session?: string; lastEventId?: string } {
  const session = headers.get('mcp-session-id');
  const lastEventId = headers.get('last-event-id');
  return { ...(session !== null && { session }), ...(lastEventId !== null && { lastEventId }) };
}

function sessionOf(headers: Headers): { session?: string } {
  const session = headers.get('mcp-session-id');
  return session !== null ? { session } : {};
}

function errorSummary(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } };
    return parsed.error?.message ?? body.slice(0, 120);
  } catch {
    return body.slice(0, 120);
  }
}

/** Canonical JSON of the wire frames, made once per frame: every delivery to the server compares against its exchange's. */
const canonicalFrames = new WeakMap<object, string>();

function canonicalOf(frame: JsonValue): string {
  if (typeof frame !== 'object' || frame === null) return canonicalJson(frame);
  let text = canonicalFrames.get(frame);
  if (text === undefined) canonicalFrames.set(frame, (text = canonicalJson(frame)));
  return text;
}
