import type { CorrelationMapRole, SdkFacts } from '../sdk/facts.ts';
import type { HttpServerMaps, MapReading } from '../sim/endState.ts';
import type { JsonValue } from '../util/json.ts';
import type { Side } from '../sim/scenario.ts';
import { finding, type Finding } from './finding.ts';
import { idKey, other, show } from './ids.ts';
import { handlerOf, isOpen, type ReceiverRec, type RequesterRec } from './records.ts';
import type { RuleFactory, Walk } from './rule.ts';

/** The timer of a scripted handler's `sleep` step (its function name in `src/sim/scriptedHandler.ts`): the harness's, not the SDK's. */
const HANDLER_SLEEP_TIMER = 'handlerSleep';

/** Requester-side maps: an entry is a leak unless its request is still open. */
const requesterMaps: readonly CorrelationMapRole[] = ['responseHandlers', 'progressHandlers', 'timeouts'];
/** Maps that must be empty whenever nothing is in flight (tasks, which the harness never starts). */
const idleMaps: readonly CorrelationMapRole[] = ['requestResolvers', 'taskProgressTokens'];

/**
 * Correlation maps whose leak is a cause of its own (`Finding.clause`: the map's role), so that a
 * release leaking one of them is not hidden by a known leak of another. The requester's response
 * handlers and the HTTP transport maps stay unnamed: they are the leaks SDK 1.32.2 is known for.
 */
const namedLeaks: ReadonlySet<CorrelationMapRole> = new Set(['progressHandlers', 'timeouts', 'handlerAbortControllers', 'requestResolvers', 'taskProgressTokens']);

/** A `leak.correlation-maps` finding about map `role`, named by it when its leak is a cause of its own. */
function mapLeak(role: CorrelationMapRole, at: number, message: string, request: string): Finding {
  const f = finding('leak.correlation-maps', at, message, request);
  return namedLeaks.has(role) ? { ...f, clause: role } : f;
}

/**
 * End of run, given the world's end state: nothing outlives what owns it. Correlation map
 * entries of settled requests and ended handlers (`leak.correlation-maps`), timers nothing in
 * flight owns (`leak.timers`), abort listeners on signals whose calls all settled
 * (`leak.abort-listeners`). Maps are found by the SDK's private field names (`SdkFacts`); a map
 * the release lacks is skipped.
 */
export const leaksRule: RuleFactory = (walk, facts) => ({
  finish({ at, endState }) {
    if (!endState) return;
    const calls = [...walk.calls()];
    const receivers = [...walk.receivers()];
    // Client 0's endpoints, then those of every further client (several clients only).
    const instances = [{ client: 0, maps: endState.maps }, ...(endState.moreClients ?? [])];
    for (const { client, maps: both } of instances) {
      for (const side of ['client', 'server'] as const) {
        const current = walk.currentClientInstance(client);
        endpointLeaks(walk, facts, at, receivers, {
          side,
          maps: both[side],
          who: client === 0 ? side : `${side} of client ${client}`,
          requesterOf: (key) => walk.requesterOfClient(side, client, key),
          // A `Server` serves every connection of its client; a `Client` only those since its fresh reconnect.
          mine: (r) => walk.clientOf(r.conn) === client && (side === 'server' || walk.clientInstanceOf(r.conn) === current),
        });
      }
    }
    // `Client`s a fresh reconnect replaced: closed, so anything they still hold is held for good.
    for (const retired of endState.retiredClients ?? []) {
      const instance = walk.clientInstanceOf(retired.conn);
      endpointLeaks(walk, facts, at, receivers, {
        side: 'client',
        maps: retired.maps,
        who: `replaced client of connection ${retired.conn}`,
        requesterOf: (key) => walk.requester('client', retired.conn, key),
        mine: (r) => walk.clientOf(r.conn) === retired.client && walk.clientInstanceOf(r.conn) === instance,
      });
    }
    for (const server of endState.httpServers ?? []) transportLeaks(walk, facts, receivers, server, at);
    const openCalls = calls.some((c) => !c.settled);
    const handlersRunning = receivers.some((r) => handlerOf(r) === 'running' || handlerOf(r) === 'aborted');
    for (const timer of endState.timers) {
      if (timer.label === facts.timerLabels.requestTimeout && openCalls) continue;
      if (timer.label === HANDLER_SLEEP_TIMER && handlersRunning) continue;
      walk.flag(finding('leak.timers', at, `a virtual timer "${timer.label}" (#${timer.id}, due at ${timer.atMs} ms) is still pending with nothing in flight that owns it.`, `timer:${timer.id}`));
    }
    for (const sig of endState.signals) {
      if (sig.abortListeners === 0) continue;
      const users = calls.filter((c) => c.options.signal === sig.name);
      if (users.some((c) => !c.settled)) continue;
      walk.flag(
        finding('leak.abort-listeners', at, `signal ${sig.name} still has ${sig.abortListeners} abort listener(s) after all ${users.length} call(s) using it settled.`, `signal:${sig.name}`, { signal: sig.name }),
      );
    }
  },
});

/** One SDK endpoint's correlation maps at the end of a run, and how to find what their keys name. */
interface EndpointView {
  readonly side: Side;
  readonly maps: Readonly<Record<string, MapReading | undefined>>;
  /** How findings name the endpoint. */
  readonly who: string;
  /** The request a requester-side key names, as this endpoint sent it. */
  readonly requesterOf: (key: JsonValue) => RequesterRec | undefined;
  /** Whether a delivery to `side` reached this endpoint (its client, its `Client` object). */
  readonly mine: (r: ReceiverRec) => boolean;
}

/** Entries of one endpoint's maps that nothing in flight owns (`leak.correlation-maps`). */
function endpointLeaks(walk: Walk, facts: SdkFacts, at: number, receivers: readonly ReceiverRec[], { side, maps, who, requesterOf, mine }: EndpointView): void {
  const keysOf = (role: CorrelationMapRole) => maps[facts.correlationMaps[role]]?.keys ?? [];
  for (const role of requesterMaps) {
    const field = facts.correlationMaps[role];
    for (const key of keysOf(role)) {
      const rec = requesterOf(key);
      if (rec?.call && !rec.call.settled) continue;
      if (rec && !rec.call && isOpen(rec)) continue;
      const request = rec ? walk.label(rec) : `${side}:${show(key)}`;
      walk.flag(mapLeak(role, at, `the ${who}'s ${field} still holds request ${show(key)}${rec?.call ? ` (${rec.call.call}, settled)` : ''}.`, request));
    }
  }
  const field = facts.correlationMaps.handlerAbortControllers;
  for (const key of keysOf('handlerAbortControllers')) {
    const rec = lastDelivery(receivers, side, key, mine);
    if (rec && handlerOf(rec) !== 'ended' && handlerOf(rec) !== 'idle') continue;
    const request = rec ? walk.receivedLabel(rec) : `${other(side)}:${show(key)}`;
    walk.flag(mapLeak('handlerAbortControllers', at, `the ${who}'s ${field} still holds request ${show(key)} whose handler ended.`, request));
  }
  for (const role of idleMaps) {
    for (const key of keysOf(role)) {
      walk.flag(mapLeak(role, at, `the ${who}'s ${facts.correlationMaps[role]} still holds ${show(key)} with nothing in flight.`, `${side}:${show(key)}`));
    }
  }
}

/**
 * The request→stream maps of one open stateful HTTP session (`facts.httpServerTransportMaps`).
 * An entry is a leak when its request is over at the server (its handler ended, or never ran
 * and the request is gone) and the stream it names is gone too: nothing can use it any more.
 * An entry whose stream is still open belongs to an exchange that `http.exchange-completes`
 * judges. A closed transport is skipped: its maps die with it.
 */
function transportLeaks(walk: Walk, facts: SdkFacts, receivers: readonly ReceiverRec[], server: HttpServerMaps, at: number): void {
  if (server.closed) return;
  const names = facts.httpServerTransportMaps;
  const streams = server.maps[names.streams];
  const byRequest = server.maps[names.requestToStream];
  if (!streams || streams.missing !== undefined) return;
  const open = new Set(streams.keys.map(idKey));
  const streamOf = new Map<string, JsonValue>();
  byRequest?.keys.forEach((k, n) => {
    const v = byRequest.values?.[n];
    if (v !== undefined) streamOf.set(idKey(k), v);
  });
  for (const field of [names.requestToStream, names.requestResponses]) {
    const reading = server.maps[field];
    if (!reading || reading.missing !== undefined) continue;
    for (const key of reading.keys) {
      const stream = streamOf.get(idKey(key));
      if (stream !== undefined && open.has(idKey(stream))) continue;
      const rec = lastDelivery(receivers, 'server', key, (r) => r.conn === server.conn);
      if (rec && (handlerOf(rec) === 'running' || handlerOf(rec) === 'aborted')) continue;
      const request = rec ? walk.receivedLabel(rec) : `client:${show(key)}`;
      walk.flag(finding('leak.correlation-maps', at, `the server transport of connection ${server.conn} still holds request ${show(key)} in ${field}, though its handler ended and its stream is gone.`, request));
    }
  }
}

/** The latest delivery of request `key` to `side` among `receivers` that `mine` accepts. */
function lastDelivery(receivers: readonly ReceiverRec[], side: Side, key: unknown, mine: (r: ReceiverRec) => boolean): ReceiverRec | undefined {
  return receivers.filter((r) => r.side === side && idKey(r.id) === idKey(key) && mine(r)).at(-1);
}
