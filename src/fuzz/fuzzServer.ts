import type { SdkAdapter } from '../sdk/SdkAdapter.ts';
import { fuzzCampaign, planFuzz, type FuzzOptions, type FuzzReport } from './fuzzCampaign.ts';
import { factoryTargetOf, loadTarget } from '../targets/module/loadModule.ts';
import type { ServerFactory } from '../targets/module/serverFactory.ts';

export interface FuzzServerOptions extends FuzzOptions {
  /** The context the factory gets as `config` (what a hosting platform would pass). @default {} */
  readonly config?: Record<string, unknown>;
  /** For a factory: the SDK release its server is built on. @default the copy the current project resolves */
  readonly sdk?: SdkAdapter;
}

/**
 * Fuzzes a user's own MCP server from a test suite: `server` is a factory (sync or async,
 * returning an `McpServer`, a low-level `Server` or `{ server, cleanup }`) or the path of a module
 * (as `mcp-sim fuzz` takes it). Resolves with the report; `report.passed` is the verdict, and
 * each finding carries its tool, arguments and minimal counterexample. Rejects with a
 * `TargetError` when there is no server to fuzz.
 */
export async function fuzzServer(server: ServerFactory | string, options: FuzzServerOptions = {}): Promise<FuzzReport> {
  const config = options.config ?? {};
  const target = typeof server === 'string' ? await loadTarget(server, { config }) : await factoryTargetOf(server, { config, ...(options.sdk && { sdk: options.sdk }) });
  const plan = await planFuzz(target, options);
  return fuzzCampaign(plan, options);
}
