import { getEventListeners } from 'node:events';
import type { JsonValue } from '../util/json.ts';
import type { MapProbe } from '../sdk/SdkAdapter.ts';
import type { Side } from './scenario.ts';
import type { OpenExchange } from './http/HttpNetwork.ts';
import type { PendingTimer } from './VirtualClock.ts';
import type { World } from './World.ts';

/** One correlation map of one `Protocol` instance at the end of a run. */
export interface MapReading {
  readonly size?: number;
  /** Its keys (request ids, task ids), as JSON. */
  readonly keys: readonly JsonValue[];
  /** Its values in key order, when all are strings or numbers (a request→stream map). */
  readonly values?: readonly JsonValue[];
  /** Why the size is unknown: this SDK version lacks the field. */
  readonly missing?: string;
}

/** The maps of one stateful Streamable HTTP server transport (one session), by private field name. */
export interface HttpServerMaps {
  readonly conn: number;
  /** Its `close()` ran (the session ended). */
  readonly closed: boolean;
  readonly maps: EndpointMaps;
}

/** The correlation maps of one endpoint, by the private field name the SDK's facts give each role. */
export type EndpointMaps = Readonly<Record<string, MapReading>>;

/**
 * What the world looks like when a run ended, read at the `atEnd` hook before teardown: the
 * SDK's correlation maps on both sides, pending virtual timers, listeners on the callers'
 * signals, transports. Plain JSON; the oracle judges it without touching the world.
 */
export interface EndState {
  readonly maps: Readonly<Record<Side, EndpointMaps>>;
  /** The same maps of every further client and the `Server` of its session (`http.clients` > 1 only). */
  readonly moreClients?: readonly { readonly client: number; readonly maps: Readonly<Record<Side, EndpointMaps>> }[];
  /**
   * The maps of every `Client` a fresh reconnect replaced (memory), oldest first, with the last
   * connection it served: closed objects, but what they still hold was never let go.
   */
  readonly retiredClients?: readonly { readonly client: number; readonly conn: number; readonly maps: EndpointMaps }[];
  readonly timers: readonly PendingTimer[];
  readonly signals: readonly { readonly name: string; readonly aborted: boolean; readonly abortListeners: number }[];
  /** Every transport: the memory links' ends, or each HTTP connection's client and (stateful) server transport. */
  readonly transports: readonly { readonly side: Side; readonly conn: number; readonly closed: boolean }[];
  /** The request→stream maps of every stateful HTTP session's server transport (http profile only). */
  readonly httpServers?: readonly HttpServerMaps[];
  readonly openCalls: readonly string[];
  /** HTTP exchanges not yet in a final state (http profile only; empty otherwise). */
  readonly openExchanges: readonly OpenExchange[];
}

const asJson = (k: unknown): JsonValue => (typeof k === 'string' || typeof k === 'number' ? k : String(k));

/** Snapshot of `world` at the end of a run. Only reads. */
export function endState(world: World): EndState {
  const moreClients = world.clients.slice(1).map((_, k) => ({ client: k + 1, maps: mapsOf(world, k + 1) }));
  return {
    maps: mapsOf(world, 0),
    ...(moreClients.length > 0 && { moreClients }),
    ...(world.retiredClients.length > 0 && {
      retiredClients: world.retiredClients.map((r) => ({ client: r.client, conn: r.conn, maps: readings(world.sdk.probe.correlationMaps(r.endpoint)) })),
    }),
    timers: world.clock.pendingTimers(),
    signals: [...world.callerSignals].map(([name, signal]) => ({
      name,
      aborted: signal.aborted,
      abortListeners: getEventListeners(signal, 'abort').length,
    })),
    transports: transportsOf(world),
    ...(world.http && { httpServers: httpServersOf(world) }),
    openCalls: [...world.openCalls],
    openExchanges: world.openExchanges(),
  };
}

function transportsOf(world: World): EndState['transports'] {
  const out: { side: Side; conn: number; closed: boolean }[] = world.transports.map((t) => ({ side: t.side, conn: t.conn, closed: t.isClosed }));
  for (const c of world.http?.connections ?? []) {
    out.push({ side: 'client', conn: c.conn, closed: c.client.closed });
    if (c.server) out.push({ side: 'server', conn: c.conn, closed: c.server.closed });
  }
  return out;
}

function httpServersOf(world: World): HttpServerMaps[] {
  const out: HttpServerMaps[] = [];
  for (const c of world.http?.connections ?? []) {
    if (!c.server) continue;
    out.push({ conn: c.conn, closed: c.server.closed, maps: readings(world.sdk.probe.httpServerTransportMaps(c.server)) });
  }
  return out;
}

function readings(probed: Readonly<Record<string, MapProbe>>): EndpointMaps {
  const out: Record<string, MapReading> = {};
  for (const field of Object.keys(probed)) {
    const m = probed[field]!;
    out[field] = {
      ...(m.size !== undefined && { size: m.size }),
      keys: m.keys.map(asJson),
      ...(m.values !== undefined && { values: [...m.values] }),
      ...(m.missing !== undefined && { missing: m.missing }),
    };
  }
  return out;
}

/** Correlation maps of client `client`'s `Client` and of the `Server` of its session. */
function mapsOf(world: World, client: number): Record<Side, EndpointMaps> {
  const maps = {} as Record<Side, EndpointMaps>;
  for (const side of ['client', 'server'] as const) {
    const perSide: Record<string, MapReading> = {};
    const probed = world.sdk.probe.correlationMaps(world.endpointOf(side, client));
    // Built field by field rather than spread from conditional objects: twelve maps per run, almost all empty.
    for (const field of Object.keys(probed)) {
      const m = probed[field]!;
      const reading: { size?: number; keys: JsonValue[]; missing?: string } = m.size !== undefined ? { size: m.size, keys: [] } : { keys: [] };
      for (const k of m.keys) reading.keys.push(asJson(k));
      if (m.missing !== undefined) reading.missing = m.missing;
      perSide[field] = reading;
    }
    maps[side] = perSide;
  }
  return maps;
}
