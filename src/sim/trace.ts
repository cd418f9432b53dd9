import { createHash } from 'node:crypto';
import type { JsonValue } from '../util/json.ts';
import type { HandlerStep, RequestMethod, Side } from './scenario.ts';
import { summarizeFrame } from '../util/jsonrpc.ts';

/** A JSON-RPC id as it appears on the wire (the SDK uses integers; rogue peers may not). */
export type WireId = string | number;

/**
 * What happened during a run, in order. Parts record, checkers read: the oracle judges a run
 * from these events alone (plus the quiescence probe).
 */
export type TraceEventBody =
  /** The scheduler's choice at a step, by meaning (`deliver client→server #3`). */
  | { kind: 'action'; action: string; choice: number; enabled: number }
  /**
   * `stream`: the exchange a server frame of a black-box Streamable HTTP run was read on (the
   * model's view of a one-sided run, `src/model/observedTrace.ts`): the read order of two streams
   * is not the order the server wrote them. Absent in simulated traces.
   */
  | { kind: 'send'; from: Side; conn: number; seq: number; frame: JsonValue; stream?: number }
  | { kind: 'send-failed'; from: Side; conn: number; frame: JsonValue; error: string }
  | { kind: 'deliver'; to: Side; conn: number; seq: number; frame: JsonValue; burst: number }
  /** A frame that was in flight when its receiver closed. */
  | { kind: 'drop'; to: Side; conn: number; seq: number; frame: JsonValue }
  /** The peer's close reaching this side (end of stream). */
  | { kind: 'eof'; to: Side; conn: number }
  | { kind: 'timer'; id: number; label: string }
  /**
   * A new connection; `client` names its client when the scenario has several (absent for client
   * 0); `fresh` when a new SDK `Client` makes it (its request ids start again from 0).
   */
  | { kind: 'connect'; conn: number; client?: number; fresh?: boolean }
  /** The client's `connect()` settled: handshake done (or failed, with `error`). */
  | { kind: 'ready'; conn: number; error?: string }
  | {
      kind: 'call-start';
      call: string;
      from: Side;
      conn: number;
      method: RequestMethod;
      /** The id the SDK gave the request (read before sending), when the probe can tell. */
      id: WireId | undefined;
      options: JsonValue;
    }
  /** `givenUp`: a black-box client gave the call up itself (its cancel, its timeout, its close), not the peer's answer. */
  | { kind: 'call-settle'; call: string; from: Side; outcome: 'resolved' | 'rejected'; code?: number | string; message?: string; givenUp?: 'cancel' | 'timeout' | 'close' }
  | { kind: 'onprogress'; call: string; progress: number; total?: number }
  | { kind: 'abort-signal'; signal: string }
  /** A handler starts; `hosted`: the user's own (`mcp-sim fuzz`), not a scripted one. */
  | { kind: 'handler-start'; side: Side; conn: number; id: WireId; method: string; call?: string; hosted?: true }
  | { kind: 'handler-step'; side: Side; conn: number; id: WireId; index: number; op: HandlerStep }
  | { kind: 'handler-abort'; side: Side; conn: number; id: WireId; reason: string }
  /**
   * The user's own tool callback starts inside the SDK's `tools/call` handler (hosted high-level
   * servers only: an `McpServer` checks the input, asynchronously, before it calls the tool).
   * `aborted`: the signal had aborted before the callback started, so the tool never ran under it.
   */
  | { kind: 'tool-start'; side: Side; conn: number; id: WireId; aborted: boolean }
  /**
   * The user's own tool callback settled (hosted servers only): it `returned` a result (`isError`
   * when the result says so) or `threw`. On an `McpServer` this is the callback itself, before
   * the SDK turns a throw into an `isError` result; on a low-level `Server` the handler is the
   * callback. What the author wrote is judged from this, not from the response.
   */
  | { kind: 'tool-end'; side: Side; conn: number; id: WireId; outcome: 'returned' | 'threw'; isError?: true }
  /**
   * An abort reached the user's callback (hosted servers only; the first way, once per request):
   * a signal-aware call it made rejected with the abort (`fetch`, a `timers/promises` sleep),
   * `throwIfAborted()` threw, or an abort listener it registered ran (`src/sim/hosted/abortReach.ts`).
   * A callback that returns after this swallowed the abort.
   */
  | { kind: 'abort-reached'; side: Side; conn: number; id: WireId; via: AbortReach }
  | {
      kind: 'handler-end';
      side: Side;
      conn: number;
      id: WireId;
      outcome: 'result' | 'error' | 'aborted' | 'swallowed';
    }
  /**
   * A user's handler called `fetch` (hosted servers only): the virtual network answers it. `id`
   * is the request whose handler made the call, when the harness can tell; `signal` whether it
   * passed an `AbortSignal`; `afterAbort` whether that handler's own signal had already aborted.
   */
  | {
      kind: 'fetch';
      side: Side;
      conn: number;
      id?: WireId;
      n: number;
      url: string;
      signal: boolean;
      afterAbort: boolean;
      /** Its signal had aborted already: the call fails at once and does no work. */
      stillborn?: boolean;
    }
  /** A hosted handler set a timer (`setTimeout`, `setInterval`, a `timers/promises` sleep): work it schedules. */
  | { kind: 'handler-timer'; side: Side; conn: number; id: WireId; ms: number; label: string }
  /**
   * Code of a handler of an earlier run ran during this one (a promise that run left pending,
   * settled now through module-level state) and set a timer or called `fetch`: the run is not
   * isolated from the one before it. `fuzz` reports the server as stateful.
   */
  | { kind: 'leftover-work'; side: Side; what: 'setTimeout' | 'setInterval' | 'fetch'; label: string }
  /** A virtual `fetch` settled: answered with `status`, or rejected because its signal aborted. */
  | { kind: 'fetch-end'; n: number; outcome: 'response' | 'aborted'; status?: number }
  /**
   * A user's code tried real I/O (a process, a socket, a file write, stdout) during a run: the
   * harness stopped it (the call threw, or a stdout write was dropped), so runs stay offline.
   */
  | { kind: 'io-blocked'; side: Side; conn?: number; id?: WireId; what: string }
  /** The SDK's `onerror` callback on one side. */
  | { kind: 'onerror'; side: Side; message: string }
  /** One side observed its connection closing (the SDK's `onclose`). */
  | { kind: 'close'; side: Side; conn: number }
  /**
   * Streamable HTTP (http profile). `exchange` numbers one HTTP request/response pair; `at` is
   * the side that observed the event: a request is sent at the client and received at the
   * server, a response head, SSE event or stream end the other way round. The JSON-RPC frames
   * they carry are also recorded as `send` / `deliver` events, with the seqs listed here.
   */
  | {
      kind: 'http-request';
      at: Side;
      conn: number;
      exchange: number;
      method: string;
      session?: string;
      lastEventId?: string;
      seqs: number[];
      /** A caller's raw POST (`http-post`), not the SDK client's: its response never reaches the SDK. */
      raw?: boolean;
      /**
       * The request's headers as written (lower-case names), when its writer records them: a
       * rogue HTTP client's requests, which `http.rejects-bad-input` judges. Absent otherwise.
       */
      headers?: Record<string, string>;
      /** A body that carries no frames (not JSON, or empty), as written: recorded with `headers`. */
      body?: string;
    }
  | {
      kind: 'http-response';
      at: Side;
      conn: number;
      exchange: number;
      status: number;
      contentType?: string;
      session?: string;
      /** Frames of a JSON body; an HTTP error body is summarized in `error` instead. */
      seqs: number[];
      error?: string;
    }
  /** One SSE event; `seq` is its frame's (none for a priming event or keep-alive comment). */
  | {
      kind: 'sse-event';
      at: Side;
      conn: number;
      exchange: number;
      seq?: number;
      eventId?: string;
      /** Written by an event-store replay, not by a send of the SDK. */
      replay?: boolean;
      comment?: boolean;
    }
  | { kind: 'sse-end'; at: Side; conn: number; exchange: number }
  /** The client dropped the exchange (`at: 'client'`), or the server learnt that it did. */
  | { kind: 'http-disconnect'; at: Side; conn: number; exchange: number }
  /**
   * The harness could not drive `part` of the scenario as scripted on this SDK release (a method
   * or call option it lacks, a request it cannot route to its handler): `harness.as-scripted`.
   */
  | { kind: 'unscripted'; side: Side; part: string; why: string }
  /** Something escaped the system under test: `harness.unhandled`. */
  | { kind: 'escape'; source: 'unhandledRejection' | 'uncaughtException' | 'action'; error: string }
  /**
   * A process target (black box, real time): a chunk of what the server wrote on stderr, kept
   * for the author (a stack trace there is part of `lifecycle.stdio-exit`).
   */
  | { kind: 'stderr'; text: string }
  /**
   * A black-box run: a frame the server wrote that was larger than the most mcp-sim reads of one
   * (`--max-frame-bytes`, `bound`): never buffered whole. `head`: its first bytes as text;
   * `bytes`: how many of it were read (kept current while the rest is thrown away); `whole`: its
   * end was read (a stdio line's newline; the rest of the line is dropped, the lines after it
   * read). Over HTTP, `droppedExchange`: the stream that carried it, dropped by the client at the
   * bound (its `http-disconnect` follows).
   */
  | { kind: 'frame-too-large'; to: Side; conn: number; bytes: number; bound: number; head: string; whole: boolean; droppedExchange?: number }
  /**
   * A black-box run: frames of one stream of a side's messages (`stream`: one call's progress by
   * its `token`, one `method`'s other messages, one request's answers) past what mcp-sim records
   * of it: `past` says which bound (`count`: `--max-notifications` recorded in all; `rate`:
   * `--max-notification-rate` a second, sustained), `bound` its value, `recorded` how many of the
   * stream were recorded before. Recorded once, at the first
   * frame past it, then kept current: `count` frames over `spanMs` from this event's time, none
   * recorded one by one (nor passed to the run's client), so a flood costs one event.
   */
  | { kind: 'frames-counted'; to: Side; conn: number; stream: string; method: string; token?: JsonValue; past: 'count' | 'rate'; bound: number; recorded: number; count: number; spanMs: number }
  /**
   * A process target exited: its code or signal, and what made it (it exited by itself after
   * stdin EOF or before it, or the harness sent SIGTERM or SIGKILL to its group after a grace).
   */
  | { kind: 'exit'; code: number | null; signal: string | null; after: 'eof' | 'before-eof' | 'sigterm' | 'sigkill' }
  /** The run ended: quiescent, or a budget ran out (a liveness failure). */
  | { kind: 'end'; outcome: RunOutcome['kind'] };

/** How an abort reached a hosted tool callback (`abort-reached`). */
export type AbortReach = 'fetch' | 'sleep' | 'throwIfAborted' | 'listener';

/** Every event carries where and when it happened. */
export type TraceEvent = TraceEventBody & {
  /** Position in the trace. */
  readonly i: number;
  /** Scheduler step that caused it (0 = setup, before the first choice). */
  readonly step: number;
  /** Virtual time in ms. */
  readonly t: number;
};

export type RunOutcome =
  | { kind: 'quiescent' }
  /** A real-time run ended because its wait bound (`--hang-after`) ran out. */
  | { kind: 'real-time-bound'; realMs: number }
  | { kind: 'step-budget'; steps: number }
  | { kind: 'time-budget'; virtualMs: number };

/** Appends events, stamping each with its index, the current step and virtual time. */
export class TraceRecorder {
  readonly events: TraceEvent[] = [];
  step = 0;
  private stopped = false;

  constructor(private readonly now: () => number) {}

  /** Ends the trace: what teardown does afterwards is not part of the run. */
  stop(): void {
    this.stopped = true;
  }

  /** @param t virtual time to stamp, when the event happens at another time than now (a timer firing). */
  record(body: TraceEventBody, t = this.now()): void {
    if (this.stopped) return;
    // Bodies are fresh literals built by the recording part; stamping in place saves a copy per event.
    this.events.push(Object.assign(body, { i: this.events.length, step: this.step, t }) as TraceEvent);
  }
}

/**
 * The trace's identity: SHA-256 of its JSON. Every event and frame is built in a fixed key order
 * by deterministic code, so plain JSON is already canonical for one build; `canonicalJson` (sorted
 * keys, several times slower) is for traces that were stored and read back.
 */
export function traceHash(events: readonly TraceEvent[]): string {
  return createHash('sha256').update(JSON.stringify(events)).digest('hex').slice(0, 16);
}

/** One line per event, for people: `#12 s3 t=1000 deliver client→server tools/call id=1`. */
export function formatTrace(events: readonly TraceEvent[]): string {
  return events.map(formatEvent).join('\n');
}

const arrow = (from: Side) => (from === 'client' ? 'client→server' : 'server→client');

export function formatEvent(e: TraceEvent): string {
  const head = `#${e.i} s${e.step} t=${e.t}`;
  switch (e.kind) {
    case 'action':
      return `${head} ▶ ${e.action}`;
    case 'send':
      return `${head}   send ${arrow(e.from)} [${e.seq}] ${summarizeFrame(e.frame)}`;
    case 'send-failed':
      return `${head}   send failed ${arrow(e.from)} ${summarizeFrame(e.frame)}: ${e.error}`;
    case 'deliver':
      return `${head}   deliver ${arrow(e.to === 'server' ? 'client' : 'server')} [${e.seq}]${e.burst > 1 ? ` (burst of ${e.burst})` : ''} ${summarizeFrame(e.frame)}`;
    case 'drop':
      return `${head}   drop →${e.to} [${e.seq}] ${summarizeFrame(e.frame)}`;
    case 'eof':
      return `${head}   eof →${e.to} conn ${e.conn}`;
    case 'timer':
      return `${head}   timer ${e.label} (#${e.id})`;
    case 'connect':
      return `${head}   connect conn ${e.conn}${e.client ? ` (client ${e.client})` : ''}${e.fresh ? ' (fresh client)' : ''}`;
    case 'ready':
      return `${head}   ready conn ${e.conn}${e.error ? ` failed: ${e.error}` : ''}`;
    case 'call-start':
      return `${head}   call ${e.call} ${e.from} ${e.method} id=${e.id ?? '?'} ${JSON.stringify(e.options)}`;
    case 'call-settle':
      return `${head}   call ${e.call} ${e.outcome}${e.code !== undefined ? ` code=${e.code}` : ''}${e.message ? ` "${e.message}"` : ''}`;
    case 'onprogress':
      return `${head}   onprogress ${e.call} progress=${e.progress}${e.total !== undefined ? `/${e.total}` : ''}`;
    case 'abort-signal':
      return `${head}   abort signal ${e.signal}`;
    case 'handler-start':
      return `${head}   handler start ${e.side} ${e.method} id=${e.id}${e.call ? ` (${e.call})` : ''}`;
    case 'handler-step':
      return `${head}   handler step ${e.side} id=${e.id} #${e.index} ${JSON.stringify(e.op)}`;
    case 'handler-abort':
      return `${head}   handler aborted ${e.side} id=${e.id} reason=${e.reason}`;
    case 'tool-start':
      return `${head}   tool start ${e.side} id=${e.id}${e.aborted ? ' (signal aborted before it)' : ''}`;
    case 'tool-end':
      return `${head}   tool end ${e.side} id=${e.id} ${e.outcome}${e.isError ? ' (isError result)' : ''}`;
    case 'abort-reached':
      return `${head}   abort reached tool ${e.side} id=${e.id} via ${e.via}`;
    case 'handler-end':
      return `${head}   handler end ${e.side} id=${e.id} ${e.outcome}`;
    case 'fetch':
      return `${head}   fetch #${e.n} ${e.side}${e.id !== undefined ? ` id=${e.id}` : ''} ${e.url}${e.signal ? ' (with signal)' : ' (no signal)'}${e.afterAbort ? ' AFTER ABORT' : ''}`;
    case 'handler-timer':
      return `${head}   handler timer ${e.side} id=${e.id} ${e.label} ${e.ms} ms`;
    case 'leftover-work':
      return `${head}   LEFTOVER ${e.side} ${e.what} ${e.label} (a handler of an earlier run)`;
    case 'fetch-end':
      return `${head}   fetch #${e.n} ${e.outcome}${e.status !== undefined ? ` ${e.status}` : ''}`;
    case 'io-blocked':
      return `${head}   BLOCKED ${e.side}${e.id !== undefined ? ` id=${e.id}` : ''}: ${e.what}`;
    case 'onerror':
      return `${head}   onerror ${e.side}: ${e.message}`;
    case 'close':
      return `${head}   close ${e.side} conn ${e.conn}`;
    case 'http-request':
      return `${head}   http ${e.at === 'client' ? 'request sent' : 'request received'} #${e.exchange} ${e.method}${e.session ? ` session=${e.session}` : ''}${e.lastEventId ? ` last-event-id=${e.lastEventId}` : ''}${e.seqs.length ? ` [${e.seqs.join(',')}]` : ''}${e.raw ? ' (raw)' : ''}`;
    case 'http-response':
      return `${head}   http ${e.at === 'server' ? 'response sent' : 'response received'} #${e.exchange} ${e.status}${e.contentType ? ` ${e.contentType}` : ''}${e.seqs.length ? ` [${e.seqs.join(',')}]` : ''}${e.error ? ` "${e.error}"` : ''}`;
    case 'sse-event':
      return `${head}   sse ${e.at === 'server' ? 'written' : 'read'} #${e.exchange}${e.seq !== undefined ? ` [${e.seq}]` : ''}${e.eventId ? ` id=${e.eventId}` : ''}${e.comment ? ' comment' : e.seq === undefined ? ' priming' : ''}${e.replay ? ' (replay)' : ''}`;
    case 'sse-end':
      return `${head}   sse end ${e.at === 'server' ? 'written' : 'read'} #${e.exchange}`;
    case 'http-disconnect':
      return `${head}   http disconnect ${e.at === 'client' ? 'by client' : 'seen by server'} #${e.exchange}`;
    case 'escape':
      return `${head}   ESCAPE ${e.source}: ${e.error}`;
    case 'unscripted':
      return `${head}   UNSCRIPTED ${e.side} ${e.part}: ${e.why}`;
    case 'stderr':
      return `${head}   stderr ${JSON.stringify(e.text.length > 200 ? `${e.text.slice(0, 200)}…` : e.text)}`;
    case 'frame-too-large':
      return `${head}   FRAME TOO LARGE →${e.to} ${e.bytes} bytes${e.whole ? '' : '+'} (bound ${e.bound})${e.droppedExchange !== undefined ? ` #${e.droppedExchange} dropped` : ''}: ${JSON.stringify(e.head.slice(0, 80))}…`;
    case 'frames-counted':
      return `${head}   COUNTED →${e.to} ${e.count} frame(s) of ${e.stream} over ${e.spanMs} ms, past --max-notification${e.past === 'rate' ? '-rate' : 's'} ${e.bound}`;
    case 'exit':
      return `${head}   process exit ${e.signal ?? `code ${e.code}`} (${e.after === 'eof' ? 'after stdin EOF' : e.after === 'before-eof' ? 'before stdin EOF' : `after ${e.after.toUpperCase()}`})`;
    case 'end':
      return `${head} ■ end ${e.outcome}`;
  }
}

