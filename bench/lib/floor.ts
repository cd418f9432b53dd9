/**
 * The floor: the least bookkeeping that request correlation with timeouts, progress and
 * cancellation can do in JavaScript, used as the physical limit the SDK is compared to.
 *
 * Why: a cost per request means little alone on a noisy 2-core machine; a ratio to this
 * floor, measured in the same process under the same load, does. It keeps exactly what
 * the SDK's `Protocol` keeps per request (a `Map` entry keyed by id holding the promise
 * callbacks, a real `setTimeout` timer and the progress callback on the requester side; a
 * `Map` entry per running handler on the receiver side) and starts handlers on a microtask
 * as the SDK does, but has no JSON-RPC envelopes, no schema validation and no transport.
 * The receiver creates a handler's `AbortController` lazily, only when the handler reads
 * `extra.signal` or the request is cancelled: in Node 20 an AbortSignal costs microseconds,
 * and a physical limit should not pay for one nobody looks at.
 */
import type { Endpoint, HttpEndpoint } from './endpoint.ts';
import { Gate } from './latch.ts';
import { probeMaps } from './leaks.ts';

export interface FloorResult {
  ok: true;
}

export interface FloorRequestOptions {
  timeout?: number;
  signal?: AbortSignal;
  onprogress?: (progress: number) => void;
  resetTimeoutOnProgress?: boolean;
}

/** Requester-side record: one per in-flight id. */
interface Pending {
  resolve: (result: FloorResult) => void;
  reject: (reason: unknown) => void;
  timer: ReturnType<typeof setTimeout>;
  timeout: number;
  onprogress: ((progress: number) => void) | undefined;
  resetTimeoutOnProgress: boolean;
}

/** What a floor handler gets: the abort signal and a way to report progress. */
export interface FloorExtra {
  signal: AbortSignal;
  id: number;
  progress: (value: number) => void;
}

export type FloorHandler = (extra: FloorExtra) => Promise<FloorResult>;

/** Where a responder's answers and progress reports go (a requester, or the HTTP correlator). */
export interface FloorSink {
  onResponse(id: number, result: FloorResult): void;
  onProgress(id: number, value: number): void;
}

const DEFAULT_TIMEOUT = 60_000;

export class FloorRequester implements FloorSink {
  nextId = 0;
  readonly pending = new Map<number, Pending>();

  constructor(private readonly responder: FloorResponder) {
    responder.sink = this;
  }

  request(options: FloorRequestOptions = {}): Promise<FloorResult> {
    return new Promise<FloorResult>((resolve, reject) => {
      const id = this.nextId++;
      const timeout = options.timeout ?? DEFAULT_TIMEOUT;
      this.pending.set(id, {
        resolve,
        reject,
        timer: setTimeout(() => this.fail(id, new Error('timeout')), timeout),
        timeout,
        onprogress: options.onprogress,
        resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? false,
      });
      options.signal?.addEventListener('abort', () => this.fail(id, options.signal?.reason), { once: true });
      this.responder.onRequest(id);
    });
  }

  /** Timeout or cancellation: forget the id, tell the receiver, reject. */
  fail(id: number, reason: unknown): void {
    const entry = this.pending.get(id);
    if (entry === undefined) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    this.responder.onCancel(id);
    entry.reject(reason);
  }

  onResponse(id: number, result: FloorResult): void {
    const entry = this.pending.get(id);
    if (entry === undefined) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.resolve(result);
  }

  onProgress(id: number, value: number): void {
    const entry = this.pending.get(id);
    if (entry?.onprogress === undefined) return;
    if (entry.resetTimeoutOnProgress) {
      clearTimeout(entry.timer);
      entry.timer = setTimeout(() => this.fail(id, new Error('timeout')), entry.timeout);
    }
    entry.onprogress(value);
  }
}

/** Receiver-side record of one running handler. */
class Running {
  controller: AbortController | undefined;
  cancelled = false;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.cancelled && !this.controller.signal.aborted) this.controller.abort();
    return this.controller.signal;
  }

  cancel(): void {
    this.cancelled = true;
    this.controller?.abort();
  }
}

export class FloorResponder {
  sink!: FloorSink;
  readonly active = new Map<number, Running>();

  constructor(public handler: FloorHandler) {}

  onRequest(id: number): void {
    const running = new Running();
    this.active.set(id, running);
    const extra: FloorExtra = {
      get signal() {
        return running.signal;
      },
      id,
      progress: (value) => {
        if (!running.cancelled) this.sink.onProgress(id, value);
      },
    };
    void Promise.resolve()
      .then(() => this.handler(extra))
      .then((result) => {
        if (!running.cancelled) this.sink.onResponse(id, result);
      })
      .finally(() => {
        if (this.active.get(id) === running) this.active.delete(id);
      });
  }

  onCancel(id: number): void {
    this.active.get(id)?.cancel();
  }
}

/** A connected floor requester/responder pair. */
export function floorPair(handler: FloorHandler): { requester: FloorRequester; responder: FloorResponder } {
  const responder = new FloorResponder(handler);
  const requester = new FloorRequester(responder);
  return { requester, responder };
}

/**
 * Floor of the Streamable HTTP server's correlation: each POST opens a stream record, each
 * request id maps to its stream, and a response finds its stream in O(1) and settles it
 * when the stream's last pending response arrives (per-stream counter, no scan).
 */
export class FloorHttpCorrelator implements FloorSink {
  private nextStream = 0;
  readonly streams = new Map<number, { pending: number; responses: unknown[]; settle: (body: string) => void }>();
  readonly requestToStream = new Map<number, number>();

  constructor(private readonly responder: FloorResponder) {
    responder.sink = this;
  }

  /** One POST carrying one request: resolves with the serialized response body. */
  post(id: number): Promise<string> {
    return new Promise<string>((settle) => {
      const stream = this.nextStream++;
      this.streams.set(stream, { pending: 1, responses: [], settle });
      this.requestToStream.set(id, stream);
      this.responder.onRequest(id);
    });
  }

  /** The response path: O(1) lookups, settle the stream when its count reaches zero. */
  onResponse(id: number, result: FloorResult): void {
    const streamId = this.requestToStream.get(id);
    if (streamId === undefined) return;
    this.requestToStream.delete(id);
    const stream = this.streams.get(streamId);
    if (stream === undefined) return;
    stream.responses.push({ jsonrpc: '2.0', id, result });
    if (--stream.pending === 0) {
      this.streams.delete(streamId);
      stream.settle(JSON.stringify(stream.responses.length === 1 ? stream.responses[0] : stream.responses));
    }
  }

  onProgress(): void {
    // Progress on a POST stream would be written to it; the HTTP benches send none.
  }
}

/** A floor HTTP session: the responder answers through the correlator. */
export function floorHttp(handler: FloorHandler): { correlator: FloorHttpCorrelator; responder: FloorResponder } {
  const responder = new FloorResponder(handler);
  const correlator = new FloorHttpCorrelator(responder);
  return { correlator, responder };
}

/** The floor as an `Endpoint`, driven by the same workloads as the SDK pair. */
export function floorEndpoint(): Endpoint {
  const endpoint: Endpoint = {
    label: 'floor',
    gate: new Gate(0),
    progressSenders: null,
    errors: [],
    call: (options) => requester.request(options),
    inFlight: () => requester.pending.size,
    probe: () => [probeMaps(requester, 'floor requester', ['pending']), probeMaps(responder, 'floor responder', ['active'])],
    async close() {},
  };
  const { requester, responder } = floorPair(async (extra) => {
    const gate = endpoint.gate;
    endpoint.progressSenders?.push(extra.progress);
    await gate.wait(extra);
    return RESULT;
  });
  return endpoint;
}

const RESULT: FloorResult = { ok: true };

/** The HTTP correlation floor as an `HttpEndpoint`. */
export function floorHttpEndpoint(): HttpEndpoint {
  const endpoint: HttpEndpoint = {
    label: 'floor http',
    gate: new Gate(0),
    errors: [],
    prepare: (id) => id,
    exchange: (prepared) => correlator.post(prepared as number),
    probe: () => [probeMaps(correlator, 'floor http correlator', ['streams', 'requestToStream']), probeMaps(responder, 'floor responder', ['active'])],
    async close() {},
  };
  const { correlator, responder } = floorHttp(async (extra) => {
    await endpoint.gate.wait(extra);
    return RESULT;
  });
  return endpoint;
}
