/**
 * mcp-sim's public API. Everything a test suite, a script or another tool may rely on is
 * exported here by name; the rest of `src/` is internal and may change.
 *
 * - `runScenario`: one scenario under one schedule tape against the real SDK, in virtual time.
 * - `runChecked` / `judge`: that run judged by the lifecycle oracle.
 * - `check`: a fuzz campaign, as `mcp-sim check` runs it.
 * - `loadSdk` / `defaultSdk`: an SDK release, loaded through its adapter.
 * - `fuzzServer`: a fuzz campaign against a user's own MCP server, for their test suite.
 * - `fuzzProcess`: the same for a server in any language, as a process or URL (black box, real time).
 */

// Simulator: scenarios, runs, traces.
export {
  runScenario,
  formatTrace,
  formatEvent,
  traceHash,
  summarizeFrame,
  globalsRestored,
  ScenarioError,
  DEFAULT_MAX_STEPS,
  DEFAULT_MAX_VIRTUAL_MS,
  DEFAULT_SEED,
} from './sim/index.ts';
export type {
  RunOptions,
  RunResult,
  RunOutcome,
  Scenario,
  CallerAction,
  CallOptions,
  HandlerProgram,
  HandlerStep,
  HandlerEnd,
  HandlerFaults,
  AbortPolicy,
  HttpMode,
  Profile,
  RequestMethod,
  Side,
  TraceEvent,
  WireId,
} from './sim/index.ts';

// Oracle: judging a run, the invariant catalogue, coverage.
export { runChecked, type CheckedRun, type CheckedRunOptions, type EndState } from './check/index.ts';
export { judge, judgeWithCoverage, invariants, invariant, coverage, racePairs, legalActions, sessionView } from './model/index.ts';
export type { Finding, Invariant, InvariantId, Level, Coverage, JudgeOptions, RacePair } from './model/index.ts';

// Campaigns and their options.
export { check, campaignOn, runCampaign, caseAt, caseSeed, minimize, readReplayFile } from './campaign/index.ts';
export type { CampaignReport, Counterexample, FindingSummary, SimCase, ReplayFile } from './campaign/index.ts';
export {
  resolveCampaignOptions,
  resolveReplayOptions,
  resolveBaselineOptions,
  resolvePropertyOptions,
  replayCaseCommand,
  OptionError,
} from './options/index.ts';
export type { CampaignOptions, ResolvedCampaignOptions, ReplayOptions, BaselineOptions, PropertyOptions } from './options/index.ts';

// Generators, for property tests of one's own.
export { scenarioArbitrary, tapeArbitrary, type ScenarioConstraints } from './workload/index.ts';

// Baselines of known violations.
export { loadBaseline, type Baseline, type BaselineEntry } from './baseline/baseline.ts';
export { knownFinding } from './baseline/known.ts';

// Reports.
export { formatCampaignReport, formatFinding, toMermaid } from './report/index.ts';

// SDK releases.
export { loadSdk, defaultSdk, installedSdk, SdkNotInstalledError } from './sdk/index.ts';
export type { SdkAdapter, SdkFacts, SdkLocation } from './sdk/index.ts';

// Exhaustive exploration of a small scenario's schedules, with partial-order reduction (docs/explore.md).
export { explore, explorePresets, explorePreset, type ExploreOptions, type ExploreResult, type ExploreFinding, type ExplorePreset } from './explore/index.ts';
// Fuzzing a user's own server.
export { fuzzServer, formatFuzzReport, TargetError, SERVER_CONDUCT } from './fuzz/index.ts';
export type { FuzzServerOptions, FuzzReport, FuzzFinding, FuzzCounterexample, ServerFactory, FactoryContext } from './fuzz/index.ts';

// Any target on the real clock (a server in any language as a process or a URL, an SDK's test bed): `check TARGET` as a function.
export { checkTarget, fuzzProcess, type TargetCheck, type TargetCheckOptions } from './campaign/checkTarget.ts';
export { formatRealReport, realMarkdownReport, realJunitReport, realJsonReport } from './report/realReport.ts';
export type { RealCampaignReport, RealFinding } from './campaign/real/realCampaign.ts';
export { describePlan, type Plan, type PlannedCall, type Anchor } from './real/plan.ts';
export { runPlan, type RealtimeRun } from './real/runPlan.ts';
export { BadTargetError } from './real/index.ts';
export { stdioEndpoint, httpEndpoint } from './targets/index.ts';
export type { CommandSpec, Endpoint, TargetConnection } from './real/index.ts';
export type { UrlSpec } from './targets/index.ts';
export { parseTarget } from './targets/kinds.ts';
export { TargetArgumentError, type TargetSpec, type TargetKind, type TargetDescription } from './targets/Target.ts';
// The one oracle on a black-box run: the run as the model sees it, judged on a real clock.
export { judgeObserved, observedTrace, REAL_CLIENT_FACTS, type ObservedVerdict, type ObserveOptions, type ObservedRun } from './model/index.ts';
export { JUDGED_ON_A_REAL_CLOCK, VIRTUAL_CLOCK, type Clock, type RealClock } from './model/index.ts';
