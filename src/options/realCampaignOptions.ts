import { availableParallelism } from 'node:os';
import {
  DEFAULT_CAMPAIGN_SEED,
  DEFAULT_FAIL_ON,
  DEFAULT_FUZZ_FAIL_ON,
  DEFAULT_HANG_AFTER_MS,
  DEFAULT_IN_FLIGHT_MS,
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_MAX_NOTIFICATION_RATE,
  DEFAULT_MAX_NOTIFICATIONS,
  DEFAULT_PROCESS_GRACE_MS,
  DEFAULT_PROCESS_RUNS,
  DEFAULT_RATE_RUNS,
  DEFAULT_REPRO_DIR,
  DEFAULT_SHARED,
  ENV_RUNS,
  ENV_SEED,
  FAIL_ON_LEVELS,
} from './defaults.ts';
import { CAMPAIGN_RUNS_LIMIT, type FailOn } from './campaignOptions.ts';
import { readArgsFile } from './fuzzOptions.ts';
import { OptionError } from './OptionError.ts';
import { envWholeNumber, outputPaths, seedValue, wholeNumber, type Env } from './optionRules.ts';
import type { FixedArguments } from '../workload/toolArguments.ts';
import type { WireBounds } from '../real/wireBounds.ts';

/** The flags of a real-time campaign, as the command line gives them (every one optional). */
export interface RealCampaignFlags {
  readonly runs?: number;
  readonly seed?: number;
  readonly parallel?: number;
  readonly rateRuns?: number;
  readonly hangAfter?: number;
  readonly maxFrameBytes?: number;
  readonly maxNotifications?: number;
  readonly maxNotificationRate?: number;
  readonly shrink?: boolean;
  readonly reuse?: boolean;
  /** One process (or session) per case (`--fresh`): the opposite of `--reuse`, the default of a process or URL. */
  readonly fresh?: boolean;
  /** `--tool-duration tool=ms`, repeatable: how long a tool is expected to take. */
  readonly toolDuration?: readonly string[];
  readonly duplicateIds?: boolean;
  readonly tools?: string;
  readonly args?: string;
  readonly failOn?: string;
  readonly out?: string;
  readonly json?: string;
  readonly junit?: string;
  readonly report?: string;
  readonly updateBaseline?: boolean;
  readonly scenario?: string;
}

/** Every option of a real-time campaign filled in, once (src/campaign/real/ reads only these). */
export interface ResolvedRealCampaignOptions {
  readonly seed: number;
  readonly runs: number;
  readonly parallel: number;
  readonly rateRuns: number;
  readonly bounds: { readonly hangAfterMs: number; readonly inFlightMs: number; readonly graceMs: number } & WireBounds;
  readonly shrink: boolean;
  /** Many cases at once on shared connections, every finding confirmed on a fresh process (a process or URL, unless `--fresh`). */
  readonly reuse: boolean;
  /** How long each tool is expected to take (`--tool-duration`), in ms: a silent call of it is waited for `SLOW_FACTOR` times that. */
  readonly toolMs: Readonly<Record<string, number>>;
  readonly duplicateIds: boolean;
  readonly tools: readonly string[] | undefined;
  readonly args: FixedArguments | undefined;
  readonly argsFile: string | undefined;
  readonly failOn: FailOn;
  readonly reproDir: string;
  readonly jsonFile: string | undefined;
  readonly junitFile: string | undefined;
  readonly markdownFile: string | undefined;
  readonly updateBaseline: boolean;
  readonly scenarios: readonly string[] | undefined;
}

/** The smallest `--max-frame-bytes`: room for a handshake's answer and a tool list. */
export const MAX_FRAME_BYTES_MIN = 4_096;

/** The shortest `--hang-after` that leaves a server time to answer at all. */
export const HANG_AFTER_MS_MIN = 100;

/**
 * Resolves a real-time campaign's flags and the environment (`MCP_SIM_RUNS`, `MCP_SIM_SEED`).
 * `userServer`: the target is a user's server (a process or a URL), whose every pitfall fails it
 * by default (`--fail-on advice`); an SDK's test bed or client fails from `should` up, as `check`
 * does on the SDK in process.
 */
export function resolveRealCampaignOptions(
  flags: RealCampaignFlags,
  context: { readonly userServer: boolean; readonly runs?: number; readonly parallel?: number; readonly rateRuns?: number; readonly inFlightMs?: number; readonly graceMs?: number },
  env: Env = process.env,
): ResolvedRealCampaignOptions {
  const defaultRuns = context.runs ?? DEFAULT_PROCESS_RUNS;
  const runs = wholeNumber({ option: 'runs', flag: '--runs' }, flags.runs ?? envWholeNumber(env, ENV_RUNS, 'runs', 1, CAMPAIGN_RUNS_LIMIT) ?? defaultRuns, 1, CAMPAIGN_RUNS_LIMIT, defaultRuns);
  const seed = seedValue({ option: 'seed', flag: '--seed' }, flags.seed ?? envWholeNumber(env, ENV_SEED, 'seed', 0) ?? DEFAULT_CAMPAIGN_SEED, DEFAULT_CAMPAIGN_SEED);
  const parallel = wholeNumber({ option: 'parallel', flag: '--parallel' }, flags.parallel ?? context.parallel ?? availableParallelism(), 1, 64);
  const rateRuns = wholeNumber({ option: 'rateRuns', flag: '--rate-runs' }, flags.rateRuns ?? context.rateRuns ?? DEFAULT_RATE_RUNS, 1, 1_000, DEFAULT_RATE_RUNS);
  const hangAfterMs = wholeNumber({ option: 'hangAfterMs', flag: '--hang-after' }, flags.hangAfter ?? DEFAULT_HANG_AFTER_MS, HANG_AFTER_MS_MIN, 3_600_000, DEFAULT_HANG_AFTER_MS);
  const maxFrameBytes = wholeNumber({ option: 'maxFrameBytes', flag: '--max-frame-bytes' }, flags.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES, MAX_FRAME_BYTES_MIN, 2 ** 31, DEFAULT_MAX_FRAME_BYTES);
  const maxNotifications = wholeNumber({ option: 'maxNotifications', flag: '--max-notifications' }, flags.maxNotifications ?? DEFAULT_MAX_NOTIFICATIONS, 1, 10_000_000, DEFAULT_MAX_NOTIFICATIONS);
  const maxNotificationRate = wholeNumber({ option: 'maxNotificationRate', flag: '--max-notification-rate' }, flags.maxNotificationRate ?? DEFAULT_MAX_NOTIFICATION_RATE, 1, 10_000_000, DEFAULT_MAX_NOTIFICATION_RATE);
  const defaultFailOn = context.userServer ? DEFAULT_FUZZ_FAIL_ON : DEFAULT_FAIL_ON;
  const failOn = flags.failOn ?? defaultFailOn;
  if (!(FAIL_ON_LEVELS as readonly string[]).includes(failOn)) {
    throw new OptionError({ option: 'failOn', flag: '--fail-on' }, failOn, `must be one of ${FAIL_ON_LEVELS.join(', ')}`, `give --fail-on must, should or advice, or leave it out for ${defaultFailOn}`);
  }
  outputPaths({ reproDir: flags.out, jsonFile: flags.json, junitFile: flags.junit, markdownFile: flags.report }, DEFAULT_REPRO_DIR);
  const tools = flags.tools?.split(',').map((t) => t.trim()).filter(Boolean);
  if (tools !== undefined && tools.length === 0) throw new OptionError({ option: 'tools', flag: '--tools' }, flags.tools, 'names no tool', 'give tool names, comma-separated, or leave --tools out for every tool');
  const scenarios = flags.scenario?.split(',').map((t) => t.trim()).filter(Boolean);
  if (flags.reuse === true && flags.fresh === true) {
    throw new OptionError({ option: 'fresh', flag: '--fresh' }, true, 'asks for one process per case, and --reuse for shared connections', 'give one of them, or neither for shared connections (the default)');
  }
  return {
    seed,
    runs,
    parallel,
    rateRuns,
    bounds: { hangAfterMs, inFlightMs: context.inFlightMs ?? DEFAULT_IN_FLIGHT_MS, graceMs: context.graceMs ?? DEFAULT_PROCESS_GRACE_MS, maxFrameBytes, maxNotifications, maxNotificationRate },
    shrink: flags.shrink ?? true,
    reuse: context.userServer ? flags.fresh !== true && (flags.reuse ?? DEFAULT_SHARED) : false,
    toolMs: toolDurations(flags.toolDuration),
    duplicateIds: flags.duplicateIds === true,
    tools,
    args: flags.args === undefined ? undefined : readArgsFile(flags.args),
    argsFile: flags.args,
    failOn: failOn as FailOn,
    reproDir: flags.out ?? DEFAULT_REPRO_DIR,
    jsonFile: flags.json,
    junitFile: flags.junit,
    markdownFile: flags.report,
    updateBaseline: flags.updateBaseline === true,
    scenarios,
  };
}

/** `--tool-duration tool=ms` pairs as ms by tool: each a tool's name, `=`, and a whole number of ms (1 to an hour). */
function toolDurations(pairs: readonly string[] | undefined): Readonly<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const pair of pairs ?? []) {
    const m = /^([^=]+)=(\d+)$/.exec(pair.trim());
    const ms = m ? Number(m[2]) : Number.NaN;
    if (!m || !(ms >= 1 && ms <= 3_600_000)) {
      throw new OptionError({ option: 'toolDuration', flag: '--tool-duration' }, pair, "must be a tool's name, =, and its expected duration in ms (1 to 3600000)", 'give --tool-duration work=30000');
    }
    out[m[1]!.trim()] = ms;
  }
  return out;
}
