import type { Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';

/**
 * A caller's close of its side, as the trace's `action` event says it: the simulator's words for
 * its scheduled caller action (`caller #3 close client`, `caller #3 client 1: close client`), which
 * a black-box run of an SDK's client writes too (its script's `close`). What a close obliges runs
 * from the side's own `close` event (the SDK observed it); the caller's action is what was asked.
 */
export function callerCloseOf(e: TraceEvent): Side | undefined {
  if (e.kind !== 'action' || !e.action.startsWith('caller #')) return undefined;
  const m = / close (client|server)$/.exec(e.action);
  return m ? (m[1] as Side) : undefined;
}

/** The `action` words of caller action `index` closing `side`. */
export const callerCloseAction = (index: number, side: Side): string => `caller #${index} close ${side}`;
