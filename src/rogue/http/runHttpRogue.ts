import { createHash } from 'node:crypto';
import { defaultSdk } from '../../sdk/load.ts';
import type { Endpoint, HttpServerTransport, SdkAdapter, StreamableHttp } from '../../sdk/SdkAdapter.ts';
import { DEFAULT_SEED } from '../../sim/defaults.ts';
import { splitSse } from '../../sim/http/sse.ts';
import type { JsonValue } from '../../util/json.ts';
import { quiesce } from '../../sim/realGlobals.ts';
import type { WireId } from '../../sim/trace.ts';
import { withSandbox } from '../../sim/withSandbox.ts';
import { describeError } from '../../util/errors.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';

/** `handleRequest` as a function: what a broken fixture wraps. */
export type HttpHandle = (request: Request) => Promise<Response>;

/** The two sessions of a rogue HTTP run: `A` is attacked, `B` is a second, independent client's session. */
export type SessionName = 'A' | 'B';

/** The rogue's spec revision (`initialize` and the `MCP-Protocol-Version` header). */
export const HTTP_ROGUE_PROTOCOL_VERSION = '2025-11-25';
export const HTTP_ROGUE_URL = 'http://localhost/mcp';
/** Id of the follow-up `tools/call` on session A. */
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

/** One HTTP exchange as the rogue saw it. */
export interface HttpExchangeRecord {
  readonly n: number;
  readonly label: string;
  readonly session: SessionName;
  readonly method: string;
  /** A request a correct client never sends (judged), as opposed to the run's own correct traffic. */
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

export type HttpFollowUp = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export interface HttpRogueRunResult {
  readonly log: readonly string[];
  readonly hash: string;
  readonly exchanges: readonly HttpExchangeRecord[];
  readonly handlers: readonly HandlerRecord[];
  readonly escapes: readonly string[];
  readonly followUp: HttpFollowUp;
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

/**
 * Runs one rogue HTTP attack against the real `WebStandardStreamableHTTPServerTransport` in
 * stateful mode: two sessions (`A`, `B`), each its own transport and `Server`, initialized by a
 * correct raw client; then `attack`; then the gates open; then a normal `tools/call` on A (the
 * follow-up). Runs in a `RunSandbox` (virtual time, seeded `randomUUID`, captured escapes) in a
 * fixed order, so the log and hash are a pure function of (attack, options, SDK build).
 */
export async function runHttpRogue(attack: HttpAttack, options: HttpRogueRunOptions = {}): Promise<HttpRogueRunResult> {
  const response = options.response ?? 'sse';
  const sdk = options.sdk ?? (await defaultSdk());
  const http = sdk.http ?? noHttp(sdk);
  const log: string[] = [];
  const escapes: string[] = [];
  let followUp: HttpFollowUp = { ok: false, reason: 'not reached' };
  const run = await withSandbox(
    options.seed ?? DEFAULT_SEED,
    (source, error) => {
      const text = `${source}: ${describeError(error)}`;
      escapes.push(text);
      log.push(`escape ${text}`);
    },
    async () => {
      const run = new HttpRogueRun(sdk, http, log, response, options.wrap);
      await run.initialize('A');
      await run.initialize('B');
      log.push('-- attack');
      await attack(run.context);
      await run.drainAll();
      log.push('-- gates open');
      run.openGates();
      await run.drainAll();
      log.push('-- follow-up');
      followUp = await run.followUp();
      await run.drainAll();
      await run.close();
      return run;
    },
  );
  const hash = createHash('sha256').update(JSON.stringify(log)).digest('hex').slice(0, 16);
  return { log, hash, exchanges: run.exchanges, handlers: run.handlers, escapes, followUp, response };
}

function noHttp(sdk: SdkAdapter): never {
  throw new Error(`runHttpRogue: ${sdk.name}@${sdk.version} has no Streamable HTTP transports.`);
}

interface Session {
  readonly name: SessionName;
  readonly server: Endpoint;
  readonly transport: HttpServerTransport;
  readonly handle: HttpHandle;
  id: string;
}

/** One open response body, read as far as it goes without waiting past quiescence. */
class BodyTap {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  private readonly decoder = new TextDecoder();

  constructor(
    body: ReadableStream<Uint8Array>,
    private readonly record: HttpExchangeRecord,
    private readonly log: string[],
  ) {
    this.reader = body.getReader();
  }

  async drain(): Promise<void> {
    const r = this.record;
    while (!r.bodyEnded) {
      this.pending ??= this.reader.read().catch((error: unknown) => {
        this.log.push(`#${r.n} body error: ${describeError(error)}`);
        return { done: true, value: undefined } as ReadableStreamReadResult<Uint8Array>;
      });
      const next = await Promise.race([this.pending, quiesce().then(() => undefined)]);
      if (!next) return;
      this.pending = undefined;
      if (next.done) {
        r.bodyEnded = true;
        this.log.push(`#${r.n} body end`);
        r.frames = parseFrames(r.bodyText, r.contentType);
      } else {
        const chunk = this.decoder.decode(next.value, { stream: true });
        r.bodyText += chunk;
        this.log.push(`#${r.n} body ${JSON.stringify(chunk)}`);
        r.frames = parseFrames(r.bodyText, r.contentType);
      }
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

  constructor(
    private readonly sdk: SdkAdapter,
    private readonly http: StreamableHttp,
    private readonly log: string[],
    private readonly response: 'sse' | 'json',
    wrap: HttpRogueRunOptions['wrap'],
  ) {
    for (const name of ['A', 'B'] as const) this.sessions.set(name, this.build(name, wrap));
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
    note: (line) => this.log.push(line),
  };

  private build(name: SessionName, wrap: HttpRogueRunOptions['wrap']): Session {
    const server = this.sdk.createServer();
    const transport = this.http.createServerTransport({
      sessionIdGenerator: () => `session-${++this.sessionCounter}`,
      enableJsonResponse: this.response === 'json',
    });
    server.onerror = (error: Error) => this.log.push(`onerror ${name}: ${error.message}`);
    server.onclose = () => this.log.push(`close ${name}`);
    this.sdk.handle(server, 'tools/call', async (request, { requestId, signal }) => {
      const tool = String(request.params?.name);
      const rec: HandlerRecord = { session: name, id: requestId, tool, aborted: false, ended: undefined };
      this.handlers.push(rec);
      this.log.push(`handler ${name} start id=${JSON.stringify(requestId)} ${tool}`);
      signal.addEventListener(
        'abort',
        () => {
          rec.aborted = true;
          this.log.push(`handler ${name} abort id=${JSON.stringify(requestId)}: ${String(signal.reason)}`);
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
          throw error;
        }
      }
      rec.ended = 'result';
      this.log.push(`handler ${name} end id=${JSON.stringify(requestId)} result`);
      return this.sdk.result('tools/call');
    });
    const real: HttpHandle = (request) => transport.handleRequest(request);
    return { name, server, transport, handle: wrap ? wrap(real, name) : real, id: '' };
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
    const request = new Request(HTTP_ROGUE_URL, {
      method,
      headers: init.headers,
      ...(init.body !== undefined && method !== 'GET' && method !== 'HEAD' && { body: init.body }),
    });
    let outcome: { response: Response } | { error: unknown } | undefined;
    let waiting = true;
    const onResponse = (response: Response): BodyTap | undefined => {
      record.status = response.status;
      record.contentType = response.headers.get('content-type') ?? undefined;
      this.lastSessionHeader = response.headers.get('mcp-session-id') ?? undefined;
      this.log.push(`#${record.n} ←${name} ${response.status}${record.settled ? '' : ' (late)'} ${record.contentType ?? '-'}`);
      if (response.body) {
        const tap = new BodyTap(response.body, record, this.log);
        this.taps.push(tap);
        return tap;
      }
      record.bodyEnded = true;
      return undefined;
    };
    let promise: Promise<Response>;
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
          onResponse(response);
        }
      },
      (error: unknown) => {
        record.threw = describeError(error);
        this.log.push(`#${record.n} handleRequest rejected: ${record.threw}`);
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
      const tap = onResponse(outcome.response);
      await tap?.drain();
    }
    return record;
  }

  openGates(): void {
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

  async followUp(): Promise<HttpFollowUp> {
    const r = await this.send('follow-up tools/call', 'A', {
      headers: this.context.headers('A'),
      body: JSON.stringify({ jsonrpc: '2.0', id: HTTP_FOLLOW_UP_ID, method: 'tools/call', params: toolParams(ECHO_TOOL) }),
    });
    await this.drainAll();
    if (r.threw) return { ok: false, reason: `handleRequest rejected the follow-up: ${r.threw}` };
    if (!r.settled) return { ok: false, reason: 'the follow-up POST got no answer by quiescence' };
    if (r.status !== 200) return { ok: false, reason: `the follow-up POST got HTTP ${r.status}: ${short(r.bodyText)}` };
    const answer = r.frames.find((f) => isJsonObject(f) && f.id === HTTP_FOLLOW_UP_ID);
    if (!isJsonObject(answer)) return { ok: false, reason: `the follow-up POST got 200 but no response for its id${r.bodyEnded ? '' : ' (the body is still open)'}` };
    if (!('result' in answer)) return { ok: false, reason: `the follow-up got an error: ${JSON.stringify(answer.error)}` };
    return { ok: true };
  }

  async close(): Promise<void> {
    for (const s of this.sessions.values()) await s.server.close().catch(() => {});
    await quiesce();
  }
}

function parseFrames(text: string, contentType: string | undefined): JsonValue[] {
  const parse = (t: string): JsonValue[] => {
    try {
      const v = JSON.parse(t) as JsonValue;
      return Array.isArray(v) ? v : [v];
    } catch {
      return [];
    }
  };
  if (contentType?.includes('text/event-stream')) {
    return splitSse(text).blocks.flatMap((b) => (b.data !== undefined ? parse(b.data) : []));
  }
  return text.trim() === '' ? [] : parse(text);
}

/** The params of a `tools/call` of `tool`, as a raw client writes them. */
export function toolParams(tool: string): JsonValue {
  return { name: tool, arguments: {} };
}

function sameId(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function short(s: string, n = 120): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
