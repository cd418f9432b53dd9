import junitModule, { type Builder } from 'junit-report-builder';
import { failsCampaign, type FailOn, type FuzzReport } from './fuzzCampaign.ts';
import { SERVER_CONDUCT } from './ownership.ts';

// CommonJS with `module.exports = builder`, while its types declare an ES default export.
const junit = junitModule as unknown as Builder;

/** Replay commands by invariant, as the CLI printed them. */
export type Replays = ReadonlyMap<string, readonly string[]>;

/**
 * A fuzz campaign as JUnit XML: one test case per invariant that judges the server's own code
 * (class `mcp-sim.fuzz.<family>`), failing with the finding's explanation and its replay
 * commands; the SDK's own findings are listed in the suite's output, never failing.
 */
export function fuzzJunitReport(report: FuzzReport, replays: Replays, failOn: FailOn): string {
  const builder = junit.newBuilder();
  const suite = builder
    .testSuite()
    .name(`mcp-sim check ${report.target.label} seed=${report.seed}`)
    .time(report.durationMs / 1000)
    .property('seed', String(report.seed))
    .property('runs', String(report.runsDone))
    .property('sdk', `${report.target.sdk.name}@${report.target.sdk.version}`);
  for (const id of SERVER_CONDUCT) {
    const testCase = suite.testCase().className(`mcp-sim.fuzz.${id.slice(0, id.indexOf('.'))}`).name(id);
    const found = report.findings.find((f) => f.invariant === id);
    if (!found) continue;
    const body = [found.explanation, ...(found.call ? [`tool ${found.call.tool}`, `arguments ${JSON.stringify(found.call.arguments)}`] : []), ...(replays.get(id) ?? [])].join('\n');
    if (failsCampaign(found, failOn)) testCase.failure(found.explanation, 'finding').stacktrace(body);
    else testCase.standardOutput(`below --fail-on: found in ${found.runs} of ${report.runsDone} runs\n${body}`);
  }
  const sdk = report.findings.filter((f) => f.owner === 'sdk');
  if (sdk.length > 0) suite.testCase().className('mcp-sim.fuzz.sdk').name('the SDK itself (never fails)').standardOutput(sdk.map((f) => `${f.invariant} (${f.runs} runs): ${f.example.message}`).join('\n'));
  return builder.build();
}

/** A fuzz campaign as Markdown (renders on GitHub): the verdict, each finding on the server with its replay, then the SDK's. */
export function fuzzMarkdownReport(report: FuzzReport, replays: Replays): string {
  const lines = [
    `# mcp-sim check: ${report.target.label}`,
    '',
    `**${report.passed ? 'PASS' : 'FAIL'}**: ${report.runsDone} runs (seed ${report.seed}) on ${report.target.sdk.name}@${report.target.sdk.version}; tools fuzzed: ${report.tools.fuzzed.map((t) => `\`${t}\``).join(', ')}.`,
    ...report.tools.skipped.map((s) => `- skipped \`${s.name}\`: ${s.reason}`),
    ...report.limits.map((l) => `- limit: ${l}`),
    ...(report.stateful ? ['', '> The server keeps state across runs: findings are not shrunk, and replay runs the campaign up to their first case.'] : []),
    '',
  ];
  for (const f of report.findings.filter((x) => x.owner === 'server')) {
    lines.push(`## \`${f.invariant}\` (${f.severity}, ${f.runs} runs)`, '', f.explanation, '');
    if (f.call) lines.push(`- tool: \`${f.call.tool}\``, `- arguments: \`${JSON.stringify(f.call.arguments)}\``);
    lines.push(`- oracle: ${(f.counterexample?.finding ?? f.example).message}`, '', '```sh', ...(replays.get(f.invariant) ?? []), '```', '');
  }
  const sdk = report.findings.filter((f) => f.owner === 'sdk');
  if (sdk.length > 0) {
    lines.push('## The SDK itself (never fails the run)', '', ...sdk.map((f) => `- \`${f.invariant}\` (${f.runs} runs${f.knownInSdkBaseline ? ', known in its baseline' : ''}): ${f.example.message}`), '');
  }
  return lines.join('\n');
}
