import type { RealCampaignReport, RealFinding } from '../campaign/real/realCampaign.ts';
import type { RealVerdict } from '../campaign/real/realVerdict.ts';
import { formatTrace } from '../sim/trace.ts';
import { listByOwner, OWNER_WORDS, whoseLines, whoseParagraphs } from './whose.ts';
import { TOOL } from '../util/toolVersion.ts';
import { REPORT_SCHEMA_VERSION } from './jsonReport.ts';
import { boundsText } from './boundsText.ts';
import { junitSuite } from './junitSuite.ts';
import { toMermaid } from './mermaid.ts';

/** The replay command and file of each finding, by its index in the report. */
export type RealReplays = ReadonlyMap<RealFinding, { readonly file: string; readonly command: string }>;

const what = (r: RealCampaignReport) => r.target.runsOn ?? 'run';

/** The lines every view of a real-time report starts with: what ran, on what clock, what it can and cannot see, how fast. */
export function realReportHead(report: RealCampaignReport): string[] {
  const { preparation: p } = report;
  return [
    `real time (black box): ${report.target.label}`,
    ...(p.server ? [`server ${JSON.stringify(p.server.info)}, protocol ${p.server.protocolVersion ?? '?'}`] : []),
    `seed ${report.seed}, ${report.runs} runs, ${report.parallel} at once, ${report.reuse ? `${report.reuse.note} (${report.reuse.connections} ${what(report)}s for ${report.runs} runs; ${report.reuse.lateFrames} frames of a case read after its barrier, not judged)` : `one ${what(report)} per run`}`,
    // An SDK's client calls the scripted server's one tool, of no interest: its scenarios are its cases.
    ...(p.tools.length > 0 || p.skipped.length > 0 ? [`tools ${p.tools.join(', ')}${p.skipped.length ? `; skipped ${p.skipped.map((s) => `${s.name} (${s.reason})`).join(', ')}` : ''}`] : []),
    `bounds: ${boundsText(report.bounds)}`,
    `speed: ${report.runsPerSecond} runs/s (${report.wallMs} ms wall), start-up ${report.startupMs} ms (median, spawn to initialized)`,
    `sees: ${report.sees.sees.join('; ')}`,
    `cannot see: ${report.sees.cannotSee.join('; ')}`,
    ...report.sees.notJudged.map((n) => `not judged here: ${n.invariants === 'family' ? n.family : n.invariants.join(', ')}: ${n.why}`),
  ];
}

/** A finding's headline: its state, invariant and level, its cause. */
const headline = (f: RealFinding) => `${f.known ? 'KNOWN' : f.confirmed ? f.severity.toUpperCase() : 'UNCONFIRMED'} ${f.invariant} (${f.level}) [${f.cause.variant} ${f.cause.shape}]: ${f.message}`;

/** The text report: head, each finding with its cause, minimal case, rate and replay command; the SDK's way and the script's own apart. */
export function formatRealReport(report: RealCampaignReport, replays: RealReplays = new Map()): string {
  const lines = realReportHead(report);
  lines.push('');
  const show = (f: RealFinding) => {
    lines.push(headline(f), ...whoseLines(f));
    lines.push(`  first in case ${f.firstCase}, in ${f.runs}/${report.runs} runs; ${f.known ? f.determinism : `minimal case after ${f.shrinks} shrink(s), ${f.determinism}`}:`);
    for (const line of f.steps) lines.push(`    ${line}`);
    if (f.reuse) lines.push(`  ${f.reuse.note}: found on a shared connection; the replay runs it on a fresh one`);
    const replay = replays.get(f);
    if (replay) lines.push(`  replay: ${replay.command}`);
  };
  listByOwner(report.findings, lines, show, `no finding in ${report.runs} runs`);
  return lines.join('\n');
}

/** Markdown: the head, a table of findings, each finding's minimal case, replay command, Mermaid diagram and trace. */
export function realMarkdownReport(report: RealCampaignReport, verdict: RealVerdict, replays: RealReplays = new Map()): string {
  const out = [`# mcp-sim check: ${verdict.failed ? 'FAIL' : 'PASS'} (real time)`, '', ...realReportHead(report).map((l) => `- ${l}`), ''];
  if (report.findings.length > 0) {
    out.push('| invariant | level | cause | runs | rate | |', '|---|---|---|---|---|---|');
    for (const f of report.findings) out.push(`| \`${f.invariant}\` | ${f.level} | ${f.cause.variant} ${f.cause.shape} | ${f.runs}/${report.runs} | ${f.determinism} | ${verdict.failing.includes(f) ? 'fails' : f.known ? 'known' : ''} |`);
    for (const f of report.findings) {
      const whose = f.owner === 'target' ? '' : `, ${OWNER_WORDS[f.owner]}`;
      out.push('', `## ${f.invariant} (${f.cause.shape}${whose})`, '', f.message, ...whoseParagraphs(f), '', ...f.steps.map((l) => `- ${l}`), '');
      const replay = replays.get(f);
      if (replay) out.push('```sh', replay.command, '```');
      out.push('```mermaid', toMermaid(f.trace), '```', '', '<details><summary>trace</summary>', '', '```', formatTrace(f.trace), '```', '', '</details>');
    }
  }
  return `${out.join('\n')}\n`;
}

/** JUnit: one test case per finding (invariant and cause), failing where the verdict fails on it, plus one that names the campaign. */
export function realJunitReport(report: RealCampaignReport, verdict: RealVerdict, replays: RealReplays = new Map()): string {
  const system = report.target.system ?? { name: report.target.label, version: '-' };
  const { builder, suite } = junitSuite(`mcp-sim check ${report.target.argument.join(' ')} (real time)`, report.wallMs / 1000, { tool: TOOL, sdk: system }, {
    target: report.target.label,
    seed: String(report.seed),
    runs: String(report.runs),
    'runs-per-second': String(report.runsPerSecond),
    'startup-ms': String(report.startupMs),
  });
  suite.testCase().className('mcp-sim.campaign').name('campaign').standardOutput(realReportHead(report).join('\n'));
  for (const f of report.findings) {
    const test = suite.testCase().className(`mcp-sim.${f.invariant.slice(0, f.invariant.indexOf('.'))}`).name(`${f.invariant} [${f.cause.variant} ${f.cause.shape}]`);
    const body = [...f.steps, ...(replays.has(f) ? [`replay: ${replays.get(f)!.command}`] : [])].join('\n');
    if (verdict.failing.includes(f)) test.failure(`${f.message} (${f.determinism})\n${body}`);
    else test.standardOutput(`${f.known ? 'known cause' : f.confirmed ? `below --fail-on ${verdict.failOn}` : 'unconfirmed'}: ${f.message}\n${body}`);
  }
  return builder.build();
}

/**
 * The report as `--json` writes it (schemas/report.schema.json, kind `campaign` with `clock:
 * real`): the target, what it sees, the options and bounds, the verdict, every finding by cause
 * with its rate, minimal case, trace and replay command. The trace viewer draws it as recorded.
 */
export function realJsonReport(report: RealCampaignReport, verdict: RealVerdict, replays: RealReplays = new Map()): Record<string, unknown> {
  const { findings, ...rest } = report;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'campaign',
    tool: TOOL,
    ...rest,
    verdict: { result: verdict.failed ? 'fail' : 'pass', exitCode: verdict.failed ? 1 : 0, failOn: verdict.failOn, failing: verdict.failing.map((f) => f.invariant) },
    findings: findings.map((f) => {
      const replay = replays.get(f);
      return { ...f, failsCheck: verdict.failing.includes(f), ...(replay && { replay }) };
    }),
  };
}
