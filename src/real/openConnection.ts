import { performance } from 'node:perf_hooks';
import { DEFAULT_PROCESS_START_MS } from '../options/defaults.ts';
import { TraceRecorder } from '../sim/trace.ts';
import type { Endpoint, OpenHow, TargetConnection } from './connection.ts';
import { handshake, type ServerHello } from './handshake.ts';
import { isJsonObject } from '../util/jsonrpc.ts';
import { Inbox } from './Inbox.ts';

/** A connection opened and initialized: what a run (or many at once) uses, with the real time it took. */
export interface OpenConnection {
  readonly conn: TargetConnection;
  readonly inbox: Inbox;
  /** Every frame of the connection, with real ms since `t0`. */
  readonly recorder: TraceRecorder;
  /** `performance.now()` at the open: the trace's time 0. */
  readonly t0: number;
  readonly hello: ServerHello;
  /** Real ms from the open (the spawn, or the session's first POST) to the end of the handshake. */
  readonly startupMs: number;
  /** What opening it started: a server process, or a session on one already running. */
  readonly started: 'process' | 'session';
}

/**
 * Opens a connection to `endpoint` (`how.fresh`: on a process of its own) and does the handshake;
 * a bad target throws its `BadTargetError`, with the connection closed.
 */
export async function openConnection(endpoint: Endpoint, how: OpenHow = {}, startMs: number = DEFAULT_PROCESS_START_MS): Promise<OpenConnection> {
  const t0 = performance.now();
  const recorder = new TraceRecorder(() => Math.round((performance.now() - t0) * 10) / 10);
  const inbox = new Inbox();
  const conn = await endpoint.open(recorder, inbox, how);
  try {
    const hello = await handshake(conn, inbox, startMs);
    return { conn, inbox, recorder, t0, hello, startupMs: Math.round(performance.now() - t0), started: conn.startedProcess === false ? 'session' : 'process' };
  } catch (error) {
    await conn.close().catch(() => undefined);
    throw error;
  }
}

/** `n` pings one after the other on `open`, each answered within `ms`: their round trips, ms (a ping not answered in time counts as `ms`). */
export async function pingRoundTrips(open: OpenConnection, n: number, ms: number): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; k < n && open.inbox.endedBecause === undefined; k++) {
    const id = `mcp-sim-round-trip-${k}`;
    const sent = performance.now();
    void open.conn.send({ jsonrpc: '2.0', id, method: 'ping' });
    await open.inbox.waitFor((f) => isJsonObject(f) && f.id === id && ('result' in f || 'error' in f), ms);
    out.push(Math.round((performance.now() - sent) * 10) / 10);
  }
  return out;
}
