import { setup } from 'xstate';
import { MachineStepper } from './requestMachine.ts';

/** What the session machine hears: the handshake settling, each side observing its close. */
export type SessionEvent = { type: 'READY' } | { type: 'FAILED' } | { type: 'CLOSE_CLIENT' } | { type: 'CLOSE_SERVER' };

/**
 * One connection as both sides observe it: connecting until the handshake settles, open, then
 * each side observes its close once (`CLOSE_CLIENT`, `CLOSE_SERVER`). A second close
 * observation by the same side is refused (`lifecycle.close-once`). The two id namespaces of
 * the connection (client-sent, server-sent requests) live beside it in the walker (`walker.ts`).
 */
export const sessionMachine = setup({
  types: {
    events: {} as SessionEvent,
  },
}).createMachine({
  id: 'session',
  initial: 'connecting',
  states: {
    connecting: { on: { READY: 'open', FAILED: 'open', CLOSE_CLIENT: 'clientClosed', CLOSE_SERVER: 'serverClosed' } },
    open: { on: { CLOSE_CLIENT: 'clientClosed', CLOSE_SERVER: 'serverClosed' } },
    clientClosed: { on: { CLOSE_SERVER: 'closed', READY: 'clientClosed', FAILED: 'clientClosed' } },
    serverClosed: { on: { CLOSE_CLIENT: 'closed', READY: 'serverClosed', FAILED: 'serverClosed' } },
    closed: { on: { READY: 'closed', FAILED: 'closed' } },
  },
});

export const sessionStepper = /* @__PURE__ */ new MachineStepper(sessionMachine);
