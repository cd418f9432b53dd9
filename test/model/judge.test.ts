import { describe, expect, it } from 'vitest';
import { runChecked } from '../../src/check/index.ts';
import { judge } from '../../src/model/judge.ts';
import type { SdkFacts } from '../../src/sdk/facts.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import { endState as snapshotEnd, type EndState } from '../../src/sim/endState.ts';
import { runScenario } from '../../src/sim/runScenario.ts';
import type { Scenario } from '../../src/sim/scenario.ts';
import { call, fault, handler, scenario } from './fixtures.ts';

/** Runs without the checked runner: the trace and the end state, nothing judged yet. */
async function runBare(s: Scenario) {
  let end: EndState | undefined;
  const result = await runScenario(s, { atEnd: (world) => (end = snapshotEnd(world)) });
  return { trace: result.trace, end: end! };
}

/** SDK 1.32.2's seed issue: a cancelled call's POST never gets its JSON body. */
const cancelledOverHttp: Scenario = {
  profile: 'http',
  http: { stateful: true, response: 'json', eventStore: false },
  handlers: { sleeper: { steps: [{ kind: 'sleep', ms: 1000 }], end: { kind: 'result' }, onAbort: 'honour' } },
  actions: [
    { kind: 'call', call: 'c1', method: 'tools/call', handler: 'sleeper', options: { signal: 'a' } },
    { kind: 'abort', signal: 'a' },
  ],
};

describe('judge', () => {
  it('reports HTTP findings on its own, with the end state\'s open exchanges', async () => {
    const { trace, end } = await runBare(cancelledOverHttp);
    const findings = judge(trace, end, { facts: v1Facts });
    expect(findings.filter((f) => f.invariant === 'http.exchange-completes')).toMatchObject([{ severity: 'violation', request: 'c1' }]);
    // The checked runner adds nothing of its own.
    expect((await runChecked(cancelledOverHttp)).findings).toEqual(findings);
  });

  it('runs the trace-only HTTP checks without an end state, and skips the ones that need it', async () => {
    const { trace } = await runBare(cancelledOverHttp);
    expect(judge(trace, undefined, { facts: v1Facts }).map((f) => f.invariant)).not.toContain('http.exchange-completes');
  });

  it('reads the SDK\'s error texts from the facts: a timeout it cannot recognise sends no cancel due', async () => {
    const s = scenario({ h: handler([], 'hang') }, [call('c1', 'h', { timeoutMs: 100 })], [fault('client', 'drop-outgoing-cancel')]);
    const { trace, end } = await runBare(s);
    expect(judge(trace, end, { facts: v1Facts }).map((f) => f.invariant)).toContain('timeout.sends-cancel');
    const otherRelease: SdkFacts = { ...v1Facts, errorText: { ...v1Facts.errorText, requestTimeout: /Zeitüberschreitung/ } };
    expect(judge(trace, end, { facts: otherRelease }).map((f) => f.invariant)).not.toContain('timeout.sends-cancel');
  });

  it('finds correlation maps by the facts\' field names and skips a map the release lacks', async () => {
    const s = scenario({ h: handler() }, [call('c1', 'h', { onprogress: true })], [fault('server', 'task-shaped-result')]);
    const { trace, end } = await runBare(s);
    const leaks = (facts: SdkFacts) => judge(trace, end, { facts }).filter((f) => f.invariant === 'leak.correlation-maps');
    expect(leaks(v1Facts).map((f) => f.message)).toContainEqual(expect.stringContaining('_progressHandlers'));
    const renamed: SdkFacts = { ...v1Facts, correlationMaps: { ...v1Facts.correlationMaps, progressHandlers: '_progressHandlerMap' } };
    expect(leaks(renamed).map((f) => f.message)).not.toContainEqual(expect.stringContaining('_progressHandler'));
  });

  it('reads the default timeout from the facts', async () => {
    // A call without a timeout of its own, on a hanging handler: the SDK rejects it at its default.
    const { trace, end } = await runBare(scenario({ h: handler([], 'hang') }, [call('c1', 'h')]));
    const bound = (facts: SdkFacts) => judge(trace, end, { facts }).find((f) => f.invariant === 'timeout.settles')?.message;
    expect(bound(v1Facts)).toBeUndefined();
    expect(bound({ ...v1Facts, defaultRequestTimeoutMs: 5 })).toMatch(/settled at 60000 ms, after its timeout bound of 5 ms/);
  });
});
