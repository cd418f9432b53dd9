import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/sim/trace.ts';
import { formatTrace } from '../../src/sim/trace.ts';
import { cancelScenario, runHttp } from './helpers.ts';

const delivered = (t: readonly TraceEvent[], method: string) =>
  t.findIndex((e) => e.kind === 'deliver' && e.to === 'server' && JSON.stringify(e.frame).includes(`"method":"${method}"`));

describe('http: POSTs are independent exchanges (stateful, sse)', () => {
  it('should let a cancel overtake its request, which then runs to completion', async () => {
    const scenario = cancelScenario({ stateful: true, response: 'sse', eventStore: false }, true);
    // Natural order up to the call, then: abort before the request is delivered, then the cancel first.
    let found: Awaited<ReturnType<typeof runHttp>> | undefined;
    for (let s = 0; s < 20 && !found; s++) {
      const run = await runHttp(scenario, { tape: [...Array(s).fill(0), 1, 1] });
      const t = run.result.trace;
      if (delivered(t, 'notifications/cancelled') >= 0 && delivered(t, 'notifications/cancelled') < delivered(t, 'tools/call')) found = run;
    }
    expect(found).toBeDefined();
    const t = found!.result.trace;
    // The server had no such request yet: the cancel is dropped, the handler later runs to its end.
    expect(t.filter((e) => e.kind === 'handler-end'), formatTrace(t)).toMatchObject([{ outcome: 'result' }]);
    expect(t.some((e) => e.kind === 'handler-abort')).toBe(false);
    // Its POST completes normally, and the client, which gave the call up, drops the answer.
    expect(found!.findings).toEqual([]);
    expect(t.some((e) => e.kind === 'onerror' && e.message.includes('unknown message ID'))).toBe(true);
  });

  it('should describe every HTTP delivery by meaning in the action log', async () => {
    const { result } = await runHttp(cancelScenario({ stateful: true, response: 'sse', eventStore: true }, false));
    const actions = result.trace.filter((e) => e.kind === 'action').map((e) => (e as { action: string }).action);
    expect(actions).toContainEqual(expect.stringMatching(/^http →server #\d+ POST tools\/call id=1$/));
    expect(actions).toContainEqual(expect.stringMatching(/^http →client #\d+ response 200 sse$/));
    expect(actions).toContainEqual(expect.stringMatching(/^http →client #\d+ sse priming id=e\d+$/));
    expect(actions).toContainEqual(expect.stringMatching(/^http →client #\d+ sse \[\d+\] result id=1$/));
    expect(actions).toContainEqual(expect.stringMatching(/^http →client #\d+ sse end$/));
  });
});
