import type { ExploreFinding, ExploreResult } from '../explore/explore.ts';
import type { MadeWith } from '../options/replayCaseCommand.ts';
import type { ExploreTextContext } from './exploreText.ts';
import { scopeLines } from './exploreText.ts';
import { invariantCases, junitSuite } from './junitSuite.ts';

/** What the JUnit report of an exploration needs besides the result. */
export interface ExploreJUnitContext extends ExploreTextContext {
  readonly madeWith: MadeWith;
}

/** One line per cause: where it showed and its 1-minimal schedule, then its replay command. */
function causeLines(f: ExploreFinding, ctx: ExploreTextContext): string[] {
  const replay = ctx.replays.get(f.cause);
  return [`${f.cause}: in ${f.schedules} schedule(s); 1-minimal schedule with ${f.deviations} deviation(s), tape [${f.tape.join(',')}]`, ...(replay ? [`replay: ${replay}`] : [])];
}

/**
 * An exploration as JUnit XML, like `check`'s: one test suite, one test case per invariant of the
 * catalogue. A case fails when a cause of its invariant fails the exploration (beyond the
 * baseline at `--fail-on`), its message the finding's and its body each failing cause with its
 * replay command; causes that do not fail are in the case's output. The suite's properties carry
 * the exploration's numbers, and the case `mcp-sim.explore/scope` says whether it was exhaustive:
 * skipped (not failed, as the exit code does not fail) when a bound cut it, with what was cut.
 * `harness.deterministic` is skipped: explore runs each schedule once.
 */
export function exploreJunitReport(r: ExploreResult, ctx: ExploreJUnitContext): string {
  const sdk = `${ctx.madeWith.sdk.name}@${ctx.madeWith.sdk.version}`;
  const { builder, suite } = junitSuite(`mcp-sim explore ${ctx.source} on ${sdk}`, r.ms / 1000, ctx.madeWith, {
    source: ctx.source,
    reduction: r.reduced ? 'dpor' : 'none',
    seed: String(r.seed),
    'depth-max': String(r.depthMax),
    'runs-max': String(r.runsMax),
    'schedules-explored': String(r.stats.schedules),
    pruned: String(r.stats.pruned),
    'stopped-asleep': String(r.stats.sleepBlocked),
    'not-explored': String(r.stats.unexplored),
    'depth-cut': String(r.depthCut),
    'time-cut': String(r.timeCut),
    'distinct-traces': String(r.traces),
    'distinct-end-states': String(r.endStates.length),
    complete: String(r.complete),
  });
  invariantCases(suite, (id, testCase) => {
    if (id === 'harness.deterministic') {
      testCase.skipped().standardOutput('not judged by explore: each schedule runs once (check --self-check runs cases twice)');
      return;
    }
    const causes = r.findings.filter((f) => f.invariant === id);
    const failing = causes.filter((f) => f.failing);
    if (failing.length > 0) {
      const more = failing.length > 1 ? ` (and ${failing.length - 1} more failing cause(s))` : '';
      testCase.failure(`${failing[0]!.message}${more}`, 'new-finding').stacktrace(failing.flatMap((f) => causeLines(f, ctx)).join('\n'));
    }
    const passing = causes.filter((f) => !f.failing);
    if (passing.length > 0) {
      testCase.standardOutput(passing.map((f) => `${f.known ? 'known' : 'not failing'}: ${causeLines(f, ctx).join('; ')}`).join('\n'));
    }
  });
  const scope = suite.testCase().className('mcp-sim.explore').name('scope').standardOutput(scopeLines(r, ctx.virtualMsMax).join('\n'));
  if (!r.complete) scope.skipped();
  return builder.build();
}
