import type { CallerAction, RequestMethod, Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import { TraceWalker, type SessionView } from './oracle.ts';

/** A caller action a correct peer may take next, by kind (the generator fills in the details). */
export type LegalAction =
  | { readonly kind: 'call'; readonly from: Side; readonly methods: readonly RequestMethod[] }
  | { readonly kind: 'abort'; readonly signal: string }
  | { readonly kind: 'close'; readonly side: Side }
  | { readonly kind: 'reconnect' };

/** The session as the model sees it after a trace prefix (what `legalActions` takes). */
export function sessionView(trace: readonly TraceEvent[]): SessionView {
  const w = new TraceWalker();
  for (const e of trace) w.feed(e);
  return w.view();
}

/**
 * Caller actions a correct peer may take in `view`, so generated workloads stay inside the
 * protocol: calls only on an open, initialized connection (never during the handshake, so
 * `initialize` is never cancelled); an abort only of a signal some started call uses and not
 * aborted before (aborting a shared signal after one of its calls settled is legal for the
 * caller: not sending a cancel for the finished request is the SDK's duty); a close only of a
 * side whose connection is open; a reconnect only once both sides observed the close.
 */
export function legalActions(view: SessionView): LegalAction[] {
  const out: LegalAction[] = [];
  const s = view.connState;
  if (s === 'open') {
    out.push({ kind: 'call', from: 'client', methods: ['tools/call'] });
    out.push({ kind: 'call', from: 'server', methods: ['sampling/createMessage', 'elicitation/create', 'roots/list'] });
  }
  const aborted = new Set(view.abortedSignals);
  for (const sig of view.signals) if (!aborted.has(sig.name)) out.push({ kind: 'abort', signal: sig.name });
  if (s === 'open' || s === 'serverClosed') out.push({ kind: 'close', side: 'client' });
  if (s === 'open' || s === 'clientClosed') out.push({ kind: 'close', side: 'server' });
  if (s === 'closed') out.push({ kind: 'reconnect' });
  return out;
}

/** Whether `action` is among `legal` (for generators that draw first and filter after). */
export function isLegal(action: CallerAction, legal: readonly LegalAction[]): boolean {
  return legal.some((l) => {
    switch (action.kind) {
      case 'call':
        return l.kind === 'call' && l.methods.includes(action.method);
      case 'abort':
        return l.kind === 'abort' && l.signal === action.signal;
      case 'close':
        return l.kind === 'close' && l.side === action.side;
      case 'reconnect':
        return l.kind === 'reconnect';
      default:
        return false;
    }
  });
}
