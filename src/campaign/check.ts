import { runChecked } from '../check/index.ts';
import { resolveCampaignOptions, type CampaignOptions, type Env, type ResolvedCampaignOptions } from '../options/index.ts';
import { defaultSdk, type SdkAdapter } from '../sdk/index.ts';
import { runCampaign, type CampaignHooks, type CampaignReport } from './runCampaign.ts';

/**
 * A campaign whose every case runs on `sdk` and is judged with its facts: what `mcp-sim check`
 * runs once it has printed the resolved options.
 */
export function campaignOn(
  sdk: SdkAdapter,
  options: ResolvedCampaignOptions,
  onProgress?: CampaignHooks['onProgress'],
): Promise<CampaignReport> {
  return runCampaign(options, {
    runner: (scenario, runOptions) => runChecked(scenario, { ...runOptions, sdk }),
    ...(onProgress && { onProgress }),
  });
}

/**
 * `mcp-sim check` as a function: resolves `options` (defaults, `MCP_SIM_SEED` and `MCP_SIM_RUNS`
 * from `env`), loads the SDK release (default: the one installed next to mcp-sim) and runs the
 * campaign. The report names what the baseline does not: compare it with `loadBaseline`.
 */
export async function check(options: CampaignOptions = {}, context: { readonly sdk?: SdkAdapter; readonly env?: Env } = {}): Promise<CampaignReport> {
  const resolved = resolveCampaignOptions(options, context.env ?? process.env);
  return campaignOn(context.sdk ?? (await defaultSdk()), resolved);
}
