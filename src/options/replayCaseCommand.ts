import { DEFAULT_WORKLOAD, workloadFlags, type ResolvedWorkload } from './workloadOptions.ts';

/**
 * The flags that give `workload` on the command line: one per option that differs from the
 * default, in a fixed order (`--profiles`, `--actions-max`, `--steps-max`,
 * `--no-server-requests`, `--no-faults`). Empty for the default workload, so default commands
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
  return args;
}

const negated = (flag: string, value: boolean) => (value ? flag : flag.replace(/^--/, '--no-'));

/** The arguments after `mcp-sim` that replay case `caseIndex` of campaign `seed`, drawn with `workload`. */
export function replayCaseArgs(seed: number, caseIndex: number, workload: ResolvedWorkload): string[] {
  return ['replay', '--seed', String(seed), '--case', String(caseIndex), ...workloadArgs(workload)];
}

/**
 * The command a report prints to replay the original case of a finding: the campaign's seed,
 * the case index and every workload flag the campaign ran with, so it draws the very same case.
 */
export function replayCaseCommand(seed: number, caseIndex: number, workload: ResolvedWorkload): string {
  return `npx mcp-sim ${replayCaseArgs(seed, caseIndex, workload).join(' ')}`;
}
