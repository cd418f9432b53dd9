import type { HandlerProgram, Scenario } from '../../src/sim/index.ts';

/** A tool reporting two progress steps, then answering. */
export const twoProgressTool: HandlerProgram = {
  steps: [
    { kind: 'progress', progress: 1, total: 2 },
    { kind: 'progress', progress: 2, total: 2 },
  ],
  end: { kind: 'result' },
  onAbort: 'honour',
};

/** One tools/call with progress and an abortable signal, then the caller aborts it. */
export function cancelRace(program: HandlerProgram = twoProgressTool): Scenario {
  return {
    profile: 'memory',
    handlers: { tool: program },
    actions: [
      { kind: 'call', call: 'c1', method: 'tools/call', handler: 'tool', options: { onprogress: true, signal: 'sig' } },
      { kind: 'abort', signal: 'sig' },
    ],
  };
}
