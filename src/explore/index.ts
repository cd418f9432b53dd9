/** `mcp-sim explore`: every schedule of a small scenario, with dynamic partial-order reduction. */
export { explore, causeOf, type ExploreFinding, type ExploreOptions, type ExploreResult } from './explore.ts';
export { enumerateSchedules, SleepBlocked, type Chooser, type EnumerateOptions, type EnumerationStats, type ScheduleRun } from './enumerateSchedules.ts';
export { endStateHash } from './endStateHash.ts';
export { explorePreset, explorePresets, type ExplorePreset } from './presets.ts';
