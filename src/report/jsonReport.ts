import { shrunkFrom, type CampaignReport, type FindingSummary } from '../campaign/runCampaign.ts';
import type { ReleaseFit } from '../campaign/fitRelease.ts';
import { causeName, type Verdict } from '../campaign/verdict.ts';
import { replayCaseCommand, replayFileCommand, type MadeWith } from '../options/replayCaseCommand.ts';
import { formatTrace } from '../sim/index.ts';
import { toMermaid } from './mermaid.ts';

/**
 * The version of the `--json` report's shape (`schemas/report.schema.json`,
 * `docs/report-format.md`): raised when a field changes meaning or goes away, not when one is added.
 */
export const REPORT_SCHEMA_VERSION = 1;

/** What the JSON report says besides the campaign report. */
export interface JsonReportContext {
  readonly verdict: Verdict;
  readonly madeWith: MadeWith;
  readonly failOn: string;
  readonly strictCauses: boolean;
  readonly exitCode: number;
  readonly replayFiles: ReadonlyMap<string, string>;
  /** The `--sdk` folder to repeat in replay commands, when not the installed release. */
  readonly sdkArg?: string;
  /** What the campaign left out for the release, and what it runs with a limit (`fitToRelease`). */
  readonly fitted?: ReleaseFit;
}

/**
 * A campaign as `check --json` writes it: the documented reading view (`schemaVersion`, tool and
 * SDK, options, verdict and exit code, the findings split into `violations`, `warnings` and
 * `notes` with their replay commands and minimal cases, coverage), followed by the campaign
 * report itself, which `mcp-sim merge` reads back from the shards.
 */
export function jsonReport(report: CampaignReport, ctx: JsonReportContext): Record<string, unknown> {
  const failing = new Set(ctx.verdict.fresh.map((f) => f.invariant));
  const entry = (f: FindingSummary) => {
    const file = ctx.replayFiles.get(f.invariant);
    const cx = f.counterexample;
    return {
      invariant: f.invariant,
      level: f.example.level,
      section: f.example.section,
      message: (f.fresh?.example ?? f.example).message,
      runs: f.runs,
      firstCase: f.firstCase,
      cause: !f.fresh ? 'known' : f.fresh.runs === f.runs ? 'new' : 'new-cause-of-known',
      failsCheck: failing.has(f.invariant),
      ...(f.fresh && { newCause: { runs: f.fresh.runs, firstCase: f.fresh.firstCase, inBaselineCampaign: f.fresh.inBaselineCampaign } }),
      replay: {
        command: replayCaseCommand(report.seed, shrunkFrom(f), report.workload, { expect: f.invariant, madeWith: ctx.madeWith, ...(ctx.sdkArg && { sdk: ctx.sdkArg }) }),
        ...(file && { file, fileCommand: replayFileCommand(file, ctx.sdkArg) }),
      },
      ...(cx && { minimalCase: { case: cx.case, trace: formatTrace(cx.result.trace), mermaid: toMermaid(cx.result.trace, { skipHandshake: true }) } }),
    };
  };
  const bySeverity = (s: FindingSummary['example']['severity']) => report.findings.filter((f) => f.example.severity === s).map(entry);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'campaign',
    tool: ctx.madeWith.tool,
    sdk: ctx.madeWith.sdk,
    options: {
      seed: report.seed,
      runs: report.planned ?? report.runs,
      profiles: report.workload.profiles,
      workload: report.workload,
      failOn: ctx.failOn,
      strictCauses: ctx.strictCauses,
      selfCheck: report.selfCheck ?? false,
      shrink: report.shrink ?? false,
      ...(ctx.sdkArg && { sdkFolder: ctx.sdkArg }),
      ...(ctx.fitted && ctx.fitted.leftOut.length > 0 && { leftOut: ctx.fitted.leftOut }),
      ...(ctx.fitted && ctx.fitted.limits.length > 0 && { limits: ctx.fitted.limits }),
    },
    durationMs: report.wallMs,
    verdict: {
      result: ctx.verdict.failed ? 'fail' : 'pass',
      exitCode: ctx.exitCode,
      beyondBaseline: ctx.verdict.fresh.map((f) => f.invariant),
      moreOften: ctx.verdict.regressions.map((r) => causeName(r.cause)),
      unconfirmedNewCauses: ctx.verdict.unconfirmed.map((f) => f.invariant),
      nondeterministic: report.nondeterministic,
    },
    violations: bySeverity('violation'),
    warnings: bySeverity('warning'),
    notes: bySeverity('note'),
    ...report,
  };
}
