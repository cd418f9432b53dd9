import { readFileSync } from 'node:fs';
import {
  DEFAULT_CAMPAIGN_SEED,
  DEFAULT_FUZZ_FAIL_ON,
  DEFAULT_FUZZ_RUNS,
  DEFAULT_REPRO_DIR,
  ENV_RUNS,
  ENV_SEED,
  FAIL_ON_LEVELS,
} from './defaults.ts';
import { OptionError } from './OptionError.ts';
import { envWholeNumber, seedValue, wholeNumber, type Env } from './optionRules.ts';
import type { FailOn } from './campaignOptions.ts';
import { CAMPAIGN_RUNS_LIMIT } from './campaignOptions.ts';
import type { ToolArguments } from '../workload/toolCallArbitrary.ts';

/** `mcp-sim fuzz` as asked for: every field optional. */
export interface FuzzCommandOptions {
  readonly module: string;
  readonly runs?: number;
  readonly seed?: number;
  /** A JSON file of fixed argument sets by tool: `{ "crawl": [{ "urls": ["https://example.com"] }] }`. */
  readonly argsFile?: string;
  /** JSON text or a JSON file: the factory's `config`. */
  readonly config?: string;
  readonly shrink?: boolean;
  readonly failOn?: string;
  readonly jsonFile?: string;
  readonly junitFile?: string;
  readonly markdownFile?: string;
  readonly reproDir?: string;
  /** Replay a fuzz replay file instead of a campaign. */
  readonly replayFile?: string;
  /** Replay case K of the campaign of `seed` instead of a campaign. */
  readonly caseIndex?: number;
  /** The invariant a replay must show (`reproduced:` or exit 3). */
  readonly expect?: string;
}

/** Every option filled in: the fixed arguments and config read and parsed. */
export interface ResolvedFuzzOptions {
  readonly module: string;
  readonly runs: number;
  readonly seed: number;
  readonly argsFile: string | undefined;
  readonly args: Readonly<Record<string, readonly ToolArguments[]>> | undefined;
  readonly config: Readonly<Record<string, unknown>>;
  readonly shrink: boolean;
  readonly failOn: FailOn;
  readonly jsonFile: string | undefined;
  readonly junitFile: string | undefined;
  readonly markdownFile: string | undefined;
  readonly reproDir: string;
  readonly replay: { readonly kind: 'file'; readonly file: string } | { readonly kind: 'case'; readonly index: number } | undefined;
  readonly expect: string | undefined;
}

function jsonOf(flag: string, option: string, text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new OptionError({ option, flag }, text.length > 60 ? `${text.slice(0, 60)}…` : text, `is not valid JSON (${(error as Error).message})`, `give ${what}`);
  }
}

function readJsonFile(flag: string, option: string, file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new OptionError({ option, flag }, file, 'names no readable file', `give the path of ${what}`);
  }
  return jsonOf(flag, option, text, what);
}

const ARGS_SHAPE = 'a JSON object of argument sets by tool name, e.g. {"crawl": [{"urls": ["https://example.com"]}]}';

/** `--args FILE`: fixed argument sets by tool (module and process fuzzing alike); a bad file is an `OptionError`. */
export function readArgsFile(file: string): NonNullable<ResolvedFuzzOptions['args']> {
  const value = readJsonFile('--args', 'argsFile', file, ARGS_SHAPE);
  const ok = typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((sets) => Array.isArray(sets));
  if (!ok) throw new OptionError({ option: 'argsFile', flag: '--args' }, file, 'does not hold argument sets by tool', `give ${ARGS_SHAPE}`);
  return value as NonNullable<ResolvedFuzzOptions['args']>;
}

/** Resolves `mcp-sim fuzz`'s flags and the environment (`MCP_SIM_RUNS`, `MCP_SIM_SEED`) into one options object. */
export function resolveFuzzOptions(input: FuzzCommandOptions, env: Env = process.env): ResolvedFuzzOptions {
  const runs = wholeNumber({ option: 'runs', flag: '--runs' }, input.runs ?? envWholeNumber(env, ENV_RUNS, 'runs', 1, CAMPAIGN_RUNS_LIMIT) ?? DEFAULT_FUZZ_RUNS, 1, CAMPAIGN_RUNS_LIMIT, DEFAULT_FUZZ_RUNS);
  const seed = seedValue({ option: 'seed', flag: '--seed' }, input.seed ?? envWholeNumber(env, ENV_SEED, 'seed', 0) ?? DEFAULT_CAMPAIGN_SEED, DEFAULT_CAMPAIGN_SEED);
  const failOn = input.failOn ?? DEFAULT_FUZZ_FAIL_ON;
  if (!(FAIL_ON_LEVELS as readonly string[]).includes(failOn)) {
    throw new OptionError({ option: 'failOn', flag: '--fail-on' }, failOn, `must be one of ${FAIL_ON_LEVELS.join(', ')}`, `give --fail-on must, should or advice, or leave it out for ${DEFAULT_FUZZ_FAIL_ON}`);
  }
  const args = input.argsFile === undefined ? undefined : readArgsFile(input.argsFile);
  let config: Record<string, unknown> = {};
  if (input.config !== undefined) {
    const text = input.config.trim();
    const value = text.startsWith('{') ? jsonOf('--config', 'config', text, 'a JSON object or the path of a JSON file') : readJsonFile('--config', 'config', input.config, 'a JSON file with an object');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new OptionError({ option: 'config', flag: '--config' }, input.config, 'is not a JSON object', 'give a JSON object, e.g. {"apiKey": "test"}');
    config = value as Record<string, unknown>;
  }
  if (input.replayFile !== undefined && input.caseIndex !== undefined) {
    throw new OptionError({ option: 'caseIndex', flag: '--case' }, input.caseIndex, 'cannot be used with --replay', 'replay either a file (--replay FILE) or a case (--seed S --case K)');
  }
  if (input.expect !== undefined && input.replayFile === undefined && input.caseIndex === undefined) {
    throw new OptionError({ option: 'expect', flag: '--expect' }, input.expect, 'applies to a replay only', 'add --replay FILE or --case K, or leave --expect out');
  }
  const replay: ResolvedFuzzOptions['replay'] =
    input.replayFile !== undefined
      ? { kind: 'file', file: input.replayFile }
      : input.caseIndex !== undefined
        ? { kind: 'case', index: wholeNumber({ option: 'caseIndex', flag: '--case' }, input.caseIndex, 0) }
        : undefined;
  return {
    module: input.module,
    runs,
    seed,
    argsFile: input.argsFile,
    args,
    config,
    shrink: input.shrink ?? true,
    failOn: failOn as FailOn,
    jsonFile: input.jsonFile,
    junitFile: input.junitFile,
    markdownFile: input.markdownFile,
    reproDir: input.reproDir ?? DEFAULT_REPRO_DIR,
    replay,
    expect: input.expect,
  };
}
