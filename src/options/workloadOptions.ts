import type { Profile } from '../sim/scenario.ts';
import type { ScenarioConstraints } from '../workload/scenarioArbitrary.ts';
import type { LeavablePart } from '../workload/leavableParts.ts';
import { DEFAULT_ACTIONS_MAX, DEFAULT_FAULTS, DEFAULT_PROFILES, DEFAULT_SERVER_REQUESTS, DEFAULT_STEPS_MAX } from './defaults.ts';
import { OptionError } from './OptionError.ts';
import { booleanValue, leavablePartList, profileList, wholeNumber } from './optionRules.ts';

/** The workload of a run with every bound filled in: what `caseAt(seed, index, workload)` draws from. */
export interface ResolvedWorkload {
  readonly actionsMax: number;
  readonly stepsMax: number;
  readonly serverRequests: boolean;
  readonly faults: boolean;
  readonly profiles: readonly Profile[];
  /**
   * Parts left out for a release that lacks them, in `LEAVABLE_PARTS` order; absent when none
   * (so the workloads of before, and their keys, are unchanged).
   */
  readonly leaveOut?: readonly LeavablePart[];
}

/**
 * The command-line flag of each workload option: `check`, `replay` and `baseline` register
 * these, and `workloadArgs` prints them, so a printed command parses back to the same workload.
 * Boolean options are printed negated (`--no-faults`) since they default to true.
 */
export const workloadFlags = {
  actionsMax: '--actions-max',
  stepsMax: '--steps-max',
  profiles: '--profiles',
  serverRequests: '--server-requests',
  faults: '--faults',
  leaveOut: '--leave-out',
} as const satisfies Record<keyof ResolvedWorkload, string>;

/** The defaults of a run's workload (every profile; the bare generator draws `memory` only). */
export const DEFAULT_WORKLOAD: ResolvedWorkload = Object.freeze({
  actionsMax: DEFAULT_ACTIONS_MAX,
  stepsMax: DEFAULT_STEPS_MAX,
  serverRequests: DEFAULT_SERVER_REQUESTS,
  faults: DEFAULT_FAULTS,
  profiles: DEFAULT_PROFILES,
});

/**
 * A workload as one string, equal for equal workloads (keys sorted): campaigns are comparable
 * (shards merge, baseline rates apply) only when their workloads' keys are equal.
 */
export function workloadKey(w: ResolvedWorkload): string {
  // Asked for once per run of a campaign (is this case one the baseline's campaign ran?), of one workload.
  let key = workloadKeys.get(w);
  if (key === undefined) workloadKeys.set(w, (key = JSON.stringify(Object.fromEntries(Object.keys(w).sort().map((k) => [k, w[k as keyof ResolvedWorkload]])))));
  return key;
}

/** Keys of the resolved workloads seen (a resolved workload is not changed after `resolveWorkload`). */
const workloadKeys = new WeakMap<ResolvedWorkload, string>();

/** Most caller actions a workload may ask for: runs grow with it, and shrinking with its square. */
export const ACTIONS_MAX_LIMIT = 64;
/** Most steps per handler script a workload may ask for. */
export const STEPS_MAX_LIMIT = 64;

const field = (key: keyof ResolvedWorkload, at: string) => ({ option: `${at}.${key}`, flag: workloadFlags[key] });

/** `input` with every default filled in and every bound checked; `at` names it in errors. */
export function resolveWorkload(input: ScenarioConstraints = {}, at = 'workload'): ResolvedWorkload {
  if (typeof input !== 'object' || input === null) {
    throw new OptionError({ option: at }, input, 'must be an object of workload bounds', 'pass { actionsMax, stepsMax, serverRequests, faults, profiles, leaveOut } or leave it out');
  }
  const unknown = Object.keys(input).filter((k) => !(k in workloadFlags));
  if (unknown.length > 0) {
    throw new OptionError({ option: at }, Object.keys(input), `has unknown field(s) ${unknown.join(', ')}`, `use only ${Object.keys(workloadFlags).join(', ')}`);
  }
  return Object.freeze({
    actionsMax: wholeNumber(field('actionsMax', at), input.actionsMax ?? DEFAULT_ACTIONS_MAX, 1, ACTIONS_MAX_LIMIT, DEFAULT_ACTIONS_MAX),
    stepsMax: wholeNumber(field('stepsMax', at), input.stepsMax ?? DEFAULT_STEPS_MAX, 0, STEPS_MAX_LIMIT, DEFAULT_STEPS_MAX),
    serverRequests: booleanValue(field('serverRequests', at), input.serverRequests ?? DEFAULT_SERVER_REQUESTS),
    faults: booleanValue(field('faults', at), input.faults ?? DEFAULT_FAULTS),
    profiles: profileList(field('profiles', at), input.profiles ?? DEFAULT_PROFILES),
    ...leftOutField(leavablePartList(field('leaveOut', at), input.leaveOut ?? [])),
  });
}

/** The `leaveOut` field: present only when something is left out. */
function leftOutField(parts: readonly LeavablePart[]): { leaveOut?: readonly LeavablePart[] } {
  return parts.length > 0 ? { leaveOut: parts } : {};
}
