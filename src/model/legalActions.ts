import type { TraceEvent } from '../sim/trace.ts';
import { legalCallerActions, type CallerState, type LegalAction } from './callerLegality.ts';
import { TraceWalker, type SessionView } from './walker.ts';

export { isLegal, type LegalAction } from './callerLegality.ts';

/** The session as the model sees it after a trace prefix (what `legalActions` takes). */
export function sessionView(trace: readonly TraceEvent[]): SessionView {
  const w = new TraceWalker();
  for (const e of trace) w.feed(e);
  return w.view();
}

/** The caller's script as far as a trace shows it: the signals its calls used and aborted, and whether it closed. */
function callerStateOf(view: SessionView): CallerState {
  const closed = view.connState === 'clientClosed' || view.connState === 'serverClosed' || view.connState === 'closed';
  return { clients: 1, signalsUsed: view.signals.map((s) => s.name), signalsAborted: view.abortedSignals, clientsClosed: closed ? [0] : [] };
}

/**
 * Caller actions a correct peer may take in `view`, so generated workloads stay inside the
 * protocol: the caller-level rules of `legalCallerActions` (which a generator applies without a
 * trace), narrowed to what makes sense at this point of the observed session: calls only on an
 * open, initialized connection (never during the handshake, so `initialize` is never
 * cancelled); an abort only of a signal not aborted before (a second abort is legal but changes
 * nothing; aborting a shared signal after one of its calls settled is legal and useful: not
 * sending a cancel for the finished request is the SDK's duty); a close only of a side whose
 * connection is open; a reconnect only once both sides observed the close.
 */
export function legalActions(view: SessionView): LegalAction[] {
  const s = view.connState;
  const aborted = new Set(view.abortedSignals);
  return legalCallerActions(callerStateOf(view)).filter((a) => {
    switch (a.kind) {
      case 'call':
        return s === 'open';
      case 'abort':
        return !aborted.has(a.signal);
      case 'close':
        return s === 'open' || s === (a.side === 'client' ? 'serverClosed' : 'clientClosed');
      case 'reconnect':
        return s === 'closed';
    }
  });
}
