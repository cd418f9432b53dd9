import { shrunkFrom, type CampaignReport, type FindingSummary } from '../campaign/runCampaign.ts';
import { causeName, type Verdict } from '../campaign/verdict.ts';
import { replayCaseCommand, type MadeWith } from '../options/replayCaseCommand.ts';
import { invariantCases, junitSuite } from './junitSuite.ts';

/** What the JUnit report needs besides the campaign report: its verdict and what made it. */
export interface JUnitContext {
  readonly verdict: Verdict;
  readonly madeWith: MadeWith;
  /** The `--sdk` folder to repeat in replay commands, when not the installed release. */
  readonly sdkArg?: string;
}

/**
 * A campaign as JUnit XML, for CI tools that read test reports: one test suite per campaign, one
 * test case per invariant of the catalogue (class `mcp-sim.<family>`). A case fails when the
 * campaign's verdict fails on that invariant (a new finding or cause at the `--fail-on` level, a
 * known cause firing more often); its message is the finding's and its body the replay command.
 * A known finding passes, with its counts in the case's output, so the report says what was seen.
 */
export function junitReport(report: CampaignReport, ctx: JUnitContext): string {
  const sdk = `${ctx.madeWith.sdk.name}@${ctx.madeWith.sdk.version}`;
  const { builder, suite } = junitSuite(`mcp-sim check seed=${report.seed} on ${sdk}`, report.wallMs / 1000, ctx.madeWith, {
    seed: String(report.seed),
    runs: String(report.runs),
  });
  const fresh = new Set(ctx.verdict.fresh.map((f) => f.invariant));
  invariantCases(suite, (id, testCase) => {
    if (id === 'harness.deterministic' && report.nondeterministic.length > 0) {
      testCase.failure(`cases ${report.nondeterministic.join(', ')} gave another trace hash on a second run`, 'nondeterministic');
      return;
    }
    const found = report.findings.find((f) => f.invariant === id);
    const regressions = ctx.verdict.regressions.filter((r) => r.cause.invariant === id);
    if (found && fresh.has(id)) {
      const example = found.fresh?.example ?? found.example;
      testCase.failure(`${example.message}${found.fresh && found.fresh.runs < found.runs ? ' (a new cause of a known invariant)' : ''}`, 'new-finding').stacktrace(details(found, report, ctx));
    } else if (regressions.length > 0) {
      const r = regressions[0]!;
      testCase.failure(`${causeName(r.cause)} fired in ${r.runs} of ${r.of} runs; the baseline predicts ${r.expected.toFixed(1)} (p = ${r.pValue.toExponential(1)})`, 'rate');
    } else if (found) {
      testCase.standardOutput(`known: found in ${found.runs} of ${report.runs} runs, first in case ${found.firstCase}: ${found.example.message}`);
    }
  });
  return builder.build();
}

function details(f: FindingSummary, report: CampaignReport, ctx: JUnitContext): string {
  const replay = replayCaseCommand(report.seed, shrunkFrom(f), report.workload, { expect: f.invariant, madeWith: ctx.madeWith, ...(ctx.sdkArg && { sdk: ctx.sdkArg }) });
  return [`found in ${f.runs} of ${report.runs} runs; first in case ${f.firstCase}`, ...(f.fresh ? [`new cause in ${f.fresh.runs} of them, first in case ${f.fresh.firstCase}`] : []), `replay: ${replay}`].join('\n');
}
