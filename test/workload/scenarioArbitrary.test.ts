import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCallerAction, initialCallerState, isLegal, legalCallerActions } from '../../src/model/callerLegality.ts';
import { DEFAULT_ACTIONS_MAX, DEFAULT_STEPS_MAX } from '../../src/options/index.ts';
import type { Scenario } from '../../src/sim/index.ts';
import { scenarioArbitrary } from '../../src/workload/index.ts';

/**
 * Whether every action of `s` is legal for a caller after the ones before it. A broken stream
 * (`http-drop`) is a network fault, not a caller's action: the caller model does not govern it.
 */
function legalThroughout(s: Scenario): boolean {
  let state = initialCallerState(s.http?.clients ?? 1);
  for (const a of s.actions) {
    if (a.kind === 'http-drop' ? s.profile !== 'http' : !isLegal(a, legalCallerActions(state))) return false;
    state = applyCallerAction(state, a);
  }
  return true;
}

describe('scenarioArbitrary', () => {
  it('generates only scenarios the caller legality model accepts, action by action', () => {
    const scenarios = fc.sample(scenarioArbitrary({ profiles: ['memory', 'http'], actionsMax: 8 }), { seed: 17, numRuns: 4_000 });
    expect(scenarios.filter((s) => !legalThroughout(s))).toEqual([]);
    // The interesting actions occur, so the check above is not vacuous.
    const kinds = new Set(scenarios.flatMap((s) => s.actions.map((a) => `${a.kind}${'client' in a && a.client ? `@${a.client}` : ''}`)));
    expect([...kinds].sort()).toEqual(['abort', 'call', 'call@1', 'close', 'close@1', 'http-drop', 'http-drop@1', 'reconnect', 'reconnect@1']);
  });

  it('a scenario with an illegal action is caught by the check (an abort before any call uses the signal)', () => {
    const s: Scenario = { profile: 'memory', handlers: {}, actions: [{ kind: 'abort', signal: 'a' }] };
    expect(legalThroughout(s)).toBe(false);
  });

  it('keeps within its bounds, with the defaults of src/options/defaults.ts', () => {
    for (const s of fc.sample(scenarioArbitrary(), { seed: 3, numRuns: 500 })) {
      expect(s.profile).toBe('memory');
      expect(s.actions.length).toBeLessThanOrEqual(DEFAULT_ACTIONS_MAX);
      for (const h of Object.values(s.handlers)) expect(h.steps.length).toBeLessThanOrEqual(DEFAULT_STEPS_MAX);
    }
    for (const s of fc.sample(scenarioArbitrary({ faults: false, serverRequests: false, actionsMax: 2 }), { seed: 3, numRuns: 500 })) {
      expect(s.actions.length).toBeLessThanOrEqual(2);
      expect(s.actions.every((a) => a.kind === 'call' ? a.method === 'tools/call' : a.kind === 'abort')).toBe(true);
    }
  });

  it('swarm: some cases pile an option onto every call, others use none, and a feature its flags turn off stays off', () => {
    const scenarios = fc.sample(scenarioArbitrary({ profiles: ['http'] }), { seed: 5, numRuns: 1_000 });
    expect(scenarios.some((s) => s.actions.some((a) => a.kind === 'http-drop'))).toBe(true);
    expect(scenarios.some((s) => s.http?.eventStore)).toBe(true);
    const calls = (s: Scenario) => s.actions.flatMap((a) => (a.kind === 'call' ? [a] : []));
    const many = scenarios.filter((s) => calls(s).length >= 3);
    expect(many.some((s) => calls(s).every((a) => a.options.maxTotalTimeoutMs !== undefined))).toBe(true);
    expect(many.some((s) => calls(s).every((a) => a.options.maxTotalTimeoutMs === undefined))).toBe(true);
    for (const s of fc.sample(scenarioArbitrary({ profiles: ['http'], faults: false, serverRequests: false }), { seed: 5, numRuns: 500 })) {
      expect(s.actions.every((a) => (a.kind === 'call' ? a.method === 'tools/call' : a.kind === 'abort'))).toBe(true);
    }
  });
});
