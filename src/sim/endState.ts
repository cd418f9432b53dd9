import { getEventListeners } from 'node:events';
import type { JsonValue } from '../util/json.ts';
import type { Side } from './scenario.ts';
import type { OpenExchange } from './http/HttpNetwork.ts';
import type { PendingTimer } from './VirtualClock.ts';
import type { World } from './World.ts';

/** One correlation map of one `Protocol` instance at the end of a run. */
export interface MapReading {
  readonly size?: number;
  /** Its keys (request ids, task ids), as JSON. */
  readonly keys: readonly JsonValue[];
  /** Why the size is unknown: this SDK version lacks the field. */
  readonly missing?: string;
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
  readonly timers: readonly PendingTimer[];
  readonly signals: readonly { readonly name: string; readonly aborted: boolean; readonly abortListeners: number }[];
  readonly transports: readonly { readonly side: Side; readonly conn: number; readonly closed: boolean }[];
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
    timers: world.clock.pendingTimers(),
    signals: [...world.callerSignals].map(([name, signal]) => ({
      name,
      aborted: signal.aborted,
      abortListeners: getEventListeners(signal, 'abort').length,
    })),
    transports: world.transports.map((t) => ({ side: t.side, conn: t.conn, closed: t.isClosed })),
    openCalls: [...world.openCalls],
    openExchanges: world.openExchanges(),
  };
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
