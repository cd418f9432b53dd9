import { resolveCampaignOptions, type FailOn } from '../options/index.ts';
import type { SpecRevision } from '../model/specRevision.ts';
import { ENV_SDK } from '../sdk/envNames.ts';
import { parseSdkChoice, SdkChoiceError, sdkFolderOf } from '../sdk/install.ts';
import { TargetArgumentError, type SpecOf } from '../targets/Target.ts';
import { workloadOf, type WorkloadFlags } from './workloadFlags.ts';
import type { CheckOpts } from './front.ts';

/** What commander parses for `check` on an SDK release (absent flags stay undefined). */
interface SdkCheckFlags extends WorkloadFlags {
  seed?: number;
  runs?: number;
  shrink?: boolean;
  selfCheck?: boolean;
  failOn?: string;
  strictCauses?: boolean;
  out?: string;
  json?: string;
  junit?: string;
  report?: string;
  workers?: number;
  shard?: string;
  timeLimit?: number;
  seeds?: string;
  spec?: string;
  freshShrinks?: boolean;
  recordShrinks?: boolean;
  allFindings?: boolean;
}

/**
 * `check` on an SDK release in process (`check`, `check sdk@1.26.0`): the release made the one
 * every load of this command follows (`MCP_SIM_SDK`: runs, worker threads, baselines), the flags
 * resolved into the campaign's options, then the simulated campaign (src/cli/check.ts).
 */
export async function checkSdk(spec: SpecOf<'sdk'>, opts: CheckOpts): Promise<number> {
  if (spec.release !== undefined) {
    let folder: string | undefined;
    try {
      folder = await sdkFolderOf(parseSdkChoice(spec.release), { onInstall: (message) => process.stderr.write(`${message}\n`) });
    } catch (error) {
      if (!(error instanceof SdkChoiceError)) throw error;
      throw new TargetArgumentError(`mcp-sim check sdk@${spec.release}: ${error.message.replace(/^--sdk \S+: /, '').replace(/^--sdk /, '')}`);
    }
    if (folder === undefined) delete process.env[ENV_SDK];
    else process.env[ENV_SDK] = folder;
  }
  const flags = opts as SdkCheckFlags;
  const options = resolveCampaignOptions({
    seed: flags.seed,
    runs: flags.runs,
    shrink: flags.shrink,
    selfCheck: flags.selfCheck,
    failOn: flags.failOn as FailOn | undefined,
    strictCauses: flags.strictCauses,
    reproDir: flags.out,
    jsonFile: flags.json,
    junitFile: flags.junit,
    markdownFile: flags.report,
    workload: workloadOf(flags),
    workers: flags.workers,
    shard: flags.shard,
    timeLimitSeconds: flags.timeLimit,
    seeds: flags.seeds,
    ...(flags.spec !== undefined && { spec: flags.spec as SpecRevision }),
  });
  if (flags.freshShrinks && flags.recordShrinks) {
    process.stderr.write('mcp-sim check: --fresh-shrinks and --record-shrinks: choose one (--record-shrinks shrinks every task afresh anyway).\n');
    return 2;
  }
  const { checkCommand } = await import('./check.ts');
  return checkCommand(options, {
    shrinks: flags.recordShrinks ? 'record' : flags.freshShrinks ? 'fresh' : 'kept',
    allFindings: flags.allFindings === true,
    ...(spec.release !== undefined && { sdkRelease: spec.release }),
  });
}
