import { describe, expect, it } from 'vitest';
import { conductOf } from '../../src/model/conduct.ts';
import { judge } from '../../src/model/judge.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import { connect, crossing, deliver, end, resultOf, send, steps } from './handTrace.ts';

/** A rogue client writes a request without jsonrpc (its own breach); the server answers it twice with a result (its own: twice, and not -32600). */
const trace = steps(
  [connect()],
  [...crossing('client', 1, { id: 1, method: 'tools/call', params: { name: 'echo' } }), send('server', 2, resultOf(1)), send('server', 3, resultOf(1))],
  [deliver('client', 2, resultOf(1)), deliver('client', 3, resultOf(1))],
  [end],
);

describe('judge with a rogue side: whose conduct a finding blames', () => {
  it('keeps only the findings of the side under test: the rogue\'s own breaches are the point of its run', () => {
    const all = judge(trace, undefined, { facts: v1Facts });
    expect(all.map((f) => [f.invariant, conductOf(f, trace)])).toEqual(expect.arrayContaining([['rpc.well-formed', 'client'], ['rpc.single-response', 'server']]));
    expect(judge(trace, undefined, { facts: v1Facts, rogue: 'client' }).map((f) => f.invariant)).toEqual(['rpc.error-code', 'rpc.single-response']);
    expect(judge(trace, undefined, { facts: v1Facts, rogue: 'server' }).map((f) => f.invariant)).not.toContain('rpc.single-response');
  });

  it('reads the subjects before the event, places by the event only given the trace, and leaves a finding of no side (an escape, the run\'s end) to neither', () => {
    const f = { invariant: 'rpc.survives-bad-input', level: 'DERIVED', severity: 'violation', section: 's', at: 1, message: 'm' } as const;
    expect(conductOf({ ...f, subjects: { side: 'server' } }, trace)).toBe('server');
    expect(conductOf(f, trace)).toBe('client');
    expect(conductOf(f)).toBeUndefined();
    // Receiver conduct: the subjects name the request's sender, the finding blames its peer.
    expect(conductOf({ ...f, invariant: 'cancel.handler-aborted', subjects: { sender: 'client' } }, trace)).toBe('server');
    expect(conductOf({ ...f, at: trace.length - 1 }, trace)).toBeUndefined();
  });
});
