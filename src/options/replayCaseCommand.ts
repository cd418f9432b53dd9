import type { InvariantId } from '../model/invariants.ts';
import { packageId, type PackageId } from '../util/toolVersion.ts';
import { OptionError } from './OptionError.ts';
import { DEFAULT_WORKLOAD, workloadFlags, type ResolvedWorkload } from './workloadOptions.ts';

/**
 * The flags of a replay's coordinates besides the case itself: `replay` registers these
 * (src/cli/workloadFlags.ts) and `replayCaseArgs` prints them, so a printed command parses back.
 */
export const replayFlags = {
  /** The invariant the case is expected to show: replay says whether it reproduced. */
  expect: '--expect',
  /** The mcp-sim and SDK versions the case was found with: `mcp-sim@0.1.0,@modelcontextprotocol/sdk@1.32.2`. */
  madeWith: '--made-with',
} as const;

/**
 * What made a case: mcp-sim's version (its generator draws case K of seed S, its scheduler reads
 * the tape) and the SDK release it ran on (what the oracle judged). A replay under other
 * versions would run or judge something else, so `replay` refuses it.
 */
export interface MadeWith {
  readonly tool: PackageId;
  readonly sdk: PackageId;
}

/** The coordinates of a case besides (seed, index, workload): what it should show and what made it. */
export interface CaseCoordinates {
  /** The invariant the case showed when it was found. */
  readonly expect?: InvariantId;
  readonly madeWith?: MadeWith;
  /** The `--sdk` the campaign ran with (a folder or version), when not the installed release: the replay runs the same copy. */
  readonly sdk?: string;
}

/** `--made-with`'s value: `<tool>@<version>,<sdk package>@<version>`. */
export function madeWithArg(m: MadeWith): string {
  return `${packageId(m.tool)},${packageId(m.sdk)}`;
}

const oneId = /^(@?[^@\s,]+)@([^@\s,]+)$/;

/** Reads `madeWithArg`'s text back; an `OptionError` says what it should look like. */
export function parseMadeWith(text: unknown, flag: string = replayFlags.madeWith): MadeWith {
  const ids = typeof text === 'string' ? text.split(',').map((s) => oneId.exec(s.trim())) : [];
  if (ids.length !== 2 || ids.some((m) => m === null)) {
    throw new OptionError(
      { option: 'madeWith', flag },
      text,
      'must name the mcp-sim and SDK versions as <tool>@<version>,<sdk package>@<version>',
      'copy it as check printed it, e.g. mcp-sim@0.1.0,@modelcontextprotocol/sdk@1.32.2',
    );
  }
  const [tool, sdk] = ids.map((m) => ({ name: m![1]!, version: m![2]! }));
  return { tool: tool!, sdk: sdk! };
}

/**
 * The one line that refuses a replay whose case was made with other versions than `current`,
 * saying what differs and what to do; undefined when they agree.
 */
export function madeWithMismatch(recorded: MadeWith, current: MadeWith, what: string): string | undefined {
  const differs = (['tool', 'sdk'] as const).filter((k) => packageId(recorded[k]) !== packageId(current[k]));
  if (differs.length === 0) return undefined;
  const saying = differs
    .map((k) => `${packageId(recorded[k])}, but ${k === 'tool' ? `this is ${packageId(current.tool)}` : `${packageId(current.sdk)} is installed`}`)
    .join('; and with ');
  const wanted = differs.map((k) => packageId(recorded[k])).join(' and ');
  const install = differs.includes('sdk') ? ` (npm i ${packageId(recorded.sdk)})` : '';
  return (
    `replay refused: ${what} was made with ${saying}; it would not replay the same run. ` +
    `Fix: replay it with ${wanted}${install}, or run mcp-sim check again on these versions for a new replay command.`
  );
}

/**
 * `arg` as a POSIX shell reads it back: as is when it is plain (letters, digits, `@%+=:,./-_`),
 * else in single quotes, so that a printed command works when pasted (a path with a space).
 */
export function shellArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * The flags that give `workload` on the command line: one per option that differs from the
 * default, in a fixed order (`--profiles`, `--actions-max`, `--steps-max`,
 * `--no-server-requests`, `--no-faults`, `--leave-out`). Empty for the default workload, so default commands
 * print as before.
 */
export function workloadArgs(workload: ResolvedWorkload): string[] {
  const d = DEFAULT_WORKLOAD;
  const args: string[] = [];
  if (workload.profiles.join(',') !== d.profiles.join(',')) args.push(workloadFlags.profiles, workload.profiles.join(','));
  if (workload.actionsMax !== d.actionsMax) args.push(workloadFlags.actionsMax, String(workload.actionsMax));
  if (workload.stepsMax !== d.stepsMax) args.push(workloadFlags.stepsMax, String(workload.stepsMax));
  if (workload.serverRequests !== d.serverRequests) args.push(negated(workloadFlags.serverRequests, workload.serverRequests));
  if (workload.faults !== d.faults) args.push(negated(workloadFlags.faults, workload.faults));
  if (workload.leaveOut) args.push(workloadFlags.leaveOut, workload.leaveOut.join(','));
  return args;
}

const negated = (flag: string, value: boolean) => (value ? flag : flag.replace(/^--/, '--no-'));

/** The flags that give `coordinates`: `--expect <invariant>` and `--made-with <tool@v,sdk@v>`, each when known. */
export function coordinateArgs(coordinates: CaseCoordinates = {}): string[] {
  return [
    ...(coordinates.expect ? [replayFlags.expect, coordinates.expect] : []),
    ...(coordinates.madeWith ? [replayFlags.madeWith, madeWithArg(coordinates.madeWith)] : []),
    ...(coordinates.sdk ? ['--sdk', coordinates.sdk] : []),
  ];
}

/**
 * The arguments after `mcp-sim` that replay case `caseIndex` of campaign `seed`, drawn with
 * `workload`, expecting `coordinates.expect` under the versions of `coordinates.madeWith`.
 */
export function replayCaseArgs(seed: number, caseIndex: number, workload: ResolvedWorkload, coordinates: CaseCoordinates = {}): string[] {
  return ['replay', '--seed', String(seed), '--case', String(caseIndex), ...workloadArgs(workload), ...coordinateArgs(coordinates)];
}

/** The command a report prints to replay a replay file: its path quoted for the shell when it must be. */
export function replayFileCommand(file: string, sdk?: string): string {
  return `npx mcp-sim replay ${shellArg(file)}${sdk ? ` --sdk ${shellArg(sdk)}` : ''}`;
}

/**
 * The command a report prints to replay the original case of a finding: the campaign's seed,
 * the case index and every workload flag the campaign ran with, so it draws the very same case;
 * then the invariant it showed and the mcp-sim and SDK versions that found it, so the replay
 * says whether it reproduced and refuses to run under other versions.
 */
export function replayCaseCommand(seed: number, caseIndex: number, workload: ResolvedWorkload, coordinates: CaseCoordinates = {}): string {
  return `npx mcp-sim ${replayCaseArgs(seed, caseIndex, workload, coordinates).map(shellArg).join(' ')}`;
}
