import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { defaultSdk } from '../../sdk/load.ts';
import type { Endpoint, SdkAdapter, SimServerTransport, StreamableHttp } from '../../sdk/SdkAdapter.ts';
import { DEFAULT_SEED } from '../../sim/defaults.ts';
import type { EndState } from '../../sim/endState.ts';
import type { OpenExchange } from '../../sim/http/HttpNetwork.ts';
import { SseReader } from '../../sim/http/sse.ts';
import { canonicalJson, type JsonValue } from '../../util/json.ts';
import { quiesce } from '../../sim/realGlobals.ts';
import { traceHash, type TraceEvent, type TraceEventBody, type TraceRecorder, type WireId } from '../../sim/trace.ts';
import { withTrace } from '../../sim/withSandbox.ts';
import { describeError } from '../../util/errors.ts';
import { isRequestFrame } from '../../util/jsonrpc.ts';

/** `handleRequest` as a function: what a broken fixture wraps. */
export type HttpHandle = (request: Request) => Promise<Response>;

/** The two sessions of a rogue HTTP run: `A` is attacked, `B` is a second, independent client's session. */
export type SessionName = 'A' | 'B';

/** The rogue's spec revision (`initialize` and the `MCP-Protocol-Version` header). */
export const HTTP_ROGUE_PROTOCOL_VERSION = '2025-11-25';
export const HTTP_ROGUE_URL = 'http://localhost/mcp';
/** Id of the follow-up `ping` on session A: answered, the session is still usable (`rpc.survives-bad-input`). */
export const HTTP_FOLLOW_UP_ID = 'rogue-follow-up';
/** Tools of the SDK server: `echo` answers at once, `gate` waits until the run releases its gates (or its signal aborts). */
export const ECHO_TOOL = 'echo';
export const GATE_TOOL = 'gate';

export interface HttpRogueRunOptions {
  /** Seed of `Math.random` and `crypto.randomUUID` (stream ids). @default DEFAULT_SEED */
  readonly seed?: number;
  /** `sse`: one SSE stream per POST (the SDK default); `json`: `enableJsonResponse: true`. @default 'sse' */
  readonly response?: 'sse' | 'json';
  /** Interposes on a session's `handleRequest`: fixtures use it to make a deliberately broken server. */
  readonly wrap?: (handle: HttpHandle, session: SessionName) => HttpHandle;
  /** The SDK release under attack. @default the one installed next to mcp-sim (`defaultSdk()`) */
  readonly sdk?: SdkAdapter;
}

/** One HTTP exchange as the rogue saw it: what the behaviour table describes. */
export interface HttpExchangeRecord {
  readonly n: number;
  readonly label: string;
  readonly session: SessionName;
  readonly method: string;
  /** A request a correct client never sends, as opposed to the run's own correct traffic. */
  readonly probe: boolean;
  /** `handleRequest` settled (with a Response) by quiescence after it was called. */
  settled: boolean;
  /** It settled, but only later (e.g. after the gates opened). */
  settledLate: boolean;
  /** `handleRequest` rejected instead of answering. */
  threw?: string;
  status?: number;
  contentType?: string;
  /** The body reached its end by the end of the run (a bodiless answer counts as ended). */
  bodyEnded: boolean;
  bodyText: string;
  /** JSON-RPC messages in the body: a JSON body, or the `data:` of each SSE event. */
  frames: JsonValue[];
}

/** What a handler of the SDK server did, per session and request id. */
export interface HandlerRecord {
  readonly session: SessionName;
  readonly id: WireId;
  readonly tool: string;
  aborted: boolean;
  ended: 'result' | 'aborted' | undefined;
}

export interface HttpRogueRunResult {
  /**
   * The run in the simulator's trace format: each session a connection (A is 1, B is 2, client
   * 1), each raw request an `http-request` with its headers (and its body, when it carries no
   * frames), the frames, response heads, SSE events and handlers on both sides.
   */
  readonly trace: readonly TraceEvent[];
  /** The open exchanges at the end (the first POST an SDK orphaned, say), for `http.duplicate-inflight-id` and `http.exchange-completes`. */
  readonly endState: EndState;
  /** The same run in words, line by line. */
  readonly log: readonly string[];
  readonly hash: string;
  readonly exchanges: readonly HttpExchangeRecord[];
  readonly handlers: readonly HandlerRecord[];
  readonly response: 'sse' | 'json';
}

/** What an attack may do: send raw HTTP requests to a session's endpoint, and observe. */
export interface HttpRogueContext {
  /** The session id the server gave `session` at initialize. */
  sessionId(session: SessionName): string;
  /** The headers a correct client sends on `session`, with `overrides` applied (`null` removes one). */
  headers(session: SessionName, overrides?: Record<string, string | null>): Record<string, string>;
  /** Sends one raw request to `session`'s `handleRequest` and runs to quiescence. */
  send(label: string, session: SessionName, init: { method?: string; headers: Record<string, string>; body?: string; probe?: boolean }): Promise<HttpExchangeRecord>;
  /** The handler record of `id` on `session`, if one started. */
  handler(session: SessionName, id: WireId): HandlerRecord | undefined;
  /** Adds a line to the run's log. */
  note(line: string): void;
}

export type HttpAttack = (ctx: HttpRogueContext) => Promise<void>;

/** The connection number of a session in the trace. */
const connOf = (session: SessionName): number => (session === 'A' ? 1 : 2);

/**
 * Runs one rogue HTTP attack against the real `WebStandardStreamableHTTPServerTransport` in
 * stateful mode: two sessions (`A`, `B`), each its own transport and `Server`, initialized by a
 * correct raw client; then `attack`; then the gates open; then a `ping` on A (the follow-up).
 * Everything is recorded in the simulator's trace format (one step per rogue request), which the
 * model judges (`judge()` with the rogue's side, the client, left out). Runs in a `RunSandbox`
 * (virtual time, seeded `randomUUID`, captured escapes) in a fixed order, so the trace and hash
 * are a pure function of (attack, options, SDK build).
 */
export async function runHttpRogue(attack: HttpAttack, options: HttpRogueRunOptions = {}): Promise<HttpRogueRunResult> {
  const response = options.response ?? 'sse';
  const sdk = options.sdk ?? (await defaultSdk());
  const http = sdk.http ?? noHttp(sdk);
  const log: string[] = [];
  let endState: EndState | undefined;
  let trace: readonly TraceEvent[] = [];
  const run = await withTrace(options.seed ?? DEFAULT_SEED, async (recorder) => {
    const run = new HttpRogueRun(sdk, http, recorder, log, response, options.wrap);
    await run.initialize('A');
    await run.initialize('B');
    log.push('-- attack');
    await attack(run.context);
    await run.drainAll();
    log.push('-- gates open');
    run.openGates();
    await run.drainAll();
    log.push('-- follow-up');
    await run.followUp();
    await run.drainAll();
    endState = run.endState();
    recorder.record({ kind: 'end', outcome: 'quiescent' });
    // The teardown is no part of the run (the simulator reads its end state and ends its trace first).
    recorder.stop();
    trace = recorder.events;
    await run.close();
    return run;
  });
  return { trace, endState: endState!, log, hash: traceHash(trace as TraceEvent[]), exchanges: run.exchanges, handlers: run.handlers, response };
}

function noHttp(sdk: SdkAdapter): never {
  throw new Error(`runHttpRogue: ${sdk.name}@${sdk.version} has no Streamable HTTP transports.`);
}

interface Session {
  readonly name: SessionName;
  readonly conn: number;
  readonly server: Endpoint;
  readonly transport: SimServerTransport;
  readonly handle: HttpHandle;
  id: string;
  /** What the server sent and no body or stream has carried yet, oldest first. */
  readonly unwritten: { readonly text: string; readonly seq: number }[];
}

/** One open response body, read as far as it goes without waiting past quiescence. */
class BodyTap {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  private readonly decoder = new TextDecoder();
  private readonly sse = new SseReader();

  constructor(
    body: ReadableStream<Uint8Array>,
    private readonly record: HttpExchangeRecord,
    private readonly run: HttpRogueRun,
    private readonly session: Session,
  ) {
    this.reader = body.getReader();
  }

  async drain(): Promise<void> {
    const r = this.record;
    while (!r.bodyEnded) {
      this.pending ??= this.reader.read().catch((error: unknown) => {
        this.run.note(`#${r.n} body error: ${describeError(error)}`);
        return { done: true, value: undefined } as ReadableStreamReadResult<Uint8Array>;
      });
      const next = await Promise.race([this.pending, quiesce().then(() => undefined)]);
      if (!next) return;
      this.pending = undefined;
      if (next.done) {
        r.bodyEnded = true;
        this.run.note(`#${r.n} body end`);
        this.run.streamEnds(this.session, r.n);
        return;
      }
      const chunk = this.decoder.decode(next.value, { stream: true });
      r.bodyText += chunk;
      this.run.note(`#${r.n} body ${JSON.stringify(chunk)}`);
      for (const block of this.sse.read(next.value).blocks) this.run.streamEvent(this.session, r, block.data, block.id);
    }
  }
}

/** One rogue HTTP run's moving parts. @internal */
class HttpRogueRun {
  readonly exchanges: HttpExchangeRecord[] = [];
  readonly handlers: HandlerRecord[] = [];
  private readonly sessions = new Map<SessionName, Session>();
  private readonly taps: BodyTap[] = [];
  private readonly gates: Array<() => void> = [];
  private gatesOpen = false;
  private sessionCounter = 0;
  private seq = 0;
  /** The frames of the request being handled, for the server's deliveries to find their seqs. */
  private handling: { readonly seq: number; readonly frame: JsonValue }[] = [];

  constructor(
    private readonly sdk: SdkAdapter,
    private readonly http: StreamableHttp,
    private readonly trace: TraceRecorder,
    private readonly log: string[],
    private readonly response: 'sse' | 'json',
    wrap: HttpRogueRunOptions['wrap'],
  ) {
    for (const name of ['A', 'B'] as const) this.sessions.set(name, this.build(name, wrap));
    trace.record({ kind: 'connect', conn: 1 });
    trace.record({ kind: 'connect', conn: 2, client: 1 });
  }

  readonly context: HttpRogueContext = {
    sessionId: (s) => this.session(s).id,
    headers: (s, overrides = {}) => {
      const h: Record<string, string> = {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-session-id': this.session(s).id,
        'mcp-protocol-version': HTTP_ROGUE_PROTOCOL_VERSION,
      };
      for (const [k, v] of Object.entries(overrides)) {
        if (v === null) delete h[k];
        else h[k] = v;
      }
      return h;
    },
    send: (label, s, init) => this.send(label, s, init),
    handler: (s, id) => this.handlers.find((h) => h.session === s && sameId(h.id, id)),
    note: (line) => this.note(line),
  };

  note(line: string): void {
    this.log.push(line);
  }

  private record(body: TraceEventBody): void {
    this.trace.record(body);
  }

  private build(name: SessionName, wrap: HttpRogueRunOptions['wrap']): Session {
    const conn = connOf(name);
    const server = this.sdk.createServer();
    const unwritten: Session['unwritten'][number][] = [];
    const transport = this.http.createSimServerTransport(
      { sessionIdGenerator: () => `session-${++this.sessionCounter}`, enableJsonResponse: this.response === 'json' },
      (message: JSONRPCMessage) => {
        const text = JSON.stringify(message);
        const seq = ++this.seq;
        this.record({ kind: 'send', from: 'server', conn, seq, frame: JSON.parse(text) as JsonValue });
        unwritten.push({ text, seq });
      },
    );
    // Set before the `Server` connects: the SDK chains it, so each message is recorded before it is handled.
    transport.onmessage = (message: JSONRPCMessage) => {
      const text = canonicalJson(message as unknown as JsonValue);
      const f = this.handling.find((x) => canonicalJson(x.frame) === text);
      this.record({ kind: 'deliver', to: 'server', conn, seq: f?.seq ?? ++this.seq, frame: f?.frame ?? (JSON.parse(JSON.stringify(message)) as JsonValue), burst: Math.max(1, this.handling.length) });
    };
    server.onerror = (error: Error) => {
      this.log.push(`onerror ${name}: ${error.message}`);
      this.record({ kind: 'onerror', side: 'server', message: error.message });
    };
    server.onclose = () => {
      this.log.push(`close ${name}`);
      this.record({ kind: 'close', side: 'server', conn });
    };
    this.sdk.handle(server, 'tools/call', async (request, { requestId, signal }) => {
      const tool = String(request.params?.name);
      const rec: HandlerRecord = { session: name, id: requestId, tool, aborted: false, ended: undefined };
      this.handlers.push(rec);
      this.log.push(`handler ${name} start id=${JSON.stringify(requestId)} ${tool}`);
      this.record({ kind: 'handler-start', side: 'server', conn, id: requestId, method: 'tools/call' });
      signal.addEventListener(
        'abort',
        () => {
          rec.aborted = true;
          this.log.push(`handler ${name} abort id=${JSON.stringify(requestId)}: ${String(signal.reason)}`);
          this.record({ kind: 'handler-abort', side: 'server', conn, id: requestId, reason: String(signal.reason) });
        },
        { once: true },
      );
      if (tool === GATE_TOOL && !this.gatesOpen) {
        try {
          await new Promise<void>((resolve, reject) => {
            if (signal.aborted) reject(signal.reason);
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
            this.gates.push(resolve);
          });
        } catch (error) {
          rec.ended = 'aborted';
          this.log.push(`handler ${name} end id=${JSON.stringify(requestId)} aborted`);
          this.record({ kind: 'handler-end', side: 'server', conn, id: requestId, outcome: 'aborted' });
          throw error;
        }
      }
      rec.ended = 'result';
      this.log.push(`handler ${name} end id=${JSON.stringify(requestId)} result`);
      this.record({ kind: 'handler-end', side: 'server', conn, id: requestId, outcome: 'result' });
      return this.sdk.result('tools/call');
    });
    const real: HttpHandle = (request) => transport.handleRequest(request);
    return { name, conn, server, transport, handle: wrap ? wrap(real, name) : real, id: '', unwritten };
  }

  private session(name: SessionName): Session {
    return this.sessions.get(name)!;
  }

  /** A correct client's handshake on `name`: initialize, read the session id, notifications/initialized. */
  async initialize(name: SessionName): Promise<void> {
    const s = this.session(name);
    await s.server.connect(s.transport);
    const init = await this.send(`initialize ${name}`, name, {
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: HTTP_ROGUE_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'mcp-sim-http-rogue', version: '0.0.0' } },
      }),
    });
    const id = this.lastSessionHeader;
    if (init.status !== 200 || !id) this.log.push(`initialize ${name} failed: status ${init.status ?? 'none'}`);
    s.id = id ?? '';
    await this.send(`initialized ${name}`, name, {
      headers: this.context.headers(name),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
  }

  private lastSessionHeader: string | undefined;

  async send(
    label: string,
    name: SessionName,
    init: { method?: string; headers: Record<string, string>; body?: string; probe?: boolean },
  ): Promise<HttpExchangeRecord> {
    const s = this.session(name);
    const method = init.method ?? 'POST';
    const record: HttpExchangeRecord = {
      n: this.exchanges.length + 1,
      label,
      session: name,
      method,
      probe: init.probe ?? false,
      settled: false,
      settledLate: false,
      bodyEnded: false,
      bodyText: '',
      frames: [],
    };
    this.exchanges.push(record);
    const headerText = Object.entries(init.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ');
    this.log.push(`#${record.n} →${name} ${method} ${label}${record.probe ? ' [probe]' : ''} {${headerText}} ${JSON.stringify(init.body ?? null)}`);
    this.trace.step++;
    this.record({ kind: 'action', action: `rogue client ${method} ${label} on session ${name}`, choice: 0, enabled: 1 });
    const { frames, rawBody } = bodyOf(init.body);
    const sent = frames.map((frame) => ({ seq: ++this.seq, frame }));
    const session = init.headers['mcp-session-id'];
    const head = { conn: s.conn, exchange: record.n, method, ...(session !== undefined && { session }), seqs: sent.map((f) => f.seq) };
    this.record({ kind: 'http-request', at: 'client', ...head, raw: true, headers: { ...init.headers }, ...(rawBody !== undefined && { body: rawBody }) });
    for (const f of sent) this.record({ kind: 'send', from: 'client', conn: s.conn, seq: f.seq, frame: f.frame });
    this.record({ kind: 'http-request', at: 'server', ...head });
    const request = new Request(HTTP_ROGUE_URL, {
      method,
      headers: init.headers,
      ...(init.body !== undefined && method !== 'GET' && method !== 'HEAD' && { body: init.body }),
    });
    let outcome: { response: Response } | { error: unknown } | undefined;
    let waiting = true;
    let promise: Promise<Response>;
    this.handling = sent;
    try {
      promise = s.handle(request);
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.then(
      (response) => {
        if (waiting) outcome = { response };
        else {
          record.settledLate = true;
          void this.onResponse(record, s, response);
        }
      },
      (error: unknown) => {
        record.threw = describeError(error);
        this.log.push(`#${record.n} handleRequest rejected: ${record.threw}`);
        this.record({ kind: 'onerror', side: 'server', message: `handleRequest threw: ${record.threw}` });
        if (waiting) outcome = { error };
      },
    );
    // Race against quiescence: a few real setImmediate turns, no virtual time passes.
    for (let i = 0; i < 3 && outcome === undefined; i++) await quiesce();
    waiting = false;
    if (outcome === undefined) {
      this.log.push(`#${record.n} ←${name} no answer by quiescence`);
      return record;
    }
    if ('response' in outcome) {
      record.settled = true;
      await this.onResponse(record, s, outcome.response);
    }
    return record;
  }

  /** Records a response head (both sides) and its body: a JSON body at once, an SSE stream as it is read. */
  private async onResponse(record: HttpExchangeRecord, s: Session, response: Response): Promise<void> {
    record.status = response.status;
    record.contentType = response.headers.get('content-type') ?? undefined;
    const session = response.headers.get('mcp-session-id') ?? undefined;
    this.lastSessionHeader = session;
    this.log.push(`#${record.n} ←${s.name} ${response.status}${record.settledLate ? ' (late)' : ''} ${record.contentType ?? '-'}`);
    const head = (seqs: number[], error?: string) => {
      const body = { conn: s.conn, exchange: record.n, status: response.status, ...(record.contentType !== undefined && { contentType: record.contentType }), ...(session !== undefined && { session }), seqs, ...(error !== undefined && { error }) };
      this.record({ kind: 'http-response', at: 'server', ...body });
      this.record({ kind: 'http-response', at: 'client', ...body });
    };
    if (record.contentType?.startsWith('text/event-stream') && response.body) {
      head([]);
      const tap = new BodyTap(response.body, record, this, s);
      this.taps.push(tap);
      await tap.drain();
      return;
    }
    record.bodyText = response.body ? await response.text() : '';
    record.bodyEnded = true;
    if (record.bodyText !== '') this.log.push(`#${record.n} body ${JSON.stringify(record.bodyText)}`);
    record.frames = bodyOf(record.bodyText).frames;
    if (!response.ok) return head([], record.bodyText.slice(0, 200) || undefined);
    const read = record.frames.map((frame) => ({ frame, seq: this.written(s, JSON.stringify(frame)) }));
    head(read.map((f) => f.seq));
    for (const f of read) this.record({ kind: 'deliver', to: 'client', conn: s.conn, seq: f.seq, frame: f.frame, burst: read.length });
  }

  /** The seq of the server's send whose text a body or stream carries (a fresh one for text no send made: a replay). */
  private written(s: Session, text: string): number {
    const k = s.unwritten.findIndex((u) => u.text === text);
    return k === -1 ? ++this.seq : s.unwritten.splice(k, 1)[0]!.seq;
  }

  /** One SSE event read on exchange `record`: the server's write and the client's read of it. */
  streamEvent(s: Session, record: HttpExchangeRecord, data: string | undefined, eventId: string | undefined): void {
    let frame: JsonValue | undefined;
    if (data !== undefined) {
      try {
        frame = JSON.parse(data) as JsonValue;
      } catch {
        frame = data;
      }
      record.frames.push(frame);
    }
    const seq = data === undefined ? undefined : this.written(s, data);
    const event = { conn: s.conn, exchange: record.n, ...(seq !== undefined && { seq }), ...(eventId !== undefined && { eventId }) };
    this.record({ kind: 'sse-event', at: 'server', ...event });
    this.record({ kind: 'sse-event', at: 'client', ...event });
    if (seq !== undefined && frame !== undefined) this.record({ kind: 'deliver', to: 'client', conn: s.conn, seq, frame, burst: 1 });
  }

  /** An SSE stream ended, seen from both ends. */
  streamEnds(s: Session, exchange: number): void {
    this.record({ kind: 'sse-end', at: 'server', conn: s.conn, exchange });
    this.record({ kind: 'sse-end', at: 'client', conn: s.conn, exchange });
  }

  openGates(): void {
    this.trace.step++;
    this.record({ kind: 'action', action: 'the gates open', choice: 0, enabled: 1 });
    this.gatesOpen = true;
    for (const open of this.gates.splice(0)) open();
  }

  /** Reads every open body as far as it goes, until nothing moves. */
  async drainAll(): Promise<void> {
    for (let round = 0; round < 4; round++) {
      await quiesce();
      for (const tap of [...this.taps]) await tap.drain();
    }
  }

  /** A `ping` on session A, after the attack: a usable session answers it. */
  async followUp(): Promise<void> {
    await this.send('ping', 'A', {
      headers: this.context.headers('A'),
      body: JSON.stringify({ jsonrpc: '2.0', id: HTTP_FOLLOW_UP_ID, method: 'ping' }),
    });
  }

  /** The exchanges still open at the end, as the simulator's end state lists them (nothing else of it is read). */
  endState(): EndState {
    const open: OpenExchange[] = this.exchanges
      .filter((x) => !x.bodyEnded && !x.threw)
      .map((x) => ({
        conn: connOf(x.session),
        exchange: x.n,
        method: x.method,
        requestIds: this.requestIdsOf(x.n),
        state: x.status === undefined ? 'at-server' : 'streaming',
      }));
    return { maps: { client: {}, server: {} }, timers: [], signals: [], transports: [], openCalls: [], openExchanges: open };
  }

  private requestIdsOf(exchange: number): WireId[] {
    const req = this.trace.events.find((e) => e.kind === 'http-request' && e.at === 'client' && e.exchange === exchange);
    if (!req || req.kind !== 'http-request') return [];
    const frames = this.trace.events.filter((e) => e.kind === 'send' && e.from === 'client' && req.seqs.includes(e.seq));
    return frames.flatMap((e) => (e.kind === 'send' && isRequestFrame(e.frame) && (typeof e.frame.id === 'string' || typeof e.frame.id === 'number') ? [e.frame.id] : []));
  }

  async close(): Promise<void> {
    for (const s of this.sessions.values()) await s.server.close().catch(() => {});
    await quiesce();
  }
}

/** A request or response body as frames (a JSON value, each element of an array), or as raw text when it is not JSON. */
function bodyOf(body: string | undefined): { readonly frames: JsonValue[]; readonly rawBody?: string } {
  if (body === undefined) return { frames: [] };
  try {
    const v = JSON.parse(body) as JsonValue;
    return { frames: Array.isArray(v) ? v : [v] };
  } catch {
    return { frames: [], rawBody: body };
  }
}

/** The params of a `tools/call` of `tool`, as a raw client writes them. */
export function toolParams(tool: string): JsonValue {
  return { name: tool, arguments: {} };
}

function sameId(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
