import type { CallerAction, RequestMethod, Side } from '../sim/scenario.ts';

/**
 * A caller action a correct caller may take next, by kind (a generator fills in the details).
 * `client` names the client of a scenario with several (http); it is absent for client 0, the
 * way `CallerAction` leaves it out.
 */
export type LegalAction =
  | { readonly kind: 'call'; readonly from: Side; readonly methods: readonly RequestMethod[]; readonly client?: number }
  | { readonly kind: 'abort'; readonly signal: string }
  | { readonly kind: 'close'; readonly side: Side; readonly client?: number }
  /** Either kind of reconnect: the same `Client` again, or a fresh one (`fresh`, memory profile). */
  | { readonly kind: 'reconnect'; readonly client?: number };

/**
 * What a caller's script has done so far, as far as the legality of its next action goes. It
 * knows the order of the caller's own actions only, not when the scheduler runs them: that is
 * what a workload generator knows. (`legalActions` narrows it with the session a trace shows.)
 */
export interface CallerState {
  /** How many clients the scenario has (`http.clients`, else 1). */
  readonly clients: number;
  /** Signals an earlier call passed, in order of first use. */
  readonly signalsUsed: readonly string[];
  /** Signals aborted so far, in order of first abort. */
  readonly signalsAborted: readonly string[];
  /** Clients whose connection the caller closed (either side) and has not reconnected since. */
  readonly clientsClosed: readonly number[];
}

/** Methods each side may call: tool calls from the client, the three server-initiated requests. */
const methodsFrom: Readonly<Record<Side, readonly RequestMethod[]>> = {
  client: ['tools/call'],
  server: ['sampling/createMessage', 'elicitation/create', 'roots/list'],
};

/** A script that has done nothing yet, over `clients` clients. */
export function initialCallerState(clients = 1): CallerState {
  if (!Number.isSafeInteger(clients) || clients < 1) throw new Error(`initialCallerState: clients must be a whole number ≥ 1, got ${clients}`);
  return { clients, signalsUsed: [], signalsAborted: [], clientsClosed: [] };
}

const onClient = (client: number) => (client > 0 ? { client } : {});

/**
 * Caller actions a correct caller may script next, in a stable order (per client: calls both
 * ways, then aborts, then closes of both sides, then reconnects):
 * - a call, always: calling on a closed connection is legal for a caller, and the SDK must reject
 *   it cleanly ("Not connected"); the script cannot know whether the close has happened yet;
 * - an abort of a signal an earlier call passed (the runner rejects others), aborted before or
 *   not: `AbortController.abort()` a second time is a no-op by the DOM spec, so it cannot make
 *   the SDK send anything, and a caller sharing a signal cannot know whether it fired already;
 * - a close of either side, closed before or not: `close()` on a closed transport is legal for a
 *   caller, and the SDK must observe the end once (`lifecycle.close-once` judges exactly that);
 * - a reconnect of a client whose connection the caller closed (either side) since its last
 *   reconnect: reconnecting an open connection would replace a live transport under the SDK.
 *   A fresh reconnect (a new `Client`, as a restarted client process) is legal exactly there
 *   too: the old `Client` is closed, and a new one numbering its requests from 0 again is what
 *   a real restarted client does to the same server.
 */
export function legalCallerActions(state: CallerState): LegalAction[] {
  const out: LegalAction[] = [];
  for (let client = 0; client < state.clients; client++) {
    out.push({ kind: 'call', from: 'client', methods: methodsFrom.client, ...onClient(client) });
    out.push({ kind: 'call', from: 'server', methods: methodsFrom.server, ...onClient(client) });
  }
  for (const signal of state.signalsUsed) out.push({ kind: 'abort', signal });
  for (let client = 0; client < state.clients; client++) {
    out.push({ kind: 'close', side: 'client', ...onClient(client) });
    out.push({ kind: 'close', side: 'server', ...onClient(client) });
  }
  for (const client of [...state.clientsClosed].sort((a, b) => a - b)) out.push({ kind: 'reconnect', ...onClient(client) });
  return out;
}

const added = <T>(list: readonly T[], item: T): readonly T[] => (list.includes(item) ? list : [...list, item]);

/**
 * The state after `action` (assumed legal: check with `isLegal`). Actions the caller model does
 * not govern (`http-post`, `http-drop`, raw network faults of the http profile) change nothing.
 */
export function applyCallerAction(state: CallerState, action: CallerAction): CallerState {
  switch (action.kind) {
    case 'call':
      return action.options.signal === undefined ? state : { ...state, signalsUsed: added(state.signalsUsed, action.options.signal) };
    case 'abort':
      return { ...state, signalsAborted: added(state.signalsAborted, action.signal) };
    case 'close':
      return { ...state, clientsClosed: added(state.clientsClosed, action.client ?? 0) };
    case 'reconnect':
      return { ...state, clientsClosed: state.clientsClosed.filter((c) => c !== (action.client ?? 0)) };
    default:
      return state;
  }
}

/** Whether `action` is among `legal` (for generators that draw first and filter after). */
export function isLegal(action: CallerAction, legal: readonly LegalAction[]): boolean {
  const sameClient = (l: { readonly client?: number }) => (l.client ?? 0) === ('client' in action ? (action.client ?? 0) : 0);
  return legal.some((l) => {
    switch (action.kind) {
      case 'call':
        return l.kind === 'call' && l.methods.includes(action.method) && sameClient(l);
      case 'abort':
        return l.kind === 'abort' && l.signal === action.signal;
      case 'close':
        return l.kind === 'close' && l.side === action.side && sameClient(l);
      case 'reconnect':
        return l.kind === 'reconnect' && sameClient(l);
      default:
        return false;
    }
  });
}
