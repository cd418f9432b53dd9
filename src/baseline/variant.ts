import type { Scenario } from '../sim/index.ts';

/**
 * Where a finding was seen: `memory`, or `http/<stateful|stateless>/<json|sse>`. A bug of one
 * transport mode is its own baseline entry, with its own minimal case.
 */
export function variantOf(scenario: Scenario): string {
  if (scenario.profile !== 'http') return scenario.profile;
  const mode = scenario.http ?? { stateful: true, response: 'sse' };
  return `http/${mode.stateful ? 'stateful' : 'stateless'}/${mode.response}`;
}
