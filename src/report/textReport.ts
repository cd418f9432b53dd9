import pc from 'picocolors';
import { causeName } from '../campaign/verdict.ts';
import { shrunkFrom, type CampaignReport, type FindingSummary } from '../campaign/runCampaign.ts';
import type { Finding } from '../model/finding.ts';
import { replayCaseCommand, replayFileCommand, type MadeWith } from '../options/replayCaseCommand.ts';
import { formatEvent, type TraceEvent } from '../sim/index.ts';

const badge = {
  violation: pc.red('✗ VIOLATION'),
  warning: pc.yellow('! WARNING  '),
  note: pc.cyan('· NOTE     '),
} as const;

/** Events worth reading in a counterexample: the scheduler's choices and what they caused. */
export function traceExcerpt(trace: readonly TraceEvent[], from = 0): string {
  return trace
    .filter((e) => e.i >= from && e.kind !== 'send')
    .map((e) => `      ${formatEvent(e)}`)
    .join('\n');
}

export function formatFinding(f: Finding): string {
  return `${badge[f.severity]} ${pc.bold(f.invariant)} (${f.level}, ${f.section})${f.request ? ` [${f.request}]` : ''}: ${f.message}${knockOnNote(f)}`;
}

/** ` (knock-on of <root> …)` for a finding that follows from another of its trace (`rootCause`). */
function knockOnNote(f: Finding): string {
  const r = f.rootCause;
  return r ? pc.dim(` (knock-on of ${r.invariant}${r.request ? ` [${r.request}]` : ''}, event #${r.at})`) : '';
}

/** The knock-ons counted under a root cause's entry, one line each. */
function knockOnLines(s: FindingSummary): string[] {
  return (s.knockOns ?? []).map(
    (k) => pc.dim(`    knock-on effect: ${k.invariant} (${k.example.level}) in ${k.runs} of these runs, first in case ${k.firstCase}: ${k.example.message}`),
  );
}

export interface ReportContext {
  /** Path of the replay file written for each counterexample, by invariant. */
  replayFiles: ReadonlyMap<string, string>;
  /** The mcp-sim and SDK versions the campaign ran with: each printed replay command names them. */
  madeWith: MadeWith;
  /** The `--sdk` folder the campaign ran (not the installed release): each printed replay command repeats it. */
  sdkArg?: string;
  /**
   * How the findings a baseline explains (known causes) are printed: `full`, each with its
   * counterexample and replay commands, like a new one (the default; `--all-findings`); or
   * `summary`, one line each (the invariant, how often, its replay file), so that what is new
   * is what a first reader sees. Reports written to files (JSON, JUnit, HTML) hold them all.
   */
  knownFindings?: 'full' | 'summary';
}

function formatSummary(s: FindingSummary, report: CampaignReport, ctx: ReportContext): string {
  // The minimal case's own words, when there is one: they match the trace printed below.
  const shown = s.counterexample?.findings.find((f) => f.invariant === s.invariant) ?? s.example;
  const lines = [`${formatFinding(shown)}${causeNote(s, report)}`, pc.dim(`    found in ${s.runs} of ${report.runs} runs; first in case ${s.firstCase}`)];
  if (s.fresh && s.fresh.runs < s.runs) {
    lines.push(`    ${pc.bold('new cause')} in ${s.fresh.runs} of these runs (the others are known causes); first in case ${s.fresh.firstCase}: the counterexample below is shrunk from it`);
  }
  lines.push(...knockOnLines(s));
  const cx = s.counterexample;
  if (cx) {
    const ready = cx.result.trace.find((e) => e.kind === 'ready')?.i ?? 0;
    const deviations = cx.result.taken.filter((c) => c !== 0).length;
    lines.push(
      `    minimal counterexample (${cx.shrinks} shrinks, ${cx.removals} removals): ${cx.case.scenario.actions.length} caller action(s), ` +
        `${deviations} deviation(s) from the natural order, tape [${cx.case.tape.join(',')}]`,
      traceExcerpt(cx.result.trace, ready + 1),
    );
    const file = ctx.replayFiles.get(s.invariant);
    if (file) lines.push(`    replay: ${pc.bold(replayFileCommand(file, ctx.sdkArg))}`);
  }
  lines.push(`    replay the original case: ${replayCaseCommand(report.seed, shrunkFrom(s), report.workload, { expect: s.invariant, madeWith: ctx.madeWith, ...(ctx.sdkArg && { sdk: ctx.sdkArg }) })}`);
  return lines.join('\n');
}

/** Whether a finding is a known cause (judged against a baseline) or a new one. */
function causeNote(s: FindingSummary, report: CampaignReport): string {
  if (!report.rates) return '';
  if (!s.fresh) return pc.dim(' (known cause: in the baseline)');
  return s.fresh.runs === s.runs ? pc.bold(' (new: no baseline entry explains it)') : pc.bold(' (new cause of a known invariant)');
}

/**
 * The known findings in one line each: the invariant, its level, how often, its replay file;
 * what `--all-findings` prints in full.
 */
function knownLines(known: readonly FindingSummary[], report: CampaignReport, ctx: ReportContext): string[] {
  if (known.length === 0) return [];
  const width = Math.max(...known.map((s) => s.invariant.length));
  return [
    `known findings: ${known.length} invariant(s) broken here are explained by the baseline of ${ctx.madeWith.sdk.name}@${ctx.madeWith.sdk.version} (its own known bugs, not failing); one line each, --all-findings prints each with its counterexample:`,
    ...known.map((s) => {
      const file = ctx.replayFiles.get(s.invariant);
      return `  ${badge[s.example.severity]} ${s.invariant.padEnd(width)}  ${s.example.level.padEnd(7)} in ${s.runs} of ${report.runs} runs${file ? pc.dim(`; replay: ${replayFileCommand(file, ctx.sdkArg)}`) : ''}`;
    }),
    '',
  ];
}

/** The rate check's lines: causes firing significantly more often than the baseline says, or why there is no check. */
function rateLines(report: CampaignReport): string[] {
  const rates = report.rates;
  if (!rates) return [];
  if (!rates.checked) return [pc.yellow(`rate check: off: ${rates.why}`), ''];
  const up = rates.checks.filter((c) => c.regression);
  const head = `rate check: ${rates.checks.length} known cause(s) compared with the baseline's rates; ${up.length} fire(s) significantly more often`;
  return [
    up.length > 0 ? pc.red(head) : head,
    ...up.map(
      (c) =>
        `  ${badge[c.severity]} ${pc.bold(causeName(c.cause))}: in ${c.runs} of ${c.of} runs, the baseline predicts ${c.expected.toFixed(1)} (p = ${c.pValue.toExponential(1)})`,
    ),
    '',
  ];
}

/** The campaign's readable report: totals, then one block per invariant broken, worst first. */
export function formatCampaignReport(report: CampaignReport, ctx: ReportContext): string {
  const count = (sev: Finding['severity']) => report.findings.filter((f) => f.example.severity === sev).length;
  const outcomes = Object.entries(report.outcomes).map(([k, v]) => `${k} ${v}`).join(', ');
  // Known only where a baseline judged the campaign (report.rates): without one, every finding is printed in full.
  const summarised = ctx.knownFindings === 'summary' && report.rates !== undefined;
  const known = summarised ? report.findings.filter((s) => !s.fresh) : [];
  const inFull = summarised ? report.findings.filter((s) => s.fresh) : report.findings;
  const out = [
    '',
    `${report.runs} runs in ${(report.wallMs / 1000).toFixed(1)} s (${report.runsPerSecond.toFixed(0)} runs/s), ` +
      `${report.steps} steps, ${(report.virtualMs / 1000).toFixed(0)} s of virtual time; outcomes: ${outcomes}`,
    `findings: ${count('violation')} violation(s), ${count('warning')} warning(s), ${count('note')} note(s)`,
    '',
    ...inFull.map((s) => formatSummary(s, report, ctx) + '\n'),
    ...knownLines(known, report, ctx),
    ...rateLines(report),
  ];
  const races = Object.entries(report.coverage.races).map(([pair, n]) => `${n > 0 ? '✓' : pc.yellow('✗')} ${pair} ${n}`);
  out.push(
    `coverage: ${Object.keys(report.coverage.transitions).length} distinct model transitions; race pairs hit (occurrences; progress-after-response needs a peer that breaks FIFO order, see test/model/coverage.test.ts):`,
    ...races.map((r) => `  ${r}`),
    '',
  );
  if (report.nondeterministic.length > 0) {
    out.push(pc.red(`✗ harness.deterministic: cases ${report.nondeterministic.join(', ')} gave another trace hash on a second run`));
  } else if (report.selfCheck) {
    // Say what was checked: a silent pass cannot be told from a self-check that never ran.
    out.push(pc.green(`✓ harness.deterministic: all ${report.runs} cases gave the same trace hash on a second run`));
  }
  return out.join('\n');
}
