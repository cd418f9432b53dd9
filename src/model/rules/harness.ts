import { finding } from '../finding.ts';
import type { RuleFactory } from '../rule.ts';

/**
 * `harness.unhandled`: an exception or rejection escaped the system under test. The run
 * records each escape with the step that caused it; every one is a finding (no dedupe).
 * `harness.as-scripted`: the world could not drive part of the scenario as written on the SDK
 * release (it records each such part); a run that went on without it is no quiet pass.
 * `harness.offline`: a hosted server's code tried real I/O, which the run stopped (once per kind).
 */
export const harnessRule: RuleFactory = (walk) => {
  const blocked = new Set<string>();
  return {
    trace(e) {
      if (e.kind === 'escape') walk.flag(finding('harness.unhandled', e.i, `${e.source} escaped the system under test: ${e.error}`), false);
      if (e.kind === 'unscripted') walk.flag(finding('harness.as-scripted', e.i, `the harness could not drive ${e.part} (${e.side}) as scripted: ${e.why}`), false);
      if (e.kind === 'io-blocked' && !blocked.has(e.what)) {
        blocked.add(e.what);
        const by = e.id !== undefined ? `the handler of request ${String(e.id)}` : 'the server';
        walk.flag(finding('harness.offline', e.i, `${by} called ${e.what}, which a run never lets reach the real system`, e.id !== undefined ? `client:${String(e.id)}` : undefined));
      }
    },
  };
};
