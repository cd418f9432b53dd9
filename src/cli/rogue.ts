import pc from 'picocolors';
import { formatFinding } from '../report/textReport.ts';
import { formatHttpRogueTable, httpRogueCampaign } from '../rogue/http/index.ts';
import { formatRogueTable, rogueCampaign } from '../rogue/index.ts';
import type { Side } from '../sim/index.ts';
import { installedSdk } from '../sdk/load.ts';
import type { Finding } from '../model/finding.ts';
import { REPORT_SCHEMA_VERSION } from '../report/jsonReport.ts';
import { TOOL } from '../util/toolVersion.ts';
import { writeJsonReport } from './check.ts';

export interface RogueFlags {
  target?: Side;
  filter?: string;
  /** Also write the results as JSON (`-`: stdout). */
  json?: string;
}

/** A finding of the rogue peer as the JSON report lists it. */
const findingEntry = (f: Finding & { readonly kind: string; readonly framing?: string }) => ({
  invariant: f.invariant,
  level: f.level,
  section: f.section,
  message: f.message,
  kind: f.kind,
  ...(f.framing !== undefined && { framing: f.framing }),
});

/** `mcp-sim rogue`: forbidden frames against the real SDK endpoints; a behaviour table and findings. */
export async function rogueCommand(flags: RogueFlags): Promise<number> {
  if (flags.target !== undefined && flags.target !== 'client' && flags.target !== 'server') {
    throw new Error(`rogue: --target takes 'client' or 'server', got "${flags.target}"`);
  }
  const sdk = installedSdk();
  console.log(pc.bold(`mcp-sim rogue  sdk=${sdk.name}@${sdk.version}`));
  const { rows, findings } = await rogueCampaign({
    ...(flags.target && { target: flags.target }),
    ...(flags.filter && { filter: flags.filter }),
  });
  if (rows.length === 0) throw new Error(`rogue: no rogue kind matches --filter "${flags.filter}"`);
  console.log(pc.bold('\nstdio-like transport (raw and stdio framing)\n'));
  console.log(formatRogueTable(rows));
  console.log('');
  console.log(findings.length === 0 ? pc.green('no findings') : findings.map((f) => `${formatFinding(f)} (${f.kind}, ${f.framing})`).join('\n'));
  const write = (code: number, http?: { rows: readonly unknown[]; findings: readonly (Finding & { kind: string })[] }) => {
    if (flags.json) {
      writeJsonReport(flags.json, {
        schemaVersion: REPORT_SCHEMA_VERSION,
        kind: 'rogue',
        tool: TOOL,
        sdk,
        options: { ...(flags.target && { target: flags.target }), ...(flags.filter && { filter: flags.filter }) },
        verdict: { result: code === 0 ? 'pass' : 'fail', exitCode: code },
        rows,
        findings: findings.map(findingEntry),
        ...(http && { http: { rows: http.rows, findings: http.findings.map(findingEntry) } }),
      });
    }
    return code;
  };
  if (flags.target === 'client') return write(findings.some((f) => f.severity === 'violation') ? 1 : 0);
  // A raw HTTP peer against the real Streamable HTTP server transport (stateful sessions).
  const http = await httpRogueCampaign();
  const httpRows = flags.filter ? http.rows.filter((r) => r.kind.includes(flags.filter!)) : http.rows;
  const httpFindings = http.findings.filter((f) => httpRows.some((r) => r.kind === f.kind));
  console.log(pc.bold('\nStreamable HTTP server transport (raw HTTP client, stateful)\n'));
  console.log(formatHttpRogueTable(httpRows));
  console.log('');
  console.log(httpFindings.length === 0 ? pc.green('no findings') : httpFindings.map((f) => `${formatFinding(f)} (${f.kind})`).join('\n'));
  return write([...findings, ...httpFindings].some((f) => f.severity === 'violation') ? 1 : 0, { rows: httpRows, findings: httpFindings });
}
