import { COMMON_FLAGS, flagSet, IN_PROCESS_FLAGS, SDK_REPORT_FLAGS } from '../../options/checkFlags.ts';
import { atRelease } from '../words.ts';
import type { TargetKindDefinition } from '../Target.ts';

/**
 * An SDK release in process: its real client and server over links mcp-sim schedules, in
 * virtual time, driven by generated scenarios and schedule tapes. Nothing names the installed
 * SDK; `sdk@1.26.0` (installed once into mcp-sim's cache) or `sdk@<folder>` names another.
 */
export const sdkKind: TargetKindDefinition<'sdk'> = {
  kind: 'sdk',
  clock: 'virtual',
  author: 'sdk',
  forms: ['(none)            the installed @modelcontextprotocol/sdk, in process, virtual time', 'sdk@<version>     another release (installed once), or sdk@<folder>'],
  parse(argument, command) {
    if (command !== undefined) return undefined;
    if (argument === undefined || argument === 'sdk') return { kind: 'sdk' };
    if (!argument.startsWith('sdk@')) return undefined;
    const { release } = atRelease(argument);
    return { kind: 'sdk', ...(release !== undefined && { release }) };
  },
  argumentOf: (spec) => (spec.release === undefined ? [] : [`sdk@${spec.release}`]),
  flags: flagSet(COMMON_FLAGS, IN_PROCESS_FLAGS, SDK_REPORT_FLAGS),
  refusal: (flag) =>
    `${flag} is for a server mcp-sim talks to from outside (a module, a process, a URL or a test bed); an SDK release runs in process, in virtual time, with generated scenarios and its own schedules`,
};
