import type { Endpoint, SimServerTransport } from '../../sdk/SdkAdapter.ts';
import { isRequestFrame } from '../../util/jsonrpc.ts';
import type { JsonValue } from '../../util/json.ts';
import type { WireId } from '../trace.ts';
import type { SseBlock } from './sse.ts';
import type { HttpConnection } from './HttpConnection.ts';

/**
 * Where one HTTP exchange stands, as the client and the network see it.
 * - `queued`: the request is on its way to the server;
 * - `at-server`: the server has it and has not produced a response head yet;
 * - `responded`: the head is on its way to the client;
 * - `streaming`: the client has the head of an SSE response, the stream is open;
 * - `complete`: final: a JSON or empty body reached the client, or the SSE stream's end did;
 * - `disconnected`: final: the client dropped it (closed its transport, cancelled the body).
 */
export type ExchangeState = 'queued' | 'at-server' | 'responded' | 'streaming' | 'complete' | 'disconnected';

/** A JSON-RPC frame on the wire with its global send order. */
export interface SeqFrame {
  readonly seq: number;
  readonly frame: JsonValue;
}

/** Client → server items of one exchange, in order: the request, then maybe a disconnect. */
export type UpItem = { readonly kind: 'request'; readonly seq: number } | { readonly kind: 'disconnect'; readonly seq: number };

/** Server → client items of one exchange, in order: the head, SSE events, the stream's end. */
export type DownItem =
  | {
      readonly kind: 'head';
      readonly seq: number;
      readonly status: number;
      readonly headers: [string, string][];
      /** The whole body of a non-SSE response (`null` when it has none). */
      readonly body: string | null;
      readonly sse: boolean;
      readonly frames: SeqFrame[];
    }
  | {
      readonly kind: 'event';
      readonly seq: number;
      readonly block: SseBlock;
      readonly frame?: SeqFrame;
      /** The event's bytes as the server wrote them, when they are the block's text encoded: handed on as they are. */
      readonly bytes?: Uint8Array;
    }
  | { readonly kind: 'end'; readonly seq: number };

/** Until the client's fetch has a signal to detach from: one function for every exchange. */
const noop = (): void => {};

/**
 * One HTTP request/response pair over the in-memory fetch. Two FIFO queues, one per direction,
 * hold what is in flight; the scheduler releases their heads independently of other exchanges,
 * so exchanges overtake each other while one SSE stream keeps its order.
 * @internal
 */
export class HttpExchange {
  state: ExchangeState = 'queued';
  /** Sent by a caller's raw POST, not by the SDK client: what comes back never reaches the SDK. */
  raw = false;
  readonly up: UpItem[] = [];
  readonly down: DownItem[] = [];
  // Client end.
  resolveFetch!: (response: Response) => void;
  rejectFetch!: (reason: unknown) => void;
  clientBody: ReadableStreamDefaultController<Uint8Array> | undefined;
  detachSignal: () => void = noop;
  // Server end.
  serverReader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** The server learnt of the client's disconnect. */
  serverGone = false;
  /**
   * Per-request serving (2026-07-28): the server-side `Request.signal`'s controller, aborted
   * when the client's disconnect reaches the server (a scheduled delivery, so it races the response).
   */
  serverAbort: AbortController | undefined;
  /** Stateless mode: the `Server` and transport built for this POST alone. */
  perRequest: { server: Endpoint; transport: SimServerTransport; closed: boolean } | undefined;

  constructor(
    readonly connection: HttpConnection,
    /** Numbers the exchange in the trace: the seq its request got when the client sent it. */
    readonly id: number,
    readonly method: string,
    readonly headers: Headers,
    readonly body: string | undefined,
    readonly frames: SeqFrame[],
    /** The request's session and resumption cursor headers, as the trace records them (read once). */
    readonly sessionAndCursor: { readonly session?: string; readonly lastEventId?: string },
  ) {}

  get conn(): number {
    return this.connection.conn;
  }

  /** Ids of the JSON-RPC requests the request body carried (none for notifications, GET, DELETE). */
  get requestIds(): WireId[] {
    const ids: WireId[] = [];
    for (const { frame } of this.frames) {
      if (isRequestFrame(frame) && (typeof frame.id === 'string' || typeof frame.id === 'number')) ids.push(frame.id);
    }
    return ids;
  }

  get isFinal(): boolean {
    return this.state === 'complete' || this.state === 'disconnected';
  }
}
