import pc from 'picocolors';
import { formatFinding } from '../report/textReport.ts';
import { formatHttpRogueTable, httpRogueCampaign } from '../rogue/http/index.ts';
import { formatRogueTable, rogueCampaign } from '../rogue/index.ts';
import type { Side } from '../sim/index.ts';
import { installedSdk } from '../sdk/load.ts';

export interface RogueFlags {
  target?: Side;
  filter?: string;
}

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
  if (flags.target === 'client') return findings.some((f) => f.severity === 'violation') ? 1 : 0;
  // A raw HTTP peer against the real Streamable HTTP server transport (stateful sessions).
  const http = await httpRogueCampaign();
  const httpRows = flags.filter ? http.rows.filter((r) => r.kind.includes(flags.filter!)) : http.rows;
  const httpFindings = http.findings.filter((f) => httpRows.some((r) => r.kind === f.kind));
  console.log(pc.bold('\nStreamable HTTP server transport (raw HTTP client, stateful)\n'));
  console.log(formatHttpRogueTable(httpRows));
  console.log('');
  console.log(httpFindings.length === 0 ? pc.green('no findings') : httpFindings.map((f) => `${formatFinding(f)} (${f.kind})`).join('\n'));
  return [...findings, ...httpFindings].some((f) => f.severity === 'violation') ? 1 : 0;
}
