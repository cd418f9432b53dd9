import { junitSuite } from '../report/junitSuite.ts';
import { toMermaid } from '../report/mermaid.ts';
import { formatTrace } from '../sim/trace.ts';
import { TOOL } from '../util/toolVersion.ts';
import { listByOwner, OWNER_WORDS, whoseLines, whoseParagraphs } from '../report/whose.ts';
import type { ProcessFinding, ProcessFuzzReport } from './fuzzProcess.ts';
import { describePlan } from '../real/plan.ts';


/** The header lines every view of a black-box report starts with: what kind of run, what it can and cannot see. */
export function processReportHead(report: ProcessFuzzReport): string[] {
  return [
    `black box, real time: ${report.target.kind === 'process' ? 'stdio process' : 'Streamable HTTP'} ${report.target.label}`,
    `server ${JSON.stringify(report.target.server)}, protocol ${report.target.protocolVersion ?? '?'}`,
    `seed ${report.seed}, ${report.runs} runs, ${report.parallel} at once, ${report.reuse ? `${report.reuse.note} (${report.reuse.connections} ${report.target.kind === 'process' ? 'processes' : 'sessions'} for ${report.runs} runs; ${report.reuse.lateFrames} frames of a case read after its barrier, not judged)` : `one ${report.target.kind === 'process' ? 'process' : 'session'} per run`}`,
    `tools ${report.tools.join(', ')}${report.skipped.length ? `; skipped ${report.skipped.map((s) => `${s.name} (${s.reason})`).join(', ')}` : ''}`,
    `bounds: --hang-after ${report.bounds.hangAfterMs} ms, in-flight ${report.bounds.inFlightMs} ms, grace ${report.bounds.graceMs} ms`,
    `speed: ${report.runsPerSecond} runs/s (${report.wallMs} ms wall), start-up ${report.startupMs} ms (median, spawn to initialized)`,
    `sees: ${report.visibility.sees.join('; ')}`,
    `cannot see: ${report.visibility.cannotSee.join('; ')}`,
  ];
}

/** The text report: head, each finding with its cause, minimal case, rate and replay commands; the SDK's way and the script's own apart. */
export function formatProcessReport(report: ProcessFuzzReport, replays: ReadonlyMap<string, readonly string[]> = new Map()): string {
  const lines = processReportHead(report);
  lines.push('');
  const show = (f: ProcessFinding) => {
    lines.push(`${f.confirmed ? f.severity.toUpperCase() : 'UNCONFIRMED'} ${f.invariant} (${f.level}): ${f.message}`, ...whoseLines(f));
    lines.push(`  cause: ${f.variant}, ${f.shape}; first in case ${f.firstCase}, in ${f.runs}/${report.runs} runs; minimal case after ${f.shrinks} shrink(s), ${f.determinism}:`);
    for (const line of describePlan(f.minimal)) lines.push(`    ${line}`);
    if (f.reuse) lines.push(`  ${f.reuse.note}: found on a shared ${report.target.kind === 'process' ? 'process' : 'session'}; the replay runs it on a fresh one`);
    for (const command of replays.get(f.invariant) ?? []) lines.push(`  replay: ${command}`);
  };
  listByOwner(report.findings, lines, show, `no finding on the server in ${report.runs} runs`);
  return lines.join('\n');
}

/** Markdown: the head, a table of findings, each finding's minimal case, Mermaid diagram and trace. */
export function processMarkdownReport(report: ProcessFuzzReport, replays: ReadonlyMap<string, readonly string[]> = new Map()): string {
  const out = [`# mcp-sim fuzz: ${report.passed ? 'PASS' : 'FAIL'} (black box, real time)`, '', ...processReportHead(report).map((l) => `- ${l}`), ''];
  if (report.findings.length > 0) {
    out.push('| invariant | whose | cause | level | runs | rate |', '|---|---|---|---|---|---|');
    for (const f of report.findings) out.push(`| \`${f.invariant}\` | ${OWNER_WORDS[f.owner]} | ${f.variant}, ${f.shape} | ${f.level} | ${f.runs}/${report.runs} | ${f.determinism} |`);
    for (const f of report.findings) {
      out.push('', `## ${f.invariant}${f.owner === 'target' ? '' : ` (${OWNER_WORDS[f.owner]})`}`, '', f.message, ...whoseParagraphs(f), '', ...describePlan(f.minimal).map((l) => `- ${l}`), '');
      for (const c of replays.get(f.invariant) ?? []) out.push('```sh', c, '```');
      out.push('```mermaid', toMermaid(f.trace), '```', '', '<details><summary>trace</summary>', '', '```', formatTrace(f.trace), '```', '', '</details>');
    }
  }
  return `${out.join('\n')}\n`;
}

/** JUnit: one test case per invariant found, failing, plus one passing case that names the campaign. */
export function processJunitReport(report: ProcessFuzzReport): string {
  const { builder, suite } = junitSuite('mcp-sim fuzz (black box, real time)', report.wallMs / 1000, { tool: TOOL, sdk: { name: 'none (black box)', version: '-' } }, {
    target: report.target.label,
    seed: String(report.seed),
    runs: String(report.runs),
    'runs-per-second': String(report.runsPerSecond),
    'startup-ms': String(report.startupMs),
  });
  suite.testCase().className('mcp-sim.process').name('campaign').standardOutput(processReportHead(report).join('\n'));
  for (const f of report.findings.filter((x) => x.confirmed && x.owner === 'target')) {
    suite.testCase().className(`mcp-sim.${f.invariant.slice(0, f.invariant.indexOf('.'))}`).name(f.invariant).failure(`${f.message} (${f.determinism})`).standardOutput(describePlan(f.minimal).join('\n'));
  }
  return builder.build();
}
