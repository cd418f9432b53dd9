import { performance } from 'node:perf_hooks';
import type { Side } from '../sim/scenario.ts';
import type { TraceEventBody, TraceRecorder } from '../sim/trace.ts';
import type { JsonValue } from '../util/json.ts';
import { isJsonObject } from '../util/jsonrpc.ts';
import type { WireBounds } from './wireBounds.ts';

/**
 * Streams told apart on one connection before the rest share one (`…:*`): a server that names a
 * new token, id or method in every frame gets no bucket of its own for each.
 */
const STREAMS_MAX = 256;

/**
 * The bucket of one stream holds a tenth of a second of `maxNotificationRate` (at least one): a
 * burst of that many at once passes, a steady stream at the rate passes, and a flood is counted
 * after that many frames, so a flood costs each run about that many frames of memory, not a
 * second's worth (a campaign re-runs a flooding case many times, shrinking it and rating it).
 */
const BURST_SECONDS = 0.1;

/**
 * A stream that is not one call's progress (one method's notifications or requests) lives as long
 * as the connection, which on a shared connection is the whole campaign: its count bound is per
 * this window, so a server that logs once per call is never taken for a flood on a long one.
 */
const METHOD_WINDOW_MS = 60_000;

/** One stream's bucket: frames recorded (in its window), tokens left, when it was last refilled, and its count once past a bound. */
interface Bucket {
  recorded: number;
  /** When its count window began (a method's stream: `METHOD_WINDOW_MS`; a call's progress has one window, its whole life). */
  windowAt: number;
  tokens: number;
  refilledAt: number;
  counted?: { readonly event: Extract<TraceEventBody, { kind: 'frames-counted' }>; readonly since: number };
}

/**
 * What one connection records of the frames a side reads (`WireBounds`): each frame belongs to a
 * stream (one call's progress by its token, one method's other messages, lines that are not
 * JSON-RPC; answers are not counted: one per request), and each stream is recorded up to `maxNotifications` frames
 * (a call's progress in all, a method's stream a minute), at most `maxNotificationRate` a second sustained (a bucket of a tenth of a second of it,
 * refilled that many a second). A frame past either bound is not recorded nor passed on: the stream's one
 * `frames-counted` event, recorded at the first such frame, counts it, and so does every later
 * frame of that stream (a flood is judged once, from that event: `progress.rate-limited`,
 * `rpc.rate-limited`). Memory is bounded by the calls in flight times `maxNotifications` (a campaign keeps its runs' traces); time, because a
 * counted frame is no sign of life to the run's client.
 */
export class FrameBudget {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly bounds: WireBounds,
    private readonly recorder: TraceRecorder,
    private readonly to: Side = 'client',
    private readonly conn = 0,
    private readonly now: () => number = () => performance.now(),
    /** Told the token of a call whose progress stops being recorded (the run gives the call up). */
    private readonly onProgressFlood: (token: JsonValue) => void = () => {},
  ) {}

  /** The streams counted, as the compact JSON of their method (and token) that their lines carry. */
  private readonly countedLines: { readonly counted: NonNullable<Bucket['counted']>; readonly method: string; readonly token?: string }[] = [];

  /**
   * Whether a line of newline-delimited JSON, not parsed yet, is a frame of a stream already
   * counted (a flood): then it is counted here, and need not be parsed (a flood of 200,000 frames
   * would otherwise cost as many parses and their garbage). Only a notification written compactly
   * is matched (its method, and its token for progress, as `JSON.stringify` writes them), never a
   * line with a result, an error or an id; any other line is parsed and `admit`ted as usual.
   */
  countsLine(line: string): boolean {
    if (this.countedLines.length === 0 || line.includes('"id"') || line.includes('"result"') || line.includes('"error"')) return false;
    for (const c of this.countedLines) {
      if (line.includes(c.method) && (c.token === undefined || line.includes(c.token))) {
        countIn(c.counted, this.now());
        return true;
      }
    }
    return false;
  }

  /** A stream's bucket: `BURST_SECONDS` of the rate. */
  private get burst(): number {
    return Math.max(1, Math.floor(this.bounds.maxNotificationRate * BURST_SECONDS));
  }

  /**
   * Whether `frame`, just read, is recorded and passed on; false: it was counted instead. An
   * answer always is: one per request the client wrote, so the client's own pace bounds them (a
   * shared connection answers thousands of pings and calls, which no count of one stream may cut).
   */
  admit(frame: JsonValue): boolean {
    if (isJsonObject(frame) && frame.method === undefined && 'id' in frame) return true;
    const { key, method, token } = this.streamOf(frame);
    const t = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { recorded: 0, windowAt: t, tokens: this.burst, refilledAt: t };
      this.buckets.set(key, bucket);
    }
    if (bucket.counted) {
      countIn(bucket.counted, t);
      return false;
    }
    if (token === undefined && t - bucket.windowAt >= METHOD_WINDOW_MS) {
      bucket.recorded = 0;
      bucket.windowAt = t;
    }
    const rate = this.bounds.maxNotificationRate;
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((t - bucket.refilledAt) * rate) / 1000);
    bucket.refilledAt = t;
    const past = bucket.recorded >= this.bounds.maxNotifications ? 'count' : bucket.tokens < 1 ? 'rate' : undefined;
    if (past === undefined) {
      bucket.tokens -= 1;
      bucket.recorded++;
      return true;
    }
    const event: Extract<TraceEventBody, { kind: 'frames-counted' }> = {
      kind: 'frames-counted',
      to: this.to,
      conn: this.conn,
      stream: key,
      method,
      ...(token !== undefined && { token }),
      past,
      bound: past === 'count' ? this.bounds.maxNotifications : rate,
      recorded: bucket.recorded,
      count: 1,
      spanMs: 0,
    };
    this.recorder.record(event);
    bucket.counted = { event, since: t };
    // Later lines of this stream are counted from their text, unparsed (`countsLine`).
    this.countedLines.push({ counted: bucket.counted, method: `"method":${JSON.stringify(method)}`, ...(token !== undefined && { token: `"progressToken":${JSON.stringify(token)}` }) });
    if (token !== undefined) this.onProgressFlood(token);
    return false;
  }

  /** The stream a frame belongs to, and what the judge needs of it. */
  private streamOf(frame: JsonValue): { key: string; method: string; token?: JsonValue } {
    const known = (key: string, family: string) => (this.buckets.has(key) || this.buckets.size < STREAMS_MAX ? key : `${family}:*`);
    if (!isJsonObject(frame)) return { key: 'not JSON-RPC', method: '(not JSON-RPC)' };
    const method = typeof frame.method === 'string' ? frame.method : undefined;
    if (method === 'notifications/progress' && isJsonObject(frame.params) && frame.params.progressToken !== undefined) {
      const token = frame.params.progressToken;
      const key = known(`progress token ${JSON.stringify(token)}`, 'progress token');
      return key.endsWith('*') ? { key, method } : { key, method, token };
    }
    if (method !== undefined) return { key: known(method.slice(0, 100), 'method'), method };
    return { key: 'not JSON-RPC', method: '(not JSON-RPC)' };
  }
}

/** One more frame of a stream counted, at `t`. */
function countIn(counted: NonNullable<Bucket['counted']>, t: number): void {
  counted.event.count++;
  counted.event.spanMs = Math.round(t - counted.since);
}
