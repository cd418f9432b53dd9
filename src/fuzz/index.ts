/**
 * Fuzzing a user's own MCP server (`mcp-sim fuzz`, `fuzzServer`): loading it from a module or a
 * factory, discovering its tools, generating runs of them, judging each with the oracle, and
 * reporting findings in the author's terms.
 */
export { fuzzServer, type FuzzServerOptions } from './fuzzServer.ts';
export {
  fuzzCampaign,
  failsCampaign,
  fuzzCaseAt,
  limitsOf,
  planFuzz,
  runFuzzCase,
  type FailOn,
  type FuzzCounterexample,
  type FuzzFinding,
  type FuzzOptions,
  type FuzzPlan,
  type FuzzReport,
} from './fuzzCampaign.ts';
export { explain, callOf, type FindingCall } from './explain.ts';
export { formatFuzzReport } from './formatFuzzReport.ts';
export { fuzzJunitReport, fuzzMarkdownReport, type Replays } from './fuzzReportViews.ts';
export { ownerOf, SERVER_CONDUCT } from './ownership.ts';
export { FixedArgumentsError, planTools, type FixedArguments, type SkippedTool } from '../workload/toolArguments.ts';
export { loadTarget, factoryTargetOf, type FuzzTarget } from '../targets/module/loadModule.ts';
export { discoverTools } from '../targets/module/discoverTools.ts';
export { TargetError, type TargetErrorKind } from '../targets/module/TargetError.ts';
export type { FactoryContext, ServerFactory } from '../targets/module/serverFactory.ts';
