import { DEFAULT_PROCESS_START_MS } from '../../options/defaults.ts';
import type { Endpoint } from '../../real/connection.ts';
import { describePlan, withoutCancels } from '../../real/plan.ts';
import { runPlan } from '../../real/runPlan.ts';
import { planShape } from '../../workload/planShape.ts';
import { planShrinks } from '../../workload/planShrinks.ts';
import { blackBoxSees } from '../endpoint/blackBoxSees.ts';
import { TargetArgumentError, type RealJudging, type RealOpenSettings, type RealPreparation, type RealTarget, type SpecOf } from '../Target.ts';
import { layerVariant, type SdkTestbedTransport, type TestbedLayer } from './languages.ts';
import { TESTBED_TOOL } from './programCall.ts';
import { checkTransport, resolveTestbed } from './resolve.ts';
import { endpointOf } from './runProgram.ts';
import { defaultTestbedLayer, type SdkTestbed, type SdkTestbedLanguage } from './sdkTestbed.ts';
import { labelledCall, layeredCases, programShrinks, type TestbedCase } from './testbedCases.ts';
import { testbedBaselineOf } from './testbedBaseline.ts';
import { testbedScript } from './caseScript.ts';
import { testbedTrace } from './testbedTrace.ts';

/** An SDK test bed's runs show the SDK's server, which is under test. */
export const TESTBED_JUDGING: RealJudging = { underTest: 'server', sdk: 'under test' };

/** Most causes of one invariant told apart per layer (the campaign's own default, for each layer). */
const CAUSES_PER_LAYER = 3;

/** A test-bed target, opened: the bed of its release, resolved (and installed when it is not yet), on one layer or both. */
export interface OpenedTestbed extends RealTarget<TestbedCase> {
  /** The bed of the first layer run (the low one when both run). */
  readonly testbed: SdkTestbed;
  /** The bed of each layer the campaign runs, in the order cases take them. */
  readonly layers: ReadonlyMap<TestbedLayer, SdkTestbed>;
  readonly transport: SdkTestbedTransport;
}

/**
 * An SDK's test-bed server, opened for the campaign: its release resolved (installed first when
 * missing), the transport checked against what the release offers, and the layers it runs: the
 * spec's one, or every layer the release offers (PROGRAM.md, "Layers"). Its cases are the process
 * campaign's plans whose every call is `run {program}` with a generated handler program, each on
 * one layer's interpreter (both layers: each plan on each in turn); a fresh process (or session)
 * per case, so that the side channel speaks of that case alone. A cause's variant names the
 * transport and the layer, so the same invariant on the two layers is two causes.
 */
export async function openTestbed(spec: SpecOf<'testbed'>, settings: RealOpenSettings, argumentOf: (spec: SpecOf<'testbed'>) => string[]): Promise<OpenedTestbed> {
  const transport = (spec.transport ?? 'stdio') as SdkTestbedTransport;
  const language = spec.language as SdkTestbedLanguage;
  const asked = spec.layer as TestbedLayer | undefined;
  const first = await resolveTestbed(language, spec.release, settings.say, 'testbed', asked);
  checkTransport(first, transport);
  const layers = new Map<TestbedLayer, SdkTestbed>([[first.layer, first]]);
  if (asked === undefined) for (const layer of first.layers.filter((l) => l !== first.layer)) layers.set(layer, await resolveTestbed(language, first.version, settings.say, 'testbed', layer));
  const endpoints = new Map<TestbedLayer, Endpoint>([...layers].map(([layer, bed]) => [layer, endpointOf(bed, transport)]));
  // A case that names no layer (written before beds had layers) ran on the bed's default one.
  const layerOfCase = (c: Partial<TestbedCase>): TestbedLayer => c.layer ?? defaultTestbedLayer(first.layers);
  const endpointFor = (c: TestbedCase) => endpoints.get(layerOfCase(c)) ?? endpoints.get(first.layer)!;
  const http = transport !== 'stdio';
  const resolved: SpecOf<'testbed'> = { ...spec, release: first.version };
  const ran = [...layers.keys()];
  const lacks = [...new Set([...layers.values()].flatMap((bed) => bed.lacks.map((l) => (ran.length > 1 && !first.lacks.includes(l) ? `${bed.layer} layer: ${l}` : l))))];
  const layerWords = ran.length > 1 ? `${ran.join(' and ')} layers` : `${first.layer} layer`;
  return {
    kind: 'testbed',
    clock: 'real',
    testbed: first,
    layers,
    transport,
    // The low layer's (or the one layer's): what --reuse and a rogue peer speak to.
    endpoint: endpoints.get(first.layer)!,
    lacks,
    baseline: testbedBaselineOf({ language: first.language, sdk: first.manifest.sdk.name, version: first.version }, transport, ran),
    sees: blackBoxSees(endpoints.get(first.layer)!.visibility, { handlersSeen: true }),
    describe: () => ({
      kind: 'testbed',
      clock: 'real',
      runsOn: 'test-bed process or session',
      label: `${first.manifest.sdk.name} ${first.version}${first.pinned ? '' : ' (unpinned: resolved at install)'}, ${first.language} test bed (${layerWords}), over ${transport}`,
      argument: argumentOf(resolved),
      spec: resolved,
      system: { name: first.manifest.sdk.name, version: first.version },
      language: first.language,
      author: 'sdk',
    }),
    async prepare() {
      let startupMs: number | undefined;
      let server: RealPreparation['server'];
      for (const [layer, endpoint] of endpoints) {
        const discovery = await runPlan(endpoint, { calls: [], serverRequests: 'answer' }, { tailMs: 0, startMs: DEFAULT_PROCESS_START_MS });
        if (!discovery.tools.some((t) => t.name === TESTBED_TOOL)) {
          throw new TargetArgumentError(`mcp-sim check testbed:${first.language}@${first.version} --layer ${layer}: the test bed lists ${discovery.tools.map((t) => t.name).join(', ') || 'no tools'}, not \`${TESTBED_TOOL}\` (testbeds/PROGRAM.md): is it built?`);
        }
        startupMs ??= discovery.startupMs;
        server ??= discovery.hello && { info: discovery.hello.serverInfo, protocolVersion: discovery.hello.protocolVersion };
      }
      return { tools: [TESTBED_TOOL], skipped: [], ...(server && { server }), ...(startupMs !== undefined && { startupMs }) };
    },
    cases: (seed, runs) => layeredCases(seed, runs, ran, { http, duplicateIds: settings.duplicateIds === true }),
    judging: TESTBED_JUDGING,
    async run(c, bounds) {
      const run = await runPlan(endpointFor(c), c, { hangAfterMs: bounds.hangAfterMs, tailMs: 2 * bounds.inFlightMs });
      return { ...run, trace: testbedTrace(run.trace, c) };
    },
    script: (c, observed, bounds) => testbedScript(c, observed, bounds.hangAfterMs),
    withoutCancels: (c) => ({ ...withoutCancels(c), layer: layerOfCase(c) }),
    shrinks: (c) => [...planShrinks(c, { fixed: new Set([TESTBED_TOOL]), labelled: labelledCall }), ...programShrinks(c)].map((plan) => ({ ...plan, layer: layerOfCase(c) })),
    causeOf: (c) => ({ variant: layerVariant(transport, layerOfCase(c)), shape: planShape(c) }),
    describeCase: (c) => [`on the ${layerOfCase(c)} layer (${first.manifest.layers?.[layerOfCase(c)] ?? 'the SDK\'s low-level handlers'})`, ...describePlan(c)],
    causesPerInvariant: CAUSES_PER_LAYER * ran.length,
  };
}
