import { runChecked } from '../check/index.ts';
import { resolveCampaignOptions, type CampaignOptions, type Env, type ResolvedCampaignOptions } from '../options/index.ts';
import { defaultSdk, type SdkAdapter } from '../sdk/index.ts';
import type { KnownCauses } from './knownCauses.ts';
import type { ShrinkMemo } from './shrinkMemo.ts';
import { runCampaign, type CampaignHooks, type CampaignReport } from './runCampaign.ts';
import { CampaignWorkers } from './workerPool.ts';

/** What else a campaign may be given: a stop signal (Ctrl-C), and worker threads to reuse (a sweep). */
export interface CampaignContext {
  /** Aborting it stops the runs after the current one; the report covers the runs done. */
  readonly signal?: AbortSignal;
  /** Workers already started for `sdk` (a sweep runs several campaigns on one set); closed by their owner. */
  readonly workers?: CampaignWorkers;
  /** The SDK release's known causes (`knownCausesOf(loadBaseline(…))`): findings are told apart by them. @default NO_KNOWN_CAUSES */
  readonly known?: KnownCauses;
  /** The release's kept shrinks, and where to keep new ones (`CampaignHooks`). */
  readonly shrinkMemo?: ShrinkMemo;
  readonly recordShrinks?: ShrinkMemo;
  readonly onShrinksKept?: CampaignHooks['onShrinksKept'];
}

/** Worker threads for campaigns on `sdk`: as many as `options.workers`, none (undefined) for 1. */
export function workersFor(sdk: SdkAdapter, options: Pick<ResolvedCampaignOptions, 'workers'>): CampaignWorkers | undefined {
  return options.workers > 1 ? CampaignWorkers.start({ count: options.workers, sdk: { root: sdk.root, name: sdk.name, version: sdk.version } }) : undefined;
}

/**
 * A campaign whose every case runs on `sdk` and is judged with its facts: what `mcp-sim check`
 * runs once it has printed the resolved options. With `options.workers` > 1 the cases run in
 * that many worker threads (started here and closed at the end, unless `context.workers` is
 * given); the report is the same.
 */
export async function campaignOn(
  sdk: SdkAdapter,
  options: ResolvedCampaignOptions,
  onProgress?: CampaignHooks['onProgress'],
  context: CampaignContext = {},
): Promise<CampaignReport> {
  const owned = context.workers ? undefined : workersFor(sdk, options);
  try {
    return await runCampaign(options, {
      runner: (scenario, runOptions) => runChecked(scenario, { ...runOptions, sdk }),
      ...(onProgress && { onProgress }),
      ...(context.signal && { signal: context.signal }),
      ...(context.known && { known: context.known }),
      ...(context.shrinkMemo && { shrinkMemo: context.shrinkMemo }),
      ...(context.recordShrinks && { recordShrinks: context.recordShrinks }),
      ...(context.onShrinksKept && { onShrinksKept: context.onShrinksKept }),
      ...((context.workers ?? owned) && { executor: context.workers ?? owned }),
    });
  } finally {
    await owned?.close();
  }
}

/**
 * `mcp-sim check` as a function: resolves `options` (defaults, `MCP_SIM_SEED` and `MCP_SIM_RUNS`
 * from `env`), loads the SDK release (default: the one installed next to mcp-sim) and runs the
 * campaign. The report names what the baseline does not: compare it with `loadBaseline`.
 */
export async function check(
  options: CampaignOptions = {},
  context: { readonly sdk?: SdkAdapter; readonly env?: Env; readonly known?: KnownCauses } = {},
): Promise<CampaignReport> {
  const resolved = resolveCampaignOptions(options, context.env ?? process.env);
  return campaignOn(context.sdk ?? (await defaultSdk()), resolved, undefined, context.known ? { known: context.known } : {});
}
