import fc from 'fast-check';
import { scenarioArbitrary } from '../../src/workload/scenarioArbitrary.ts';
import type { HttpMode, Scenario } from '../../src/sim/scenario.ts';

const modeArb: fc.Arbitrary<HttpMode> = fc.record({
  stateful: fc.boolean(),
  response: fc.constantFrom('json' as const, 'sse' as const),
  eventStore: fc.boolean(),
});

/** `count` varied http-profile scenarios with tapes, the same ones every time (fixed seed). */
export function variedHttpRuns(count: number, seed = 42): { scenario: Scenario; tape: number[] }[] {
  return fc.sample(
    fc.record({
      // Memory scenarios moved onto http: a fresh `Client` is memory-only, so those reconnect the same one.
      scenario: fc
        .tuple(scenarioArbitrary({ actionsMax: 5, stepsMax: 3 }), modeArb)
        .map(([s, http]): Scenario => ({ ...s, actions: s.actions.map((a) => (a.kind === 'reconnect' && a.fresh ? { kind: 'reconnect' } : a)), profile: 'http', http })),
      tape: fc.array(fc.nat({ max: 5 }), { maxLength: 40 }),
    }),
    { seed, numRuns: count },
  );
}
