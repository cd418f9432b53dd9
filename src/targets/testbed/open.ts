import { DEFAULT_PROCESS_START_MS } from '../../options/defaults.ts';
import { describePlan, withoutCancels, type Plan } from '../../real/plan.ts';
import { runPlan } from '../../real/runPlan.ts';
import { planShape } from '../../workload/planShape.ts';
import { planShrinks } from '../../workload/planShrinks.ts';
import { blackBoxSees } from '../endpoint/blackBoxSees.ts';
import { TargetArgumentError, type RealJudging, type RealOpenSettings, type RealTarget, type SpecOf } from '../Target.ts';
import type { SdkTestbedTransport } from './languages.ts';
import { TESTBED_TOOL } from './programCall.ts';
import { checkTransport, resolveTestbed } from './resolve.ts';
import { endpointOf } from './runProgram.ts';
import type { SdkTestbed, SdkTestbedLanguage } from './sdkTestbed.ts';
import { labelledCall, programShrinks, testbedCases } from './testbedCases.ts';
import { testbedBaselineOf } from './testbedBaseline.ts';
import { testbedScript } from './caseScript.ts';
import { testbedTrace } from './testbedTrace.ts';

/** An SDK test bed's runs show the SDK's server, which is under test. */
export const TESTBED_JUDGING: RealJudging = { underTest: 'server', sdk: 'under test' };

/** A test-bed target, opened: the bed of its release, resolved (and installed when it is not yet). */
export interface OpenedTestbed extends RealTarget<Plan> {
  readonly testbed: SdkTestbed;
  readonly transport: SdkTestbedTransport;
}

/**
 * An SDK's test-bed server, opened for the campaign: its release resolved (installed first when
 * missing), the transport checked against what the release offers. Its cases are the process
 * campaign's plans whose every call is `run {program}` with a generated handler program; a fresh
 * process (or session) per case, so that the side channel speaks of that case alone.
 */
export async function openTestbed(spec: SpecOf<'testbed'>, settings: RealOpenSettings, argumentOf: (spec: SpecOf<'testbed'>) => string[]): Promise<OpenedTestbed> {
  const transport = (spec.transport ?? 'stdio') as SdkTestbedTransport;
  const testbed = await resolveTestbed(spec.language as SdkTestbedLanguage, spec.release, settings.say);
  checkTransport(testbed, transport);
  const endpoint = endpointOf(testbed, transport);
  const http = transport !== 'stdio';
  const resolved: SpecOf<'testbed'> = { ...spec, release: testbed.version };
  return {
    kind: 'testbed',
    clock: 'real',
    testbed,
    transport,
    endpoint,
    lacks: testbed.lacks,
    baseline: testbedBaselineOf({ language: testbed.language, sdk: testbed.manifest.sdk.name, version: testbed.version }, transport),
    sees: blackBoxSees(endpoint.visibility, { handlersSeen: true }),
    describe: () => ({
      kind: 'testbed',
      clock: 'real',
      runsOn: 'test-bed process or session',
      label: `${testbed.manifest.sdk.name} ${testbed.version}${testbed.pinned ? '' : ' (unpinned: resolved at install)'}, ${testbed.language} test bed, over ${transport}`,
      argument: argumentOf(resolved),
      spec: resolved,
      system: { name: testbed.manifest.sdk.name, version: testbed.version },
      language: testbed.language,
      author: 'sdk',
    }),
    async prepare() {
      const discovery = await runPlan(endpoint, { calls: [], serverRequests: 'answer' }, { tailMs: 0, startMs: DEFAULT_PROCESS_START_MS });
      if (!discovery.tools.some((t) => t.name === TESTBED_TOOL)) {
        throw new TargetArgumentError(`mcp-sim check testbed:${testbed.language}@${testbed.version}: the test bed lists ${discovery.tools.map((t) => t.name).join(', ') || 'no tools'}, not \`${TESTBED_TOOL}\` (testbeds/PROGRAM.md): is it built?`);
      }
      return {
        tools: [TESTBED_TOOL],
        skipped: [],
        ...(discovery.hello && { server: { info: discovery.hello.serverInfo, protocolVersion: discovery.hello.protocolVersion } }),
        startupMs: discovery.startupMs,
      };
    },
    cases: (seed, runs) => testbedCases(seed, runs, { http, duplicateIds: settings.duplicateIds === true }),
    judging: TESTBED_JUDGING,
    async run(plan, bounds) {
      const run = await runPlan(endpoint, plan, { hangAfterMs: bounds.hangAfterMs, tailMs: 2 * bounds.inFlightMs });
      return { ...run, trace: testbedTrace(run.trace, plan) };
    },
    script: (plan, observed, bounds) => testbedScript(plan, observed, bounds.hangAfterMs),
    withoutCancels,
    shrinks: (plan) => [...planShrinks(plan, { fixed: new Set([TESTBED_TOOL]), labelled: labelledCall }), ...programShrinks(plan)],
    causeOf: (plan) => ({ variant: transport, shape: planShape(plan) }),
    describeCase: describePlan,
  };
}
