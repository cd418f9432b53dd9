import { DEFAULT_CLIENT_SHRINK_MS_MAX } from '../../options/defaults.ts';
import type { ClientTransport } from '../testbed/languages.ts';
import { resolveTestbed } from '../testbed/resolve.ts';
import type { SdkTestbed, SdkTestbedClient, SdkTestbedLanguage } from '../testbed/sdkTestbed.ts';
import { TargetArgumentError, type RealBaseline, type RealJudging, type RealOpenSettings, type RealTarget, type SpecOf, type TargetDescription } from '../Target.ts';
import { clientBaselineOf } from './clientBaseline.ts';
import { clientCaseShape } from '../../workload/clientCaseShape.ts';
import { clientCaseShrinks } from '../../workload/clientCaseShrinks.ts';
import { clientCases, describeClientCase, generatedClientCases, isGenerated, scenarioOfCase, scenariosOf, type ClientCase } from './clientCases.ts';
import type { ClientScenario } from './clientScenarios.ts';
import { CLIENT_SEES } from './clientSees.ts';
import { clientTrace } from './clientTrace.ts';
import { runClientScenario } from './runClientScenario.ts';
import { CLIENT_SIDE_CHANNEL_FACTS } from './sideChannelFacts.ts';

/** An SDK's client is under test: mcp-sim's scripted server is the harness, and how the client words a timeout is its side channel's. */
export const CLIENT_JUDGING: RealJudging = { underTest: 'client', sdk: 'under test', facts: CLIENT_SIDE_CHANNEL_FACTS };

/** A client target, opened: its release's test-bed client, the transports and scenarios it runs. */
export interface OpenedClient extends RealTarget<ClientCase> {
  readonly testbed: SdkTestbed;
  readonly client: SdkTestbedClient;
  readonly transports: readonly ClientTransport[];
}

/** The test-bed client of an installed release, or one line saying why there is none (not written, not built for this release). */
export function testbedClient(testbed: SdkTestbed, form: string): SdkTestbedClient {
  if ('missing' in testbed.client) throw new TargetArgumentError(`mcp-sim check ${form}: ${testbed.client.missing}.`);
  return testbed.client;
}

/**
 * An SDK's test-bed client, opened for the one real-time campaign: its release resolved
 * (installed first when missing), its client found, the transports asked for checked against the
 * ones it offers, its baseline read (`clientTarget` does the rest).
 */
export async function openClient(spec: SpecOf<'client'>, settings: RealOpenSettings, argumentOf: (spec: SpecOf<'client'>) => string[]): Promise<OpenedClient> {
  const form = argumentOf(spec).join(' ');
  const testbed = await resolveTestbed(spec.language as SdkTestbedLanguage, spec.release, settings.say, 'client');
  const client = testbedClient(testbed, form);
  const asked = spec.transport as ClientTransport | undefined;
  if (asked !== undefined && !client.transports.includes(asked)) throw new TargetArgumentError(`mcp-sim check ${form}: this test-bed client offers ${client.transports.join(', ')}, not --transport ${asked}.`);
  const transports = asked === undefined ? client.transports : [asked];
  const scenarios = scenariosOf(settings.scenarios, form);
  const resolved: SpecOf<'client'> = { ...spec, release: testbed.version };
  const sdk = testbed.manifest.sdk.name;
  const target = clientTarget(client, {
    scenarios,
    transports,
    baseline: clientBaselineOf({ language: testbed.language, sdk, version: testbed.version }, scenarios === undefined ? { generated: transports } : clientCases(scenarios, transports, scenarios.length * transports.length)),
    describe: () => ({
      kind: 'client',
      clock: 'real',
      runsOn: 'client process and scripted server',
      label: `${sdk} ${testbed.version}${testbed.pinned ? '' : ' (unpinned: resolved at install)'}, its ${testbed.language} test-bed client against mcp-sim's scripted server, over ${transports.join(' and ')}, ${scenarios === undefined ? 'generated cases' : `${scenarios.length} fixed scenario(s)`}`,
      argument: argumentOf(resolved),
      spec: resolved,
      system: { name: sdk, version: testbed.version },
      language: testbed.language,
      author: 'sdk',
    }),
  });
  return { ...target, testbed, client, transports };
}

/**
 * A test-bed client (an SDK's, or one written by hand) as a target of the one real-time
 * campaign. Its cases are generated (`generatedClientCases`: drawn from the seed, with the caller
 * options the client has), or the fixed scenarios `scenarios` names on each transport
 * (`clientCases`); each runs on a fresh client and scripted server (`runClientScenario`), its two
 * records made one trace (`clientTrace`) that the model judges with the client under test. A
 * generated case that fails is shrunk (`clientCaseShrinks`) and told apart by its features
 * (`clientCaseShape`); a fixed scenario is one minimal question already: nothing to shrink, and
 * each scenario on each transport is a cause of its own.
 */
export function clientTarget(
  client: Pick<SdkTestbedClient, 'command' | 'options' | 'lacks'>,
  parts: { readonly scenarios: readonly ClientScenario[] | undefined; readonly transports: readonly ClientTransport[]; readonly describe: () => TargetDescription; readonly baseline?: RealBaseline },
): RealTarget<ClientCase> {
  const lacking = (['resetTimeoutOnProgress', 'maxTotalTimeout'] as const).filter((o) => !client.options.includes(o));
  const fixed = parts.scenarios;
  return {
    kind: 'client',
    clock: 'real',
    judging: CLIENT_JUDGING,
    sees: CLIENT_SEES,
    lacks: [...client.lacks, ...(lacking.length > 0 ? [`no caller option ${lacking.join(' or ')}: ${fixed === undefined ? 'no generated case uses it' : "a scenario's call runs without it, and is judged as it ran"}`] : [])],
    ...(parts.baseline && { baseline: parts.baseline }),
    describe: parts.describe,
    // The release was resolved when it opened; the scripted server has nothing to list.
    prepare: () => Promise.resolve({ tools: [], skipped: [] }),
    cases: (seed, runs) => (fixed === undefined ? generatedClientCases(seed, runs, parts.transports, client.options) : clientCases(fixed, parts.transports, runs)),
    async run(c) {
      const scenario = scenarioOfCase(c);
      const run = await runClientScenario(client.command, scenario, c.transport);
      const ready = run.events.find((e) => e.event === 'ready');
      return { trace: clientTrace(run, scenario, client.options), startupMs: ready?.t };
    },
    // A fixed scenario asks one question with the fewest actions that ask it.
    shrinks: (c) => (isGenerated(c) ? clientCaseShrinks(c).map((p) => ({ transport: c.transport, ...p })) : []),
    // On the grid a candidate shows the finding or not: one run each; its causes share one client at a time.
    shrinking: { tries: 1, msMax: DEFAULT_CLIENT_SHRINK_MS_MAX, candidates: 100 },
    // A generated campaign tells a few causes of an invariant apart (the default), the fixed one every scenario (its baseline must know each).
    ...(fixed !== undefined && { causesPerInvariant: Number.POSITIVE_INFINITY }),
    causeOf: (c) => ({ variant: c.transport, shape: isGenerated(c) ? clientCaseShape(c) : new Set([c.scenario]) }),
    describeCase: describeClientCase,
  };
}
