import { finding } from '../finding.ts';
import type { RuleFactory } from '../rule.ts';

/**
 * `harness.unhandled`: an exception or rejection escaped the system under test. The run
 * records each escape with the step that caused it; every one is a finding (no dedupe).
 * `harness.as-scripted`: the world could not drive part of the scenario as written on the SDK
 * release (it records each such part); a run that went on without it is no quiet pass.
 */
export const harnessRule: RuleFactory = (walk) => ({
  trace(e) {
    if (e.kind === 'escape') walk.flag(finding('harness.unhandled', e.i, `${e.source} escaped the system under test: ${e.error}`), false);
    if (e.kind === 'unscripted') walk.flag(finding('harness.as-scripted', e.i, `the harness could not drive ${e.part} (${e.side}) as scripted: ${e.why}`), false);
  },
});
