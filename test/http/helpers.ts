import { httpFindings } from '../../src/model/rules/http.ts';
import type { OpenExchange } from '../../src/sim/http/HttpNetwork.ts';
import { runScenario, type RunOptions } from '../../src/sim/runScenario.ts';
import type { HandlerProgram, HttpMode, Scenario } from '../../src/sim/scenario.ts';

/** A tool that sleeps 1 s of virtual time, then answers; honours an abort. */
export const sleeper: HandlerProgram = { steps: [{ kind: 'sleep', ms: 1000 }], end: { kind: 'result' }, onAbort: 'honour' };

/** One `tools/call` of `sleeper` with signal `a`, aborted or not, on the http profile. */
export function cancelScenario(http: HttpMode, abort: boolean): Scenario {
  return {
    profile: 'http',
    http,
    handlers: { sleeper },
    actions: [
      { kind: 'call', call: 'c1', method: 'tools/call', handler: 'sleeper', options: { signal: 'a' } },
      ...(abort ? [{ kind: 'abort' as const, signal: 'a' }] : []),
    ],
  };
}

/** Runs a scenario and returns its result, the open exchanges at the end, and the http findings. */
export async function runHttp(scenario: Scenario, options: RunOptions = {}) {
  let open: OpenExchange[] = [];
  const result = await runScenario(scenario, { ...options, atEnd: (world) => (open = world.openExchanges()) });
  return { result, open, findings: httpFindings(result.trace, open) };
}
