import { SPEC_REVISIONS, type SpecRevision } from '../model/specRevision.ts';
import type { ScenarioConstraints } from '../workload/scenarioArbitrary.ts';
import { DEFAULT_SPEC, SPEC_2026_PROFILES } from './defaults.ts';
import { OptionError } from './OptionError.ts';
import { workloadFlags } from './workloadOptions.ts';

/** The command-line flag of the rule set. */
export const SPEC_FLAG = '--spec';

/**
 * The rule set asked for (`--spec`, `spec`): one of `SPEC_REVISIONS`. @default DEFAULT_SPEC
 * What it changes is the workload (`workloadUnderSpec`): the rules a case is judged by follow
 * its profile (`specOf`), so replay files and printed replay commands need nothing else.
 */
export function resolveSpec(value: unknown): SpecRevision {
  if (value === undefined) return DEFAULT_SPEC;
  if (typeof value !== 'string' || !(SPEC_REVISIONS as readonly string[]).includes(value)) {
    throw new OptionError({ option: 'spec', flag: SPEC_FLAG }, value, `is no rule set mcp-sim has; it has ${SPEC_REVISIONS.join(' and ')}`, `give ${SPEC_FLAG} ${SPEC_REVISIONS.join(` or ${SPEC_FLAG} `)}`);
  }
  return value as SpecRevision;
}

/**
 * The workload constraints of a campaign or case replay under `spec`: unchanged for the session
 * era; under 2026-07-28 the `http-2026` profile (the only one speaking that revision) and no
 * server-to-client requests (the revision has none). A workload flag that contradicts it is
 * refused rather than silently overridden.
 */
export function workloadUnderSpec(spec: SpecRevision, workload: ScenarioConstraints = {}): ScenarioConstraints {
  if (spec === DEFAULT_SPEC) return workload;
  const others = workload.profiles?.filter((p) => !SPEC_2026_PROFILES.includes(p));
  if (others !== undefined && others.length > 0) {
    throw new OptionError(
      { option: 'workload.profiles', flag: workloadFlags.profiles },
      workload.profiles,
      `names ${others.join(', ')}, which speak revision ${DEFAULT_SPEC}, and ${SPEC_FLAG} ${spec} runs ${SPEC_2026_PROFILES.join(', ')} only`,
      `drop ${workloadFlags.profiles}, or drop ${SPEC_FLAG} ${spec}`,
    );
  }
  if (workload.serverRequests === true) {
    throw new OptionError(
      { option: 'workload.serverRequests', flag: workloadFlags.serverRequests },
      true,
      `asks for server-to-client requests, which revision ${spec} does not have`,
      `drop ${workloadFlags.serverRequests}`,
    );
  }
  return { ...workload, profiles: SPEC_2026_PROFILES, serverRequests: false };
}
