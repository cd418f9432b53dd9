import { Command, InvalidArgumentError } from 'commander';
import { baselineCommand, DEFAULT_BASELINE_RUNS } from './baseline.ts';
import { checkCommand } from './check.ts';
import type { Profile } from '../sim/index.ts';
import { replayCommand } from './replay.ts';
import { rogueCommand } from './rogue.ts';

/** Parses a whole number option, naming the flag and the rule when it is not one. */
export function wholeNumber(flag: string, min = 0) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`${flag} takes a whole number ≥ ${min}, got "${value}".`);
    return n;
  };
}

const knownProfiles: readonly Profile[] = ['memory', 'http'];

/** Parses `--profiles memory,http`. */
export function profileList(value: string): Profile[] {
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !knownProfiles.includes(n as Profile));
  if (names.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`--profiles takes a comma-separated list of ${knownProfiles.join(', ')}; got "${value}".`);
  }
  return names as Profile[];
}

/** The `mcp-sim` command line; returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let code = 0;
  const program = new Command('mcp-sim')
    .description('Deterministic simulation and fuzzing of the MCP request lifecycle against the real SDK')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('check')
    .description('fuzz campaign against the installed SDK: generated workloads and schedules, judged by the lifecycle oracle')
    .option('--runs <n>', 'number of generated runs (env MCP_SIM_RUNS)', wholeNumber('--runs', 1))
    .option('--seed <n>', 'campaign seed (printed first; the same seed runs the same campaign)', wholeNumber('--seed'))
    .option('--actions-max <n>', 'most caller actions per scenario', wholeNumber('--actions-max', 1), 6)
    .option('--profiles <list>', 'transport profiles to draw scenarios from', profileList, [...knownProfiles])
    .option('--no-server-requests', 'only client→server tool calls')
    .option('--no-faults', 'no connection closes or reconnects')
    .option('--no-shrink', 'report first cases as found, without shrinking')
    .option('--self-check', 'run every case twice and compare trace hashes (harness.deterministic)')
    .option('--json <file>', 'also write the report as JSON')
    .option('--out <dir>', 'folder for replay files of counterexamples', '.mcp-sim/repro')
    .action(async (opts) => {
      code = await checkCommand(opts);
    });

  program
    .command('replay [file]')
    .description('replay one case: from a replay file written by check, or by campaign seed and case index')
    .option('--seed <n>', 'campaign seed', wholeNumber('--seed'))
    .option('--case <n>', 'case index in that campaign', wholeNumber('--case'))
    .option('--baseline <entry>', 'a baseline entry of the installed SDK: "<invariant> <variant> <shape>"')
    .option('--full', 'print every trace event (sends included)')
    .option('--mermaid', 'print a Mermaid sequence diagram')
    .option('--self-check', 'replay twice and compare trace hashes')
    .action(async (file: string | undefined, opts) => {
      code = await replayCommand(file, opts);
    });

  program
    .command('baseline')
    .description("find the installed SDK's violations with 1-minimal counterexamples; --update writes its baseline file")
    .option('--runs <n>', 'runs of the baseline campaign', wholeNumber('--runs', 1), DEFAULT_BASELINE_RUNS)
    .option('--seed <n>', 'campaign seed', wholeNumber('--seed'))
    .option('--profiles <list>', 'transport profiles', profileList, [...knownProfiles])
    .option('--update', 'write properties/baselines/<package>@<version>.json')
    .option('--table', 'only print the existing baseline as a Markdown table (detection and shrink measurements)')
    .action(async (opts) => {
      code = await baselineCommand(opts);
    });

  program
    .command('rogue')
    .description('rogue peer: frames the lifecycle model forbids, sent to the real SDK server and client')
    .option('--target <side>', "only attacks on 'client' or 'server'")
    .option('--filter <text>', 'only rogue kinds whose name contains this text')
    .action(async (opts) => {
      code = await rogueCommand(opts);
    });

  try {
    await program.parseAsync(argv as string[]);
  } catch (error) {
    const e = error as { code?: string; exitCode?: number; message?: string };
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
    if (typeof e.exitCode === 'number') return e.exitCode === 0 ? 0 : 2;
    process.stderr.write(`mcp-sim: ${e.message ?? String(error)}\n`);
    return 2;
  }
  return code;
}
