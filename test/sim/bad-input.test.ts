import { describe, expect, it } from 'vitest';
import { runScenario, ScenarioError, type Scenario } from '../../src/sim/index.ts';
import { cancelRace } from './fixtures.ts';

const withSleep = (ms: number): Scenario => ({
  ...cancelRace(),
  handlers: { tool: { steps: [{ kind: 'sleep', ms }], end: { kind: 'result' }, onAbort: 'honour' } },
});

describe('runScenario: bad input is rejected with a clear error', () => {
  it('rejects a negative delay, naming the field', async () => {
    await expect(runScenario(withSleep(-5))).rejects.toThrow(
      new ScenarioError('scenario.handlers.tool.steps[0].ms', 'must be a finite number of ms ≥ 0, got -5'),
    );
  });

  it('rejects an unknown tool, listing the known ones', async () => {
    const s: Scenario = { ...cancelRace(), actions: [{ kind: 'call', call: 'c1', method: 'tools/call', handler: 'nope', options: {} }] };
    await expect(runScenario(s)).rejects.toThrow(/scenario\.actions\[0\]\.handler names an unknown handler \(tool\) "nope"; known: tool/);
  });

  it('rejects a tape with a non-integer', async () => {
    await expect(runScenario(cancelRace(), { tape: [0, 1.5] })).rejects.toThrow(/tape\[1\] must be a natural \(integer ≥ 0\), got 1.5/);
  });

  it('rejects a negative timeout, an abort of an unused signal, and a non-object scenario', async () => {
    const timeout: Scenario = { ...cancelRace(), actions: [{ kind: 'call', call: 'c1', method: 'tools/call', handler: 'tool', options: { timeoutMs: -1 } }] };
    await expect(runScenario(timeout)).rejects.toThrow(/options\.timeoutMs/);
    const abort: Scenario = { ...cancelRace(), actions: [{ kind: 'abort', signal: 'ghost' }] };
    await expect(runScenario(abort)).rejects.toThrow(/no earlier call uses/);
    await expect(runScenario(null as unknown as Scenario)).rejects.toThrow(/scenario must be an object/);
  });
});
