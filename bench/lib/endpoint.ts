/**
 * The common face of an SDK client/server pair and a floor pair.
 *
 * Why: the SDK curves and the floor curves must come from the very same bench-side work
 * (same gate, same promise bookkeeping, same loops), or their ratio would measure the
 * benchmark instead of the correlation code. Workloads drive an `Endpoint` and never know
 * which one they got.
 */
import type { Gate } from './latch.ts';
import type { MapProbe } from './leaks.ts';

export interface CallOptions {
  signal?: AbortSignal;
  /** Request timeout in ms (the SDK's default is 60 s). */
  timeout?: number;
  onprogress?: (progress: number) => void;
  resetTimeoutOnProgress?: boolean;
}

export interface Endpoint {
  /** Which implementation this is, for labels: `sdk 1.32.2` or `floor`. */
  label: string;
  /** The gate every handler waits at; workloads replace it before each batch. */
  gate: Gate;
  /**
   * When an array, every handler pushes a function that sends one progress notification for
   * its own request (its progress token); `null` turns the capture off.
   */
  progressSenders: Array<(value: number) => void> | null;
  /** Issues one request; the promise settles with the response, a timeout or a cancellation. */
  call(options?: CallOptions): Promise<unknown>;
  /** Requests the requester side currently tracks, or undefined if that is unreadable. */
  inFlight(): number | undefined;
  /** Sizes of every correlation map, for the leak check. */
  probe(): MapProbe[];
  /** Errors either side reported (unknown ids, failed sends, ...). */
  errors: string[];
  close(): Promise<void>;
}

/**
 * The common face of a Streamable HTTP session and its floor: one POST per request, the
 * response read whole. Building the POST is untimed (`prepare`); sending it and reading the
 * body is timed (`exchange`).
 */
export interface HttpEndpoint {
  label: string;
  gate: Gate;
  errors: string[];
  prepare(id: number): unknown;
  exchange(prepared: unknown): Promise<string>;
  probe(): MapProbe[];
  close(): Promise<void>;
}
