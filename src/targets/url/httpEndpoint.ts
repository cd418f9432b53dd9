import { connect } from 'node:net';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { DEFAULT_PROCESS_START_MS } from '../../options/defaults.ts';
import type { TraceRecorder } from '../../sim/trace.ts';
import type { JsonValue } from '../../util/json.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import { messageOf } from '../../util/errors.ts';
import { fillPort } from '../../real/freePort.ts';
import type { Inbox } from '../../real/Inbox.ts';
import { commandLabel, startProcess, type CommandSpec, type ProcessTargetOptions, type StartedProcess } from '../../real/startProcess.ts';
import { BadTargetError, type Endpoint, type OpenHow, type TargetConnection } from '../../real/connection.ts';
import { boundedSse, boundedText } from '../../real/boundedFrames.ts';
import { FrameBudget } from '../../real/FrameBudget.ts';
import { DEFAULT_WIRE_BOUNDS } from '../../real/wireBounds.ts';

/** A Streamable HTTP endpoint: already running (`url`), or started by mcp-sim (`start`, `{port}` filled in both). */
export interface UrlSpec {
  readonly url: string;
  /** A command that starts the server; stopped when the connection closes. */
  readonly start?: CommandSpec;
}

export interface HttpEndpointOptions extends ProcessTargetOptions {
  /** How long a started server has to listen on its port. @default DEFAULT_PROCESS_START_MS */
  readonly startMs?: number;
}

/** Resolves once something accepts a TCP connection on `host:port`, or throws after `ms`. */
async function listening(host: string, port: number, ms: number, gone: () => string | undefined): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ host, port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    const why = gone();
    if (why !== undefined) throw new BadTargetError('exited', `mcp-sim: --start: ${why} before listening on ${host}:${port}.`);
    if (Date.now() > deadline) throw new BadTargetError('start-timeout', `mcp-sim: --start: nothing listens on ${host}:${port} after ${ms} ms: check that the command binds the {port} it is given.`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts `start` and waits until it listens on the port `url` names ({port} filled in); a process that exits or never listens is a bad target. */
async function startListening(start: CommandSpec, url: string, recorder: Pick<TraceRecorder, 'record'>, inbox: Pick<Inbox, 'end' | 'endedBecause'>, options: HttpEndpointOptions): Promise<{ started: StartedProcess; url: string }> {
  const started = await startProcess(start, recorder, inbox, options);
  const filled = fillPort(url, started.port);
  const parsed = new URL(filled);
  try {
    await listening(parsed.hostname, Number(parsed.port || 80), options.startMs ?? DEFAULT_PROCESS_START_MS, () => inbox.endedBecause);
  } catch (error) {
    await started.kill();
    throw error;
  }
  return { started, url: filled };
}

/** One server process `--start` started for many sessions, and the sessions open on it (its stderr and exit are recorded into theirs). */
interface HubServer {
  readonly running: Promise<{ started: StartedProcess; url: string }>;
  readonly sessions: Set<{ readonly recorder: Pick<TraceRecorder, 'record'>; readonly inbox: Inbox }>;
}

/**
 * The one server `--start` starts for many sessions: started when the first session needs it
 * (again if it exited), its stderr and exit recorded into every session open on it, stopped by
 * `stop()`. Start-up is paid once; a session that must not share a process opens its own (`fresh`).
 * `renew()` starts the next session on a new server when the running one stopped answering new
 * sessions (calls that never end hold all its workers): the old one keeps the sessions open on it
 * and is stopped with the rest.
 */
class ServerHub {
  private current: HubServer | undefined;
  /** Servers renewed away from: they take no new session, and stop with the hub. */
  private readonly retired: HubServer[] = [];

  constructor(
    private readonly start: CommandSpec,
    private readonly url: string,
    private readonly options: HttpEndpointOptions,
  ) {}

  /** The server for one more session (started first when none runs): its URL, and whether this call started it. */
  async attach(recorder: Pick<TraceRecorder, 'record'>, inbox: Inbox): Promise<{ url: string; startedNow: boolean; process: StartedProcess; detach: () => void }> {
    let startedNow = false;
    if (this.current === undefined || (await this.current.running.catch(() => undefined))?.started.exited !== false) {
      startedNow = true;
      this.current = this.startServer();
    }
    const server = this.current;
    const session = { recorder, inbox };
    server.sessions.add(session);
    try {
      const { started, url } = await server.running;
      return { url, startedNow, process: started, detach: () => server.sessions.delete(session) };
    } catch (error) {
      server.sessions.delete(session);
      if (this.current === server) this.current = undefined;
      throw error;
    }
  }

  /** The next session gets a new server; false when none runs (nothing to renew). */
  renew(): boolean {
    if (this.current === undefined) return false;
    this.retired.push(this.current);
    this.current = undefined;
    return true;
  }

  /** SIGTERM to each server's group, the grace period, SIGKILL. */
  async stop(): Promise<void> {
    const servers = [...this.retired.splice(0), ...(this.current ? [this.current] : [])];
    this.current = undefined;
    await Promise.all(servers.map(async (server) => (await server.running.catch(() => undefined))?.started.kill()));
  }

  private startServer(): HubServer {
    const sessions: HubServer['sessions'] = new Set();
    let why: string | undefined;
    const fan = {
      record: (body: Parameters<TraceRecorder['record']>[0]) => {
        for (const s of sessions) s.recorder.record({ ...body } as typeof body);
      },
    };
    const ends = {
      end: (reason: string) => {
        why ??= reason;
        for (const s of sessions) s.inbox.end(reason);
      },
      get endedBecause() {
        return why;
      },
    };
    return { running: startListening(this.start, this.url, fan, ends, this.options), sessions };
  }
}

interface Exchange {
  readonly controller: AbortController;
  readonly ids: readonly (string | number)[];
  open: boolean;
}

/**
 * A Streamable HTTP server: a new session per connection (the server's `Mcp-Session-Id`, when it
 * gives one). With `start`, each connection gets a server process of its own, or (opened
 * `shared`) a session on the one server started for many (`release` stops it).
 */
export function httpEndpoint(spec: UrlSpec, options: HttpEndpointOptions = {}): Endpoint {
  const hub = spec.start ? new ServerHub(spec.start, spec.url, options) : undefined;
  return {
    kind: 'url',
    label: spec.start ? `${spec.url} (started by: ${commandLabel(spec.start)})` : spec.url,
    visibility: {
      sees: ['every POST, its status, headers and JSON body or SSE events, with their real times', 'when each response stream ends', ...(spec.start ? ['the started process\'s stderr and exit'] : [])],
      cannotSee: [
        'when the server read a request (only when the POST was sent)',
        'whether a handler started, saw the cancel or stopped its work (only what it wrote afterwards)',
        'frames the server sent on no stream the client holds (a stateless server has no GET stream)',
        'what the server\'s SDK dropped or added on its own (its policy shows only as frames)',
      ],
    },
    release: async () => hub?.stop(),
    ...(hub && { renew: () => hub.renew() }),
    async open(recorder: TraceRecorder, inbox: Inbox, how: OpenHow = {}): Promise<TargetConnection> {
      let url = spec.url;
      let started: StartedProcess | undefined;
      let attached: Awaited<ReturnType<ServerHub['attach']>> | undefined;
      if (hub && how.shared) ({ url } = attached = await hub.attach(recorder, inbox));
      else if (spec.start) ({ started, url } = await startListening(spec.start, spec.url, recorder, inbox, options));
      let session: string | undefined;
      let protocolVersion: string | undefined;
      let clientSeq = 0;
      let serverSeq = 0;
      let exchangeNo = 0;
      const exchanges = new Map<number, Exchange>();
      const headers = (): Record<string, string> => ({
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session !== undefined && { 'mcp-session-id': session }),
        ...(protocolVersion !== undefined && { 'mcp-protocol-version': protocolVersion }),
      });
      // Frames past the bound are not buffered, floods are counted (src/real/wireBounds.ts).
      const wire = options.wire ?? DEFAULT_WIRE_BOUNDS;
      const budget = new FrameBudget(wire, recorder, 'client', 0, undefined, (token) => inbox.flooded(token));
      /** Drops an exchange whose frame went past `--max-frame-bytes` (its `frame-too-large` is recorded). */
      const tooLarge = (exchange: number, controller: AbortController) => () => {
        const ex = exchanges.get(exchange);
        if (ex) ex.open = false;
        controller.abort();
        recorder.record({ kind: 'http-disconnect', at: 'client', conn: 0, exchange });
      };
      const deliver = (frame: JsonValue, exchange: number, sse: boolean, eventId?: string) => {
        if (!budget.admit(frame)) return undefined;
        const seq = serverSeq++;
        if (sse) recorder.record({ kind: 'sse-event', at: 'client', conn: 0, exchange, seq, ...(eventId && { eventId }) });
        recorder.record({ kind: 'deliver', to: 'client', conn: 0, seq, frame, burst: 1 });
        if (isJsonObject(frame) && isJsonObject(frame.result) && typeof frame.result.protocolVersion === 'string') protocolVersion = frame.result.protocolVersion;
        inbox.push(frame);
        return seq;
      };
      const parse = (text: string): JsonValue => {
        try {
          return JSON.parse(text) as JsonValue;
        } catch {
          return text;
        }
      };
      /** One POST of `frame`; `headed` is called when its response head arrived or it failed. */
      const post = async (frame: JsonValue, seq: number, headed: () => void) => {
        const exchange = exchangeNo++;
        const ids = isJsonObject(frame) && 'id' in frame && typeof frame.method === 'string' ? [frame.id as string | number] : [];
        const controller = new AbortController();
        const ex: Exchange = { controller, ids, open: true };
        exchanges.set(exchange, ex);
        recorder.record({ kind: 'http-request', at: 'client', conn: 0, exchange, method: 'POST', ...(session !== undefined && { session }), seqs: [seq] });
        try {
          const response = await fetch(url, { method: 'POST', headers: headers(), body: JSON.stringify(frame), signal: controller.signal }).finally(headed);
          const contentType = response.headers.get('content-type') ?? undefined;
          const sid = response.headers.get('mcp-session-id') ?? undefined;
          if (sid !== undefined) session = sid;
          if (contentType?.includes('text/event-stream') && response.body) {
            recorder.record({ kind: 'http-response', at: 'client', conn: 0, exchange, status: response.status, contentType, ...(sid && { session: sid }), seqs: [] });
            const events = response.body.pipeThrough(boundedSse(wire.maxFrameBytes, recorder, exchange, tooLarge(exchange, controller))).pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
            for await (const event of events) {
              if (event.data === '') {
                recorder.record({ kind: 'sse-event', at: 'client', conn: 0, exchange, ...(event.id && { eventId: event.id }) });
                continue;
              }
              deliver(parse(event.data), exchange, true, event.id);
            }
            ex.open = false;
            recorder.record({ kind: 'sse-end', at: 'client', conn: 0, exchange });
            return;
          }
          const text = await boundedText(response.body, wire.maxFrameBytes, recorder, exchange, tooLarge(exchange, controller));
          if (text === undefined) return;
          ex.open = false;
          if (response.status >= 400) {
            const body = parse(text);
            const seqs = isJsonObject(body) && ('result' in body || 'error' in body) && body.id !== null && body.id !== undefined ? [serverSeq] : [];
            recorder.record({ kind: 'http-response', at: 'client', conn: 0, exchange, status: response.status, ...(contentType && { contentType }), seqs, error: text.slice(0, 200) });
            if (seqs.length > 0) deliver(body, exchange, false);
            // No session without an answer to initialize: the handshake says so at once, not after its wait.
            else if (isJsonObject(frame) && frame.method === 'initialize') inbox.end(`the server answered the POST of initialize with HTTP ${response.status}${text.trim() ? ` (${JSON.stringify(text.trim().slice(0, 80))})` : ''}`);
            return;
          }
          const body = text.trim() === '' ? undefined : parse(text);
          const frames = body === undefined ? [] : Array.isArray(body) ? body : [body];
          recorder.record({ kind: 'http-response', at: 'client', conn: 0, exchange, status: response.status, ...(contentType && { contentType }), ...(sid && { session: sid }), seqs: frames.map((_, k) => serverSeq + k) });
          for (const f of frames) deliver(f, exchange, false);
        } catch (error) {
          ex.open = false;
          if (controller.signal.aborted) return;
          const cause = (error as { cause?: { code?: string; message?: string } }).cause;
          const detail = cause?.code ?? cause?.message ?? messageOf(error);
          recorder.record({ kind: 'send-failed', from: 'client', conn: 0, frame, error: detail });
          // No response at all: the endpoint is gone (or was never there); nothing more will come.
          inbox.end(`${url} refused the connection or cannot be reached (${detail})`);
        }
      };
      /** The standalone GET stream, where a server sends what belongs to no open POST: opened once the session is initialized. */
      const listen = async () => {
        const exchange = exchangeNo++;
        const controller = new AbortController();
        exchanges.set(exchange, { controller, ids: [], open: true });
        recorder.record({ kind: 'http-request', at: 'client', conn: 0, exchange, method: 'GET', ...(session !== undefined && { session }), seqs: [] });
        try {
          const { 'content-type': _c, ...rest } = headers();
          const response = await fetch(url, { method: 'GET', headers: { ...rest, accept: 'text/event-stream' }, signal: controller.signal });
          const contentType = response.headers.get('content-type') ?? undefined;
          recorder.record({ kind: 'http-response', at: 'client', conn: 0, exchange, status: response.status, ...(contentType && { contentType }), seqs: [] });
          if (!response.ok || !contentType?.includes('text/event-stream') || !response.body) {
            await response.arrayBuffer().catch(() => undefined);
            exchanges.get(exchange)!.open = false;
            return;
          }
          for await (const event of response.body.pipeThrough(boundedSse(wire.maxFrameBytes, recorder, exchange, tooLarge(exchange, controller))).pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream())) {
            if (event.data !== '') deliver(parse(event.data), exchange, true, event.id);
          }
          exchanges.get(exchange)!.open = false;
          recorder.record({ kind: 'sse-end', at: 'client', conn: 0, exchange });
        } catch {
          exchanges.get(exchange)!.open = false;
        }
      };
      /**
       * A session check of the client's own, outside the case (`raw`: its answer is no frame of
       * the run): a `ping` POSTed with `sid` as its session id, or with none. Only the status is
       * judged (`http.session-required-400`, `http.session-deleted-404`); the body is not read past
       * its head, bounded by the grace period.
       */
      const probe = async (sid: string | undefined, id: string) => {
        const exchange = exchangeNo++;
        recorder.record({ kind: 'http-request', at: 'client', conn: 0, exchange, method: 'POST', ...(sid !== undefined && { session: sid }), seqs: [], raw: true });
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), options.graceMs ?? 2_000);
        try {
          const { 'mcp-session-id': _s, ...rest } = headers();
          const response = await fetch(url, { method: 'POST', headers: { ...rest, ...(sid !== undefined && { 'mcp-session-id': sid }) }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }), signal: controller.signal });
          const contentType = response.headers.get('content-type') ?? undefined;
          const given = response.headers.get('mcp-session-id') ?? undefined;
          recorder.record({ kind: 'http-response', at: 'client', conn: 0, exchange, status: response.status, ...(contentType && { contentType }), ...(given && { session: given }), seqs: [] });
          await response.body?.cancel().catch(() => undefined);
        } catch (error) {
          recorder.record({ kind: 'send-failed', from: 'client', conn: 0, frame: { http: 'POST', probe: id }, error: messageOf(error) });
        } finally {
          clearTimeout(timer);
        }
      };
      return {
        send(frame) {
          const seq = clientSeq++;
          recorder.record({ kind: 'send', from: 'client', conn: 0, seq, frame });
          const headed = new Promise<void>((resolve) => void post(frame, seq, resolve));
          if (isJsonObject(frame) && frame.method === 'notifications/initialized' && session !== undefined) void listen();
          return headed;
        },
        drop(id) {
          for (const [exchange, ex] of exchanges) {
            if (ex.open && ex.ids.includes(id)) {
              ex.open = false;
              ex.controller.abort();
              recorder.record({ kind: 'http-disconnect', at: 'client', conn: 0, exchange });
              return true;
            }
          }
          return false;
        },
        openExchanges: (ids) => [...exchanges.values()].filter((ex) => ex.open && ex.ids.length > 0 && (ids === undefined || ex.ids.some((id) => ids.has(id)))).length,
        async close() {
          if (session !== undefined) {
            // A stateful server: a request without the session id, then the DELETE, then one with the deleted id.
            const reachable = inbox.endedBecause === undefined;
            if (reachable) await probe(undefined, 'mcp-sim-no-session');
            const exchange = exchangeNo++;
            recorder.record({ kind: 'http-request', at: 'client', conn: 0, exchange, method: 'DELETE', session, seqs: [] });
            try {
              const response = await fetch(url, { method: 'DELETE', headers: headers(), signal: AbortSignal.timeout(options.graceMs ?? 2_000) });
              await response.arrayBuffer().catch(() => undefined);
              recorder.record({ kind: 'http-response', at: 'client', conn: 0, exchange, status: response.status, seqs: [] });
              if (reachable && response.ok) await probe(session, 'mcp-sim-deleted-session');
            } catch (error) {
              recorder.record({ kind: 'send-failed', from: 'client', conn: 0, frame: { http: 'DELETE' }, error: messageOf(error) });
            }
          }
          for (const [exchange, ex] of exchanges) {
            if (!ex.open) continue;
            ex.open = false;
            ex.controller.abort();
            recorder.record({ kind: 'http-disconnect', at: 'client', conn: 0, exchange });
          }
          await started?.kill();
          attached?.detach();
        },
        get exited() {
          return (started ?? attached?.process)?.exited ?? false;
        },
        startedProcess: started !== undefined || attached?.startedNow === true,
      };
    },
  };
}

/** A `--url` that is not a Streamable HTTP endpoint's URL: one line, exit 2. `{port}` needs `start` (no process to give it a port otherwise). */
export function checkUrl(url: string, started = false): void {
  if (url.includes('{port}') && !started) throw new BadTargetError('bad-option', `mcp-sim: --url ${url} has {port} but no --start: {port} is the free port given to a server mcp-sim starts; give the running server's port instead.`);
  let parsed: URL;
  try {
    parsed = new URL(url.replaceAll('{port}', '1'));
  } catch {
    throw new BadTargetError('bad-option', `mcp-sim: --url ${JSON.stringify(url)} is not a URL: give http://127.0.0.1:PORT/mcp.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new BadTargetError('bad-option', `mcp-sim: --url ${url}: only http(s) URLs are Streamable HTTP endpoints.`);
}
