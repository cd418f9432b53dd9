import { describe, expect, it } from 'vitest';
import { toolCounts, toolOfCall } from '../../../src/campaign/real/toolCounts.ts';
import type { TraceEvent } from '../../../src/sim/trace.ts';

/** A run's trace as runPlan records it: each call's start, the frame written, and how the client settled it. */
function run(calls: { label: string; id: number; tool: string; token?: boolean; settle?: 'cancel' | 'timeout' | 'close' | 'error' }[]): TraceEvent[] {
  const events: object[] = [];
  for (const c of calls) {
    events.push({ kind: 'call-start', call: c.label, from: 'client', conn: 0, method: 'tools/call', id: c.id, options: {} });
    events.push({ kind: 'send', from: 'client', conn: 0, frame: { jsonrpc: '2.0', id: c.id, method: 'tools/call', params: { name: c.tool, arguments: {}, ...(c.token && { _meta: { progressToken: `t-${c.label}` } }) } } });
  }
  const messages = { cancel: 'cancelled (client)', timeout: 'timed out (client)', close: 'connection closed (client)' };
  for (const c of calls) {
    if (c.settle === 'error') events.push({ kind: 'call-settle', call: c.label, from: 'client', outcome: 'rejected', code: -32800, message: 'cancelled (client)' });
    else if (c.settle) events.push({ kind: 'call-settle', call: c.label, from: 'client', outcome: 'rejected', message: messages[c.settle], givenUp: c.settle });
  }
  return events.map((e, i) => ({ ...e, i, t: i })) as unknown as TraceEvent[];
}

describe('toolCounts: how each tool was exercised over a campaign', () => {
  it('calls, cancels (a timeout is a give-up too), calls with a progress token, calls in flight at a close; a listed tool never called shows zeros', () => {
    const traces = [
      run([{ label: 'c1', id: 1, tool: 'resize', token: true, settle: 'cancel' }, { label: 'c2', id: 2, tool: 'count' }]),
      run([{ label: 'c1', id: 1, tool: 'resize', settle: 'timeout' }, { label: 'c2', id: 2, tool: 'resize', token: true, settle: 'close' }]),
      // A server's error answer whose message reads like a give-up is the server's answer, no cancel.
      run([{ label: 'c1', id: 1, tool: 'count', settle: 'error' }]),
    ];
    expect(toolCounts(traces, ['count', 'resize', 'idle'])).toEqual([
      { tool: 'count', calls: 2, cancels: 0, withToken: 0, closes: 0 },
      { tool: 'resize', calls: 3, cancels: 2, withToken: 2, closes: 1 },
      { tool: 'idle', calls: 0, cancels: 0, withToken: 0, closes: 0 },
    ]);
  });

  it('the tool of a call label, by the frame its call wrote', () => {
    const trace = run([{ label: 'c1', id: 7, tool: 'count' }, { label: 'c2', id: 8, tool: 'resize' }]);
    expect(toolOfCall(trace, 'c2')).toBe('resize');
    expect(toolOfCall(trace, 'c3')).toBeUndefined();
    expect(toolOfCall(trace, undefined)).toBeUndefined();
  });
});
