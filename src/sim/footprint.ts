import type { SimAction } from './actions.ts';
import { methodSender, type CallerAction, type Side } from './scenario.ts';
import type { World } from './World.ts';

/**
 * What an enabled action is and what it may touch, for partial-order reduction (`mcp-sim explore`).
 * Keys are built from names that do not depend on how independent steps interleave (connection
 * numbers, request ids, an exchange's place on its connection, a timer's label and time), never
 * from global counters (frame seqs, exchange and timer ids), or equivalent schedules would look
 * different and sleep sets would not recognize them.
 * `key` names the *process* whose next step the action is: it names the same step while the
 * action stays enabled and only independent actions run (the head of a link stays its head until
 * that link is delivered; a gate opens once; the callers' next action is fixed; a burst is named
 * with its size and a timer with its id, so a burst that grew or a timer that is no longer the
 * next one counts as disabled, and the explorer treats disabling as a race).
 * `touches` lists the resources the step reads or writes; `'everything'` is the conservative
 * answer where the simulator cannot say (timers, closes, reconnects, raw HTTP).
 */
export interface Footprint {
  readonly key: string;
  readonly touches: readonly string[] | 'everything';
}

/** An SDK endpoint's state: one side of one client's session. */
const endpoint = (side: Side, client: number) => `endpoint:${side}:${client}`;
/** The head of the link into `side` on `conn` (memory profile). */
const linkInto = (side: Side, conn: number) => `link:${conn}:→${side}`;
/** The http profile's event store, shared by every session when resumability is on. */
const EVENT_STORE = 'http:event-store';

/**
 * The footprint of `action` in `world`'s current state. Why each pair of actions is independent
 * (docs/explore.md has the full table): the SDK's reaction to a delivery or a handler step runs
 * to quiescence inside the step on the endpoint it reaches, and only *appends* to that endpoint's
 * outgoing links; two steps on different endpoints therefore commute, and appending to a link's
 * tail commutes with delivering its (existing) head. What does not commute is kept dependent:
 * two steps on one endpoint, a delivery and a burst of one link, a burst and anything its sender
 * does (the burst's size would change), every timer firing (virtual time moves, and every timed
 * step after it sees another clock), closes and reconnects (they end links and wake callers).
 */
export function footprintOf(action: SimAction, world: World): Footprint {
  switch (action.kind) {
    case 'deliver': {
      const { side, conn } = action.to;
      const key = `deliver:${conn}:→${side}`;
      // An end of stream closes the transport, drains its link and may enable a reconnect.
      if (action.to.incoming.peek()?.kind !== 'frame') return { key, touches: 'everything' };
      const client = world.clientOf(conn);
      return { key, touches: [endpoint(side, client), linkInto(side, conn)] };
    }
    case 'burst': {
      const { side, conn } = action.to;
      const client = world.clientOf(conn);
      const sender: Side = side === 'client' ? 'server' : 'client';
      return { key: `burst:${conn}:→${side}×${action.size}`, touches: [endpoint(side, client), linkInto(side, conn), endpoint(sender, client)] };
    }
    case 'http': {
      const { exchange, dir } = action.delivery;
      const client = exchange.connection.clientIndex;
      const name = `${exchange.conn}#${world.http!.ordinalOf(exchange)}`;
      // A request (or disconnect) reaches the session's server; a response head, SSE event or end
      // reaches its client. Both directions of one exchange share its state, so they are dependent.
      const touches = [endpoint(dir === 'up' ? 'server' : 'client', client), `exchange:${name}`];
      if (world.http?.mode.eventStore) touches.push(EVENT_STORE);
      return { key: `http:${name}:${dir}`, touches };
    }
    case 'step':
      const { side, conn, id, index } = action.gate;
      return { key: `gate:${side}:${conn}:${String(id)}:${index}`, touches: [endpoint(action.gate.side, world.clientOf(action.gate.conn))] };
    case 'caller':
      return { key: `caller:${action.index}`, touches: callerTouches(action.action, world) };
    case 'timer':
      return { key: `timer:${action.timer.label}@${action.timer.atMs}`, touches: 'everything' };
  }
}

/**
 * A caller action touches the endpoints it calls through. Callers wait for every handshake
 * (`World.callerEnabled`); that is enabling, which the explorer orders by itself (the step after
 * which the caller became enabled happens before it), and nothing but a reconnect disables them.
 */
function callerTouches(action: CallerAction, world: World): Footprint['touches'] {
  switch (action.kind) {
    case 'call':
      return [endpoint(methodSender[action.method], action.client ?? 0)];
    case 'abort': {
      // The signal cancels every call made with it, from whichever side made it.
      const users = world.scenario.actions.flatMap((a) =>
        a.kind === 'call' && a.options.signal === action.signal ? [endpoint(methodSender[a.method], a.client ?? 0)] : [],
      );
      return users.length > 0 ? users : [endpoint('client', 0)];
    }
    default:
      return 'everything';
  }
}

/**
 * Two actions are dependent when they may not commute: one of them touches everything, or both
 * touch one resource. Steps of one process are ordered by program order, not by this relation.
 */
export function dependent(a: Footprint, b: Footprint): boolean {
  if (a.touches === 'everything' || b.touches === 'everything') return true;
  return a.touches.some((r) => (b.touches as readonly string[]).includes(r));
}
