import { readFileSync } from 'node:fs';
import pc from 'picocolors';
import { knownCausesFor } from '../baseline/baseline.ts';
import { MergeError, mergeShards, type ShardInput } from '../campaign/merge.ts';
import { DEFAULT_REPRO_DIR } from '../options/index.ts';
import { messageOf } from '../util/errors.ts';
import { packageId, TOOL } from '../util/toolVersion.ts';
import { baselineLine, printCampaignOptions, presentCampaign } from './check.ts';

/** What `mcp-sim merge` is given. */
export interface MergeFlags {
  readonly files: readonly string[];
  readonly jsonFile?: string;
  readonly junitFile?: string;
  readonly markdownFile?: string;
  readonly reproDir?: string;
  /** Print the findings the baseline explains in full, as `check --all-findings` does. */
  readonly allFindings?: boolean;
}

/**
 * `mcp-sim merge FILE...`: joins the `--json` reports of a campaign's shards into the report of
 * the whole campaign, prints it as `check` does (the same lines, replay files and verdict) and
 * exits as `check` does. Shards that do not make one campaign exit 2 with the reason.
 */
export async function mergeCommand(flags: MergeFlags): Promise<number> {
  const inputs: ShardInput[] = [];
  for (const file of flags.files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      process.stderr.write(`mcp-sim merge: cannot read ${file}: ${messageOf(error)}\n`);
      return 2;
    }
    try {
      inputs.push({ file, document: JSON.parse(text) });
    } catch (error) {
      process.stderr.write(`mcp-sim merge: ${file} is not JSON (${messageOf(error)}); pass the files check --shard I/N --json FILE wrote\n`);
      return 2;
    }
  }
  let merged: ReturnType<typeof mergeShards>;
  try {
    merged = mergeShards(inputs, knownCausesFor);
  } catch (error) {
    if (!(error instanceof MergeError)) throw error;
    process.stderr.write(`mcp-sim ${error.message}\n`);
    return 2;
  }
  const { report, sdk, tool } = merged;
  if (tool.name !== TOOL.name || tool.version !== TOOL.version) {
    // Case indices and replay commands mean other cases under another generator.
    process.stderr.write(`mcp-sim merge: the shards were made with ${packageId(tool)}, and this is ${packageId(TOOL)}: merge them with the mcp-sim that made them\n`);
    return 2;
  }
  const known = knownCausesFor(sdk, report.workload.profiles);
  console.log(pc.bold(`mcp-sim merge  seed=${report.seed}`));
  printCampaignOptions(sdk, { runs: report.planned ?? report.runs, shrink: report.shrink ?? false, selfCheck: report.selfCheck ?? false }, report.workload);
  console.log(`  shards        ${inputs.length}: ${flags.files.join(', ')} (made with ${tool.name}@${tool.version})`);
  console.log(`  baseline      ${baselineLine(known)}`);
  return presentCampaign(report, {
    sdk,
    known,
    reproDir: flags.reproDir ?? DEFAULT_REPRO_DIR,
    jsonFile: flags.jsonFile,
    junitFile: flags.junitFile,
    markdownFile: flags.markdownFile,
    knownFindings: flags.allFindings ? 'full' : 'summary',
  });
}
