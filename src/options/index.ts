/**
 * One options object per kind of run (campaign, replay, baseline, property suite), each resolved
 * in one place: defaults filled in from `defaults.ts`, environment overrides read, bad values
 * and combinations rejected with an `OptionError` that says how to fix them.
 */
export * from './defaults.ts';
export { OptionError, type OptionName } from './OptionError.ts';
export type { Env } from './optionRules.ts';
export { DEFAULT_WORKLOAD, resolveWorkload, workloadFlags, workloadKey, type ResolvedWorkload } from './workloadOptions.ts';
export { CAMPAIGN_RUNS_LIMIT, resolveCampaignOptions, type CampaignOptions, type FailOn, type ResolvedCampaignOptions, type ShardSpec } from './campaignOptions.ts';
export { resolveReplayOptions, type ReplayOptions, type ReplaySource, type ResolvedReplayOptions } from './replayOptions.ts';
export { resolveBaselineOptions, type BaselineOptions, type ResolvedBaselineOptions } from './baselineOptions.ts';
export { resolvePropertyOptions, type PropertyOptions, type ResolvedPropertyOptions } from './propertyOptions.ts';
export { resolveExploreOptions, type ExploreCliOptions, type ExploreSource, type ResolvedExploreOptions } from './exploreOptions.ts';
export { replayCaseArgs, replayCaseCommand, workloadArgs } from './replayCaseCommand.ts';
export { resolveSpec, SPEC_FLAG, workloadUnderSpec } from './specOptions.ts';
export { resolveFuzzOptions, type FuzzCommandOptions, type ResolvedFuzzOptions } from './fuzzOptions.ts';
