import { describe, expect, it } from 'vitest';
import { SideChannelError, withHandlerEvents } from '../../src/targets/testbed/index.ts';
import type { HandlerProgram } from '../../src/sim/scenario.ts';
import type { TraceEvent, TraceEventBody } from '../../src/sim/trace.ts';

const program: HandlerProgram = { steps: [{ kind: 'sleep', ms: 5 }], end: { kind: 'result' }, onAbort: 'honour' };
const trace = (...bodies: TraceEventBody[]): TraceEvent[] => bodies.map((b, i) => ({ ...b, i, step: 0, t: i }) as TraceEvent);
const stderr = (text: string): TraceEventBody => ({ kind: 'stderr', text });
const start: TraceEventBody = { kind: 'call-start', call: 'c1', from: 'client', conn: 0, method: 'tools/call', id: 2, options: {} };

describe('withHandlerEvents', () => {
  it('withHandlerEvents: side-channel lines become handler events, split across chunks (id or call)', () => {
    const out = withHandlerEvents(
      trace(start, stderr('mcp-sim-event {"event":"handler-start","id":2}\nmcp-sim-event {"event":"st'), stderr('ep","call":"c1","index":0}\nwarning: slow\nmcp-sim-event {"event":"handler-end","call":"c1","outcome":"result"}\n')),
      (id) => (id === 2 ? program : undefined),
    );
    expect(out.map((e) => (e.kind === 'stderr' ? `stderr ${e.text.trim()}` : e.kind === 'handler-step' ? `${e.kind} ${e.id} ${e.op.kind}` : `${e.kind}${'id' in e ? ` ${e.id}` : ''}`))).toEqual([
      'call-start 2',
      'handler-start 2',
      'handler-step 2 sleep',
      'stderr warning: slow',
      'handler-end 2',
    ]);
    expect(out.map((e) => e.i)).toEqual([0, 1, 2, 3, 4]);
  });

  it('withHandlerEvents: ordinary stderr stays as it is (no side channel)', () => {
    const out = withHandlerEvents(trace(stderr('Traceback (most recent call last):\n'), stderr('panic: no newline')), () => undefined);
    expect(out).toMatchObject([{ kind: 'stderr', text: 'Traceback (most recent call last):\n' }, { kind: 'stderr', text: 'panic: no newline' }]);
  });

  it.each([
    ['not JSON', 'mcp-sim-event {oops\n'],
    ['an unknown event', 'mcp-sim-event {"event":"started","id":2}\n'],
    ['neither id nor call', 'mcp-sim-event {"event":"handler-start"}\n'],
    ['a call mcp-sim never sent', 'mcp-sim-event {"event":"handler-start","call":"c9"}\n'],
    ['a step its program does not have', 'mcp-sim-event {"event":"step","id":2,"index":4}\n'],
  ])('withHandlerEvents: a line that breaks PROGRAM.md throws (%s)', (_, line) => {
    expect(() => withHandlerEvents(trace(start, stderr(line)), () => program)).toThrow(SideChannelError);
  });

  it('withHandlerEvents: a later slice of one run takes the late events of an earlier slice\'s call (a handler its SDK never cancelled)', () => {
    const late = stderr('mcp-sim-event {"event":"handler-end","call":"c1","outcome":"result"}\n');
    expect(() => withHandlerEvents(trace(late), () => program)).toThrow(SideChannelError);
    const out = withHandlerEvents(trace(late), (id) => (id === 2 ? program : undefined), new Map([['c1', 2]]));
    expect(out).toMatchObject([{ kind: 'handler-end', id: 2, outcome: 'result' }]);
  });
});
