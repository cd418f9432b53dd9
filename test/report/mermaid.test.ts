import { describe, expect, it } from 'vitest';
import { toMermaid } from '../../src/report/mermaid.ts';
import type { TraceEvent } from '../../src/sim/index.ts';

const ev = (i: number, step: number, body: Record<string, unknown>): TraceEvent => ({ i, step, t: step * 100, ...body }) as TraceEvent;
const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'h1', _meta: { progressToken: 1 } } };

const trace: TraceEvent[] = [
  ev(0, 0, { kind: 'connect', conn: 1 }),
  ev(1, 0, { kind: 'deliver', to: 'server', conn: 1, seq: 1, frame: { jsonrpc: '2.0', id: 0, method: 'initialize' }, burst: 1 }),
  ev(2, 0, { kind: 'ready', conn: 1 }),
  ev(3, 1, { kind: 'call-start', call: 'c1', from: 'client', conn: 1, method: 'tools/call', id: 1, options: {} }),
  ev(4, 1, { kind: 'deliver', to: 'server', conn: 1, seq: 2, frame: request, burst: 2 }),
  ev(5, 2, { kind: 'abort-signal', signal: 'a' }),
  ev(6, 2, { kind: 'deliver', to: 'client', conn: 1, seq: 3, frame: { jsonrpc: '2.0', id: 1, result: {} }, burst: 1 }),
  ev(7, 3, { kind: 'drop', to: 'server', conn: 1, seq: 4, frame: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'x;y' } } }),
  ev(8, 3, { kind: 'onerror', side: 'client', message: 'Unknown message; id #1; ignored' }),
  ev(9, 3, { kind: 'call-settle', call: 'c1', from: 'client', outcome: 'rejected', code: -32001 }),
  ev(10, 4, { kind: 'escape', source: 'action', error: 'boom; again' }),
  ev(11, 4, { kind: 'end', outcome: 'quiescent' }),
];

describe('toMermaid', () => {
  it('declares both participants and draws deliveries as arrows in their direction', () => {
    const lines = toMermaid(trace).split('\n');
    expect(lines.slice(0, 3)).toEqual(['sequenceDiagram', '  participant Client', '  participant Server']);
    expect(lines).toContain('  Client->>Server: initialize id=0');
    expect(lines).toContain('  Client->>Server: tools/call id=1 token=1 (burst)');
    expect(lines).toContain('  Server->>Client: result id=1');
  });

  it('draws caller actions, settlements and the end as notes', () => {
    const lines = toMermaid(trace).split('\n');
    expect(lines).toContain('  Note over Client: t=100 call c1 tools/call');
    expect(lines).toContain('  Note over Client,Server: t=200 caller aborts signal a');
    expect(lines).toContain('  Note over Client: call c1 rejected (-32001)');
    expect(lines).toContain('  Note over Client,Server: t=400 quiescent (quiescent)');
  });

  it('with skipHandshake, starts after the ready event', () => {
    const text = toMermaid(trace, { skipHandshake: true });
    expect(text).not.toContain('initialize');
    expect(text).toContain('tools/call id=1');
  });

  it('keeps semicolons out of messages (Mermaid ends a message at ";" and reads "#…;" as an entity)', () => {
    const lines = toMermaid(trace).split('\n');
    expect(lines).toContain('  Note over Server: lost in flight: notifications/cancelled requestId="x,y"');
    expect(lines).toContain('  Note over Client: onerror: Unknown message, id #1, ignored');
    expect(lines).toContain('  Note over Client,Server: ESCAPE boom, again');
    expect(lines.filter((l) => l.includes(';'))).toEqual([]);
  });
});
