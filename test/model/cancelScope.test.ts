import { describe, expect, it } from 'vitest';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';
import { judged } from './fixtures.ts';
import { connect, crossing, end, request, steps } from './handTrace.ts';

const ids = (trace: readonly TraceEvent[]) => judged(trace).map((f) => f.invariant);
const cancel = (requestId: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });

/** Two sessions (connections 1 and 2, clients 0 and 1); request 7 runs on session 1; a cancel naming 7 arrives on `conn`, and the step's other events. */
function cancelOn(conn: number, then: TraceEventBody[]): TraceEvent[] {
  return steps(
    [connect(1), connect(2, 1)],
    [...crossing('client', 1, request(7, 'tools/call', { name: 'gate', arguments: {} }), 1), { kind: 'handler-start', side: 'server', conn: 1, id: 7, method: 'tools/call' }],
    [...crossing('client', 2, cancel(7), conn), ...then],
    [end],
  );
}
const abort: TraceEventBody = { kind: 'handler-abort', side: 'server', conn: 1, id: 7, reason: 'cancelled' };
const ends: TraceEventBody = { kind: 'handler-end', side: 'server', conn: 1, id: 7, outcome: 'aborted' };

describe('a cancel reaches only its own session', () => {
  it('cancel.same-session: fires on a cancel posted on session 2 that aborts session 1\'s request 7 / silent on the same cancel on session 1', () => {
    expect(ids(cancelOn(2, [abort, ends]))).toContain('cancel.same-session');
    expect(ids(cancelOn(1, [abort, ends]))).not.toContain('cancel.same-session');
    // Session 2's cancel left alone: nothing crossed (the handler runs on; liveness judges that).
    expect(ids(cancelOn(2, []))).not.toContain('cancel.same-session');
  });
});
