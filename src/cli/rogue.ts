import pc from 'picocolors';
import { formatFinding } from '../report/textReport.ts';
import { formatHttpRogueTable, httpRogueCampaign, type HttpRogueRow } from '../rogue/http/index.ts';
import { countedFindings, formatRogueTable, rogueCampaign } from '../rogue/index.ts';
import type { Side } from '../sim/index.ts';
import { installedSdk } from '../sdk/load.ts';
import type { Finding } from '../model/finding.ts';
import { REPORT_SCHEMA_VERSION } from '../report/jsonReport.ts';
import { TOOL } from '../util/toolVersion.ts';
import { writeJsonReport } from './check.ts';
import { TargetArgumentError, type RealTarget } from '../targets/Target.ts';

export interface RogueFlags {
  side?: Side;
  filter?: string;
  /** Also write the results as JSON (`-`: stdout). */
  json?: string;
}

/** A finding of the model on a rogue run as the JSON report lists it: a knock-on names its root (`rootCause`), and does not fail the run. */
const findingEntry = (f: Finding & { readonly kind: string; readonly framing?: string }) => ({
  invariant: f.invariant,
  level: f.level,
  section: f.section,
  message: f.message,
  kind: f.kind,
  ...(f.framing !== undefined && { framing: f.framing }),
  ...(f.clause !== undefined && { clause: f.clause }),
  ...(f.rootCause && { rootCause: f.rootCause.invariant }),
  ...(f.reason && { reason: f.reason }),
});

/** The run fails on a violation (MUST, DERIVED) of the attacked side's own: not a knock-on of another finding. */
const fails = (findings: readonly Finding[]) => countedFindings(findings).some((f) => f.severity === 'violation');

/** `mcp-sim rogue`: forbidden frames against the real SDK endpoints; a behaviour table and the model's findings. */
export async function rogueCommand(flags: RogueFlags): Promise<number> {
  if (flags.side !== undefined && flags.side !== 'client' && flags.side !== 'server') {
    throw new Error(`rogue: --side takes 'client' or 'server', got "${flags.side}"`);
  }
  const sdk = installedSdk();
  console.log(pc.bold(`mcp-sim rogue  sdk=${sdk.name}@${sdk.version}`));
  const { rows, findings } = await rogueCampaign({
    ...(flags.side && { target: flags.side }),
    ...(flags.filter && { filter: flags.filter }),
  });
  if (rows.length === 0) throw new Error(`rogue: no rogue kind matches --filter "${flags.filter}"`);
  console.log(pc.bold('\nstdio-like transport (raw and stdio framing)\n'));
  console.log(formatRogueTable(rows));
  console.log('');
  console.log(findings.length === 0 ? pc.green('no findings') : findings.map((f) => `${formatFinding(f)} (${f.kind}, ${f.framing})`).join('\n'));
  const write = (code: number, http?: { rows: readonly HttpRogueRow[]; findings: readonly (Finding & { kind: string })[] }) => {
    if (flags.json) {
      writeJsonReport(flags.json, {
        schemaVersion: REPORT_SCHEMA_VERSION,
        kind: 'rogue',
        tool: TOOL,
        sdk,
        options: { ...(flags.side && { target: flags.side }), ...(flags.filter && { filter: flags.filter }) },
        verdict: { result: code === 0 ? 'pass' : 'fail', exitCode: code },
        rows: rows.map((r) => ({ ...r, findings: r.findings.map((f) => findingEntry({ ...f, kind: r.kind, framing: r.framing })) })),
        findings: findings.map(findingEntry),
        ...(http && { http: { rows: http.rows.map((r) => ({ ...r, findings: r.findings.map((f) => findingEntry({ ...f, kind: r.kind })) })), findings: http.findings.map(findingEntry) } }),
      });
    }
    return code;
  };
  if (flags.side === 'client') return write(fails(findings) ? 1 : 0);
  // A raw HTTP peer against the real Streamable HTTP server transport (stateful sessions).
  const http = await httpRogueCampaign();
  const httpRows = flags.filter ? http.rows.filter((r) => r.kind.includes(flags.filter!)) : http.rows;
  const httpFindings = http.findings.filter((f) => httpRows.some((r) => r.kind === f.kind));
  console.log(pc.bold('\nStreamable HTTP server transport (raw HTTP client, stateful)\n'));
  console.log(formatHttpRogueTable(httpRows));
  console.log('');
  console.log(httpFindings.length === 0 ? pc.green('no findings') : httpFindings.map((f) => `${formatFinding(f)} (${f.kind})`).join('\n'));
  return write(fails([...findings, ...httpFindings]) ? 1 : 0, { rows: httpRows, findings: httpFindings });
}

/**
 * `mcp-sim rogue TARGET` on a server mcp-sim talks to from outside (a process, a URL, an SDK's
 * test bed): every rogue frame against it, real time, each run judged by the model on a real clock.
 */
export async function rogueTargetCommand(target: RealTarget, flags: { readonly filter?: string; readonly json?: string }): Promise<number> {
  const endpoint = target.endpoint;
  if (!endpoint) throw new TargetArgumentError(`mcp-sim rogue ${target.describe().argument.join(' ')}: a ${target.kind} target has no server connection to send raw frames on`);
  const { runPlan } = await import('../real/runPlan.ts');
  const { rogueProcess, formatRogueProcessTable, countedRowFindings } = await import('../rogue/rogueProcess.ts');
  const discovery = await runPlan(endpoint, { calls: [], serverRequests: 'answer' }, { tailMs: 0 });
  const tool = discovery.tools[0]?.name ?? 'work';
  console.log(pc.bold(`mcp-sim rogue ${target.describe().argument.join(' ')}  (real time) ${target.describe().label}`));
  const report = await rogueProcess(endpoint, tool, flags.filter);
  const { rows } = report;
  console.log(formatRogueProcessTable(rows));
  console.log(`not judged from outside: ${report.cannotJudge.join('; ')}`);
  if (report.leftOut.length > 0) console.log(`left out: ${report.leftOut.map((l) => `${l.kind} (${l.why})`).join(', ')}`);
  const findings = rows.flatMap((r) => r.findings.map((f) => ({ ...f, kind: r.kind })));
  console.log(findings.length === 0 ? pc.green(`no findings: every rogue frame answered as the model judges, the server stayed usable (${rows.length} kind${rows.length === 1 ? '' : 's'})`) : findings.map((f) => `${formatFinding(f)} (${f.kind})`).join('\n'));
  const code = rows.some((r) => countedRowFindings(r).some((f) => f.severity === 'violation')) ? 1 : 0;
  if (flags.json !== undefined) {
    // `rogueProcess` of schemas/report.schema.json: the endpoint the frames were written to.
    writeJsonReport(flags.json, {
      schemaVersion: REPORT_SCHEMA_VERSION,
      kind: 'rogue',
      clock: 'real',
      tool: TOOL,
      mode: 'black box, real time',
      target: { kind: endpoint.kind, label: endpoint.label },
      verdict: { result: code === 0 ? 'pass' : 'fail', exitCode: code },
      rows: rows.map((r) => ({ ...r, findings: r.findings.map((f) => findingEntry({ ...f, kind: r.kind })) })),
      findings: findings.map(findingEntry),
      cannotJudge: report.cannotJudge,
      leftOut: report.leftOut,
    });
  }
  return code;
}
