import { finding } from '../finding.ts';
import type { RuleFactory } from '../rule.ts';

/**
 * `harness.unhandled`: an exception or rejection escaped the system under test. The run
 * records each escape with the step that caused it; every one is a finding (no dedupe).
 */
export const harnessRule: RuleFactory = (walk) => ({
  trace(e) {
    if (e.kind === 'escape') walk.flag(finding('harness.unhandled', e.i, `${e.source} escaped the system under test: ${e.error}`), false);
  },
});
