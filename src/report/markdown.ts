import { shrunkFrom, type CampaignReport } from '../campaign/runCampaign.ts';
import type { ReleaseFit } from '../campaign/fitRelease.ts';
import { causeName, type Verdict } from '../campaign/verdict.ts';
import { replayCaseCommand, replayFileCommand, type MadeWith } from '../options/replayCaseCommand.ts';
import { cell, findingSection, verdictHeading } from './markdownBlocks.ts';

/** What the Markdown summary needs besides the campaign report. */
export interface MarkdownContext {
  readonly verdict: Verdict;
  readonly madeWith: MadeWith;
  readonly failOn: string;
  /** The `--sdk` folder to repeat in replay commands, when not the installed release. */
  readonly sdkArg?: string;
  /** Path of the replay file written for each counterexample, by invariant. */
  readonly replayFiles?: ReadonlyMap<string, string>;
  /** What the campaign left out for the release, and what it runs with a limit (`fitToRelease`). */
  readonly fitted?: ReleaseFit;
}

/**
 * A campaign as Markdown, for a bug report, a CI job summary (`$GITHUB_STEP_SUMMARY`) or a
 * pull-request comment: the verdict first, a table row per invariant broken (new or known), the
 * rate check; then per finding (those that fail the campaign first) its message, replay commands
 * and the Mermaid sequence diagram of its minimal case (GitHub draws it); then coverage.
 */
export function markdownReport(report: CampaignReport, ctx: MarkdownContext): string {
  const sdk = `${ctx.madeWith.sdk.name}@${ctx.madeWith.sdk.version}`;
  const failing = new Set(ctx.verdict.fresh.map((f) => f.invariant));
  const lines = [
    verdictHeading('check', ctx.verdict.failed),
    '',
    `Seed ${report.seed}, ${report.runs} runs on \`${sdk}\` (${(report.wallMs / 1000).toFixed(1)} s), \`--fail-on ${ctx.failOn}\`: ` +
      `${ctx.verdict.fresh.length} finding(s) beyond the baseline, ${ctx.verdict.regressions.length} known cause(s) firing more often` +
      `${report.nondeterministic.length > 0 ? `, ${report.nondeterministic.length} nondeterministic case(s)` : ''}.`,
    '',
  ];
  for (const l of ctx.fitted?.leftOut ?? []) lines.push(`- Left out: **${cell(l.what)}**: ${cell(l.why)}`);
  for (const l of ctx.fitted?.limits ?? []) lines.push(`- Limit: **${cell(l.what)}**: ${cell(l.why)}`);
  if (ctx.fitted && ctx.fitted.leftOut.length + ctx.fitted.limits.length > 0) lines.push('');
  if (report.findings.length > 0) {
    lines.push('| | invariant | level | runs | cause | first case |', '|---|---|---|---|---|---|');
    for (const f of report.findings) {
      const mark = failing.has(f.invariant) ? '❌' : f.fresh ? '⚠️' : '·';
      const cause = !report.rates ? '' : !f.fresh ? 'known' : f.fresh.runs === f.runs ? 'new' : `new in ${f.fresh.runs}`;
      lines.push(`| ${mark} | \`${f.invariant}\` | ${f.example.level} | ${f.runs} | ${cause} | ${shrunkFrom(f)} |`);
    }
    lines.push('');
  }
  if (ctx.verdict.unconfirmed.length > 0) {
    lines.push(`⚠️ New causes of known invariants outside the baseline's own campaign (not failing; \`--strict-causes\` fails on them): ${ctx.verdict.unconfirmed.map((f) => `\`${f.invariant}\``).join(', ')}.`, '');
  }
  if (report.rates) {
    lines.push(
      report.rates.checked
        ? `Rate check: ${report.rates.checks.length} known causes compared with the baseline's rates; ${ctx.verdict.regressions.length} fire significantly more often.`
        : `Rate check: off (${cell(report.rates.why)}).`,
      '',
    );
    for (const r of ctx.verdict.regressions) {
      lines.push(`- ❌ \`${causeName(r.cause)}\`: in ${r.runs} of ${r.of} runs; the baseline predicts ${r.expected.toFixed(1)} (p = ${r.pValue.toExponential(1)})`);
    }
    if (ctx.verdict.regressions.length > 0) lines.push('');
  }
  // Failing findings first, then the known ones: each with its words, replay commands and diagram.
  const ordered = [...report.findings.filter((x) => failing.has(x.invariant)), ...report.findings.filter((x) => !failing.has(x.invariant))];
  for (const f of ordered) {
    const command = replayCaseCommand(report.seed, shrunkFrom(f), report.workload, { expect: f.invariant, madeWith: ctx.madeWith, ...(ctx.sdkArg && { sdk: ctx.sdkArg }) });
    const file = ctx.replayFiles?.get(f.invariant);
    const cx = f.counterexample;
    lines.push(
      ...findingSection({
        title: f.invariant,
        level: f.example.level,
        section: f.example.section,
        status: failing.has(f.invariant) ? '❌ fails the campaign' : f.fresh ? '⚠️ new cause, not failing' : 'known',
        message: (f.fresh?.example ?? f.example).message,
        commands: [...(file ? [replayFileCommand(file, ctx.sdkArg)] : []), command],
        ...(cx && { run: { caption: `Minimal case: ${cx.case.scenario.actions.length} caller action(s), tape [${cx.case.tape.join(',')}].`, trace: cx.result.trace } }),
      }),
    );
  }
  const races = Object.entries(report.coverage.races);
  lines.push(
    `Coverage: ${Object.keys(report.coverage.transitions).length} distinct model transitions; race pairs: ${races.map(([pair, n]) => `${pair} ${n}`).join(', ')}.`,
    '',
  );
  return lines.join('\n');
}
