import { idKey } from '../../model/ids.ts';
import type { Plan } from '../../real/plan.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import { programsOf } from './caseScript.ts';
import { withHandlerEvents } from './handlerEvents.ts';

/**
 * A test-bed run in the one trace format: the frames mcp-sim's client wrote and read, with the
 * bed's side channel (each handler's start, steps, observed abort and end) turned into the
 * model's own handler events (`withHandlerEvents`), so the rules that judge a simulated run judge
 * the server's side too.
 */
export function testbedTrace(raw: readonly TraceEvent[], plan: Plan): TraceEvent[] {
  const programs = programsOf(plan);
  const labelOfId = new Map<string, string>();
  for (const e of raw) if (e.kind === 'call-start' && e.id !== undefined && !labelOfId.has(idKey(e.id))) labelOfId.set(idKey(e.id), e.call);
  return withHandlerEvents(raw, (id) => {
    const label = labelOfId.get(idKey(id));
    return label === undefined ? undefined : programs.get(label);
  });
}
