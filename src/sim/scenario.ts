import type { AdapterFault } from './adapterFaults.ts';
import type { JsonValue } from '../util/json.ts';

/** The two ends of a connection. Every lifecycle rule applies in both directions. */
export type Side = 'client' | 'server';

export const otherSide = (side: Side): Side => (side === 'client' ? 'server' : 'client');

/** Requests the workload can issue: tool calls from the client, the three server-initiated ones. */
export type RequestMethod = 'tools/call' | 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

/** Which side sends each method. */
export const methodSender: Record<RequestMethod, Side> = {
  'tools/call': 'client',
  'sampling/createMessage': 'server',
  'elicitation/create': 'server',
  'roots/list': 'server',
};

/** One scripted step of a request handler; each runs when the scheduler picks it. */
export type HandlerStep =
  /** Sends `notifications/progress` if the request carried a token (or a made-up one, see faults). */
  | { readonly kind: 'progress'; readonly progress: number; readonly total?: number; readonly message?: string }
  /** Waits on a virtual timer. */
  | { readonly kind: 'sleep'; readonly ms: number }
  /** A downstream request to the peer (from a tool: sampling, elicitation, roots), awaited. */
  | {
      readonly kind: 'call';
      readonly method: RequestMethod;
      /** The peer's handler, by name in `Scenario.handlers`. @default answers at once */
      readonly handler?: string;
      readonly timeoutMs?: number;
    };

/** How a handler ends when nothing aborts it. */
export type HandlerEnd =
  | { readonly kind: 'result' }
  | { readonly kind: 'error'; readonly code: number; readonly message?: string }
  /** Never returns: only an abort (honoured) or the connection's end stops it. */
  | { readonly kind: 'hang' };

/**
 * What a handler does once its `AbortSignal` fires. `honour` stops at once by throwing the
 * abort; `ignore` keeps running its steps; `swallow` catches the abort and returns a normal
 * result (the seed article's third pitfall).
 */
export type AbortPolicy = 'honour' | 'ignore' | 'swallow';

/** Deliberate misbehaviour, for fixtures that prove an invariant fires. */
export interface HandlerFaults {
  /** `invent`: progress names a token the request never carried. */
  readonly progressToken?: 'echo' | 'invent';
  /** Leaves a rejected promise unhandled when the handler starts (`harness.unhandled`). */
  readonly unhandledRejection?: boolean;
  /** Throws from a timer callback when the handler starts (`harness.unhandled`). */
  readonly throwInTimer?: boolean;
  /** Starts a virtual interval when the handler starts and never clears it (`leak.timers`). */
  readonly leakInterval?: boolean;
}

/** A scripted handler: what the receiving side does with one request. */
export interface HandlerProgram {
  readonly steps: readonly HandlerStep[];
  readonly end: HandlerEnd;
  readonly onAbort: AbortPolicy;
  readonly faults?: HandlerFaults;
}

/** The SDK's per-request options, as the workload sets them. */
export interface CallOptions {
  /** @default the SDK's own (60 000 ms in 1.x) */
  readonly timeoutMs?: number;
  readonly resetTimeoutOnProgress?: boolean;
  readonly maxTotalTimeoutMs?: number;
  /** Pass an `onprogress` callback (which makes the SDK send a progress token). */
  readonly onprogress?: boolean;
  /** Caller `_meta` merged into the request params. */
  readonly meta?: { readonly [key: string]: JsonValue };
  /** Name of an `AbortSignal` the caller owns; several calls may share one name. */
  readonly signal?: string;
}

/** A step of the workload: what the callers do, in this order, at times the scheduler picks. */
export type CallerAction =
  | {
      readonly kind: 'call';
      /** A label unique in the scenario (`c1`, `s1`), used in the trace and reports. */
      readonly call: string;
      readonly method: RequestMethod;
      readonly options: CallOptions;
      /** What the receiver does with it: a name in `Scenario.handlers`. */
      readonly handler: string;
      /**
       * Several clients (`http.clients` > 1): which client makes the call (`tools/call`), or whose
       * session the server's call goes to (server-initiated methods). 0-based. @default 0
       */
      readonly client?: number;
      /** A user's tool (`Scenario.server: 'hosted'`): the call's `arguments`. @default {} */
      readonly arguments?: { readonly [key: string]: JsonValue };
    }
  | { readonly kind: 'abort'; readonly signal: string }
  /** Closes `side` of the connection of client `client` (several clients only). */
  | { readonly kind: 'close'; readonly side: Side; readonly client?: number }
  /** Connects the same `Client` and `Server` objects again over a new transport pair (of client `client`, @default 0). */
  | {
      readonly kind: 'reconnect';
      readonly client?: number;
      /**
       * memory profile only: connect a NEW SDK `Client` (a new client process after a disconnect)
       * to the same `Server`. Its request ids start again from 0, so they repeat ids the `Server`
       * saw on the old connection, whose handlers may still run. @default false
       */
      readonly fresh?: boolean;
    }
  /**
   * http profile only: POSTs `body` through the client's own in-memory fetch with its session
   * headers, bypassing the SDK client (a second request reusing an in-flight id, say). The
   * response is read and discarded; its exchange is in the trace like any other.
   */
  | { readonly kind: 'http-post'; readonly body: JsonValue; readonly client?: number }
  /**
   * http profile only, a network fault: every SSE stream the client has open breaks (the client
   * reads an error, the server learns of the disconnect later). Reconnecting is the SDK's own
   * business: with an event store it resumes with `Last-Event-ID`.
   */
  | { readonly kind: 'http-drop'; readonly client?: number };

/**
 * Transport profiles; `memory` is the stdio-like one (one FIFO link per direction), `http` the
 * SDK's Streamable HTTP transports over an in-memory fetch (every POST its own exchange),
 * `http-2026` the same network in revision 2026-07-28: a client pinned to it (`server/discover`,
 * no `initialize`, no session) and every POST served by the per-request entry, where a
 * client's disconnect aborts the POST's `Request.signal` (the 2.x packages only).
 */
export type Profile = 'memory' | 'http' | 'http-2026';

/** Streamable HTTP server modes (http profile only). */
export interface HttpMode {
  /**
   * `true`: sessions (`Mcp-Session-Id`), one server transport for the connection. `false`: no
   * sessions, a fresh server transport and `Server` per POST, as the SDK's stateless example.
   */
  readonly stateful: boolean;
  /** `json`: `enableJsonResponse` (one JSON body per POST); `sse`: an SSE stream per POST. */
  readonly response: 'json' | 'sse';
  /** Resumability: an in-memory event store with deterministic event ids (priming events, Last-Event-ID). */
  readonly eventStore: boolean;
  /** SSE keep-alive comment interval in virtual ms; 0 turns it off. @default 0 */
  readonly keepAliveMs?: number;
  /**
   * Stateful only: how many clients (each its own SDK `Client`, with its own session and its own
   * `Server` behind one endpoint) share the server. Caller actions pick one with `client`.
   * 1 to `MAX_HTTP_CLIENTS`. @default 1
   */
  readonly clients?: number;
}

/** Most clients a scenario may put on one server (`HttpMode.clients`). */
export const MAX_HTTP_CLIENTS = 4;

/** Everything a run does, apart from the schedule: plain JSON, so it prints and replays. */
export interface Scenario {
  readonly profile: Profile;
  /** Scripted handlers by name; a tool call's tool name is its handler's name. */
  readonly handlers: { readonly [name: string]: HandlerProgram };
  readonly actions: readonly CallerAction[];
  /** http profile: server modes. @default { stateful: true, response: 'sse', eventStore: false } */
  readonly http?: HttpMode;
  /**
   * Who serves the client's requests: `scripted`, the scenario's handler programs on a `Server`
   * of the harness; `hosted`, a user's own server (`RunOptions.server`), whose tools calls name
   * in `handler` and whose handlers are its own. @default 'scripted'
   */
  readonly server?: 'scripted' | 'hosted';
  /** Hosted servers: what the virtual network answers to their `fetch` calls. @default every call: 200, '{}', 10 ms */
  readonly network?: VirtualNetwork;
  /** A deliberately broken adapter around the SDK, for fixtures (see `adapterFaults.ts`). @default none */
  readonly adapterFaults?: readonly AdapterFault[];
}

/** One answer of the virtual network: after `latencyMs` of virtual time, `status` with `body`. */
export interface VirtualResponse {
  readonly status: number;
  readonly body: string;
  readonly latencyMs: number;
}

/** The virtual network a hosted server's `fetch` reaches: the n-th call (0-based) gets `responses[n % length]`. */
export interface VirtualNetwork {
  readonly responses: readonly VirtualResponse[];
}
