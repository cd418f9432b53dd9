import type { Command } from 'commander';
import {
  DEFAULT_ACTIONS_MAX,
  DEFAULT_FAULTS,
  DEFAULT_PROFILES,
  DEFAULT_SERVER_REQUESTS,
  DEFAULT_STEPS_MAX,
  KNOWN_PROFILES,
  workloadFlags,
} from '../options/index.ts';
import { replayFlags } from '../options/replayCaseCommand.ts';
import type { Profile } from '../sim/index.ts';
import { LEAVABLE_PARTS, type LeavablePart } from '../workload/leavableParts.ts';
import type { ScenarioConstraints } from '../workload/scenarioArbitrary.ts';
import { commaListArg, wholeNumberArg } from './flagParsers.ts';

const yesNo = (b: boolean) => (b ? 'on' : 'off');

/**
 * Registers the workload flags on `check`, `replay` and `baseline`, with the names
 * `workloadArgs` prints (src/options/replayCaseCommand.ts). No commander defaults: an absent
 * flag stays undefined and the resolver fills in the default, so the two cannot disagree. The
 * booleans come in pairs (`--faults`, `--no-faults`) for the same reason: a lone `--no-faults`
 * would make commander default `faults` to true by itself.
 */
export function addWorkloadOptions(command: Command): Command {
  const f = workloadFlags;
  return command
    .option(`${f.profiles} <list>`, `transport profiles to draw scenarios from: ${KNOWN_PROFILES.join(', ')} (default: ${DEFAULT_PROFILES.join(',')})`, commaListArg)
    .option(`${f.actionsMax} <n>`, `most caller actions per scenario (default: ${DEFAULT_ACTIONS_MAX})`, wholeNumberArg(f.actionsMax))
    .option(`${f.stepsMax} <n>`, `most steps per handler script (default: ${DEFAULT_STEPS_MAX})`, wholeNumberArg(f.stepsMax))
    .option(f.serverRequests, `server-initiated requests (sampling, elicitation, roots) too (default: ${yesNo(DEFAULT_SERVER_REQUESTS)})`)
    .option(`--no-${f.serverRequests.slice(2)}`, 'only client→server tool calls')
    .option(f.faults, `connection closes and reconnects (default: ${yesNo(DEFAULT_FAULTS)})`)
    .option(`--no-${f.faults.slice(2)}`, 'no connection closes or reconnects')
    .option(`${f.leaveOut} <list>`, `workload parts to leave out: ${LEAVABLE_PARTS.join(', ')} (check leaves out by itself what the release lacks)`, commaListArg);
}

/** The workload flags as commander parses them (its attribute names are the option names). */
export interface WorkloadFlags {
  profiles?: string[];
  actionsMax?: number;
  stepsMax?: number;
  serverRequests?: boolean;
  faults?: boolean;
  leaveOut?: string[];
}

/**
 * The workload flags given on the command line, and only those: an empty object when none is,
 * so `replay FILE` can tell that no workload flag came with it.
 */
export function workloadOf(flags: WorkloadFlags): ScenarioConstraints {
  const picked: { -readonly [K in keyof ScenarioConstraints]: ScenarioConstraints[K] } = {};
  if (flags.profiles !== undefined) picked.profiles = flags.profiles as Profile[];
  if (flags.actionsMax !== undefined) picked.actionsMax = flags.actionsMax;
  if (flags.stepsMax !== undefined) picked.stepsMax = flags.stepsMax;
  if (flags.serverRequests !== undefined) picked.serverRequests = flags.serverRequests;
  if (flags.faults !== undefined) picked.faults = flags.faults;
  if (flags.leaveOut !== undefined) picked.leaveOut = flags.leaveOut as LeavablePart[];
  return picked;
}

/**
 * Registers `replay`'s coordinate flags with the names `coordinateArgs` prints
 * (src/options/replayCaseCommand.ts): `--expect <invariant>` and `--made-with <tool@v,sdk@v>`.
 * Their values are checked by `resolveReplayOptions`.
 */
export function addReplayCoordinateOptions(command: Command): Command {
  return command
    .option(`${replayFlags.expect} <invariant>`, 'the invariant the case should show: ends with "reproduced: <invariant>", or "NOT reproduced: …" and exit 3')
    .option(
      `${replayFlags.madeWith} <versions>`,
      'the mcp-sim and SDK versions that found the case, <tool>@<version>,<sdk package>@<version>: replay refuses (exit 2) under others',
    );
}

/** The coordinate flags as commander parses them. */
export interface ReplayCoordinateFlags {
  expect?: string;
  madeWith?: string;
}
