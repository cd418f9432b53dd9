import pc from 'picocolors';
import type { FuzzFinding, FuzzReport } from './fuzzCampaign.ts';

const badge = (f: FuzzFinding) => (f.severity === 'violation' ? pc.red('VIOLATION') : f.severity === 'warning' ? pc.yellow('WARNING') : pc.cyan('NOTE'));

/** One finding on the server, with the tool, the arguments and the minimal run that shows it. */
function serverFinding(f: FuzzFinding, replay: readonly string[]): string[] {
  const lines = [`${badge(f)} ${pc.bold(f.invariant)}  (${f.runs} run${f.runs === 1 ? '' : 's'}, first: case ${f.firstCase})`, `  ${f.explanation}`];
  if (f.call) lines.push(`  tool       ${f.call.tool}`, `  arguments  ${JSON.stringify(f.call.arguments)}`);
  const cx = f.counterexample;
  if (cx) {
    const actions = cx.case.scenario.actions.map((a) => {
      if (a.kind === 'call') {
        const o = a.options;
        const how = [o.onprogress && 'progress token', o.timeoutMs !== undefined && `timeout ${o.timeoutMs} ms${o.resetTimeoutOnProgress ? ' (reset on progress)' : ''}`].filter(Boolean).join(', ');
        return `${a.call}: call ${a.handler}${how ? ` with ${how}` : ''}`;
      }
      if (a.kind === 'abort') return `cancel ${a.signal.replace(/^s/, 'c')}`;
      if (a.kind === 'close') return `close the ${a.side} side`;
      return a.kind;
    });
    lines.push(`  minimal    ${actions.join('; ')}${cx.case.tape.length ? `; schedule [${cx.case.tape.join(',')}]` : ''}`);
    lines.push(`  oracle     ${cx.finding.message}`);
    if (cx.cutShort === 'time') lines.push(pc.yellow('  shrinking  stopped at its time budget (another machine may shrink further)'));
    if (cx.cutShort === 'steps') lines.push(pc.dim('  shrinking  stopped at its step budget (the same on every machine)'));
  } else {
    lines.push(`  oracle     ${f.example.message}`);
  }
  for (const r of replay) lines.push(`  replay     ${r}`);
  return lines;
}

/**
 * The text report of a fuzz campaign: what ran, each finding on the server in the author's terms
 * with its replay commands, then what the SDK itself did (never the server's to fix).
 */
export function formatFuzzReport(report: FuzzReport, replays: ReadonlyMap<string, readonly string[]>): string {
  const server = report.findings.filter((f) => f.owner === 'server');
  const sdk = report.findings.filter((f) => f.owner === 'sdk');
  const lines: string[] = [];
  lines.push(`${report.runsDone} runs in ${(report.durationMs / 1000).toFixed(1)} s (${Math.round(report.runsPerSecond)} runs/s); tools fuzzed: ${report.tools.fuzzed.join(', ')}`);
  for (const s of report.tools.skipped) lines.push(pc.yellow(`  skipped tool ${s.name}: ${s.reason}`));
  if (report.stateful) {
    lines.push(
      pc.yellow('  the server keeps state across runs (module-level state, timers, a handler of one run working in a later one): a case shows its'),
      pc.yellow('  finding only after the runs before it, so findings are not shrunk and replay runs the campaign up to their first case.'),
    );
  }
  lines.push('');
  if (server.length === 0) lines.push(pc.green('No finding on the server.'));
  for (const f of server) lines.push(...serverFinding(f, replays.get(f.invariant) ?? []), '');
  if (sdk.length > 0) {
    lines.push(pc.dim(`The SDK (${report.target.sdk.name}@${report.target.sdk.version}), not the server (never fails the run):`));
    for (const f of sdk) lines.push(pc.dim(`  ${f.invariant} (${f.runs} runs${f.knownInSdkBaseline ? ', known in its baseline' : ', NOT in its baseline'}): ${f.example.message}`));
  }
  return lines.join('\n');
}
