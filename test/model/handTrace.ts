import type { Side } from '../../src/sim/scenario.ts';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';
import type { JsonValue } from '../../src/util/json.ts';

/**
 * Virtual-clock traces written by hand, one array of event bodies per scheduler step (step n at
 * virtual time n ms): what a peer the SDK cannot be made to play (a rogue) would make a trace show.
 */
export function steps(...groups: readonly (readonly TraceEventBody[])[]): TraceEvent[] {
  const out: TraceEvent[] = [];
  groups.forEach((group, s) => {
    for (const body of group) out.push({ ...body, i: out.length, step: s + 1, t: s } as TraceEvent);
  });
  return out;
}

export const connect = (conn = 1, client?: number): TraceEventBody => ({ kind: 'connect', conn, ...(client !== undefined && { client }) });
export const send = (from: Side, seq: number, frame: JsonValue, conn = 1): TraceEventBody => ({ kind: 'send', from, conn, seq, frame });
export const deliver = (to: Side, seq: number, frame: JsonValue, conn = 1): TraceEventBody => ({ kind: 'deliver', to, conn, seq, frame, burst: 1 });
/** `from` sends `frame` and it reaches the other side in the same step. */
export const crossing = (from: Side, seq: number, frame: JsonValue, conn = 1): TraceEventBody[] => [send(from, seq, frame, conn), deliver(from === 'client' ? 'server' : 'client', seq, frame, conn)];
export const end: TraceEventBody = { kind: 'end', outcome: 'quiescent' };

export const request = (id: JsonValue, method: string, params?: JsonValue): JsonValue => ({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) });
export const resultOf = (id: JsonValue): JsonValue => ({ jsonrpc: '2.0', id, result: {} });
export const errorOf = (id: JsonValue, code: number): JsonValue => ({ jsonrpc: '2.0', id, error: { code, message: 'rogue test' } });
