import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CAMPAIGN_SEED, DEFAULT_HANG_AFTER_MS, DEFAULT_IN_FLIGHT_MS, DEFAULT_PROCESS_GRACE_MS, DEFAULT_PROCESS_RUNS } from '../../options/defaults.ts';
import { BadTargetError, type Endpoint } from '../../real/index.ts';
import { pool, processReport, runCase, shrinkAndRate, shrinkCandidates, type FuzzProcessOptions, type Judged, type ProcessFuzzReport } from '../../realtime/fuzzProcess.ts';
import type { Plan } from '../../real/plan.ts';
import { runPlan } from '../../real/runPlan.ts';
import { judgeTestbed } from './judgeTestbed.ts';
import { TESTBED_TOOL } from './programCall.ts';
import { endpointOf } from './runProgram.ts';
import type { SdkTestbed, SdkTestbedLanguage, SdkTestbedTransport } from './sdkTestbed.ts';
import { programShrinks, testbedCases } from './testbedCases.ts';

export interface TestbedCampaignOptions extends Omit<FuzzProcessOptions, 'tools'> {
  /** @default stdio */
  readonly transport?: SdkTestbedTransport;
}

/** A `check --target` report: a black-box report, plus which SDK release and transport it ran on and what that release lacks. */
export interface TestbedReport extends ProcessFuzzReport {
  /** The bed and its SDK release (not `sdk`: that names the SDK a simulated report's cases run on). */
  readonly testbed: { readonly language: SdkTestbedLanguage; readonly sdk: string; readonly version: string; readonly pinned: boolean };
  readonly transport: SdkTestbedTransport;
  readonly lacks: readonly string[];
}

/** The bounds of a test-bed run, from the options (the process campaign's defaults). */
export function testbedBounds(options: Pick<FuzzProcessOptions, 'hangAfterMs' | 'inFlightMs' | 'graceMs'> = {}): ProcessFuzzReport['bounds'] {
  return { hangAfterMs: options.hangAfterMs ?? DEFAULT_HANG_AFTER_MS, inFlightMs: options.inFlightMs ?? DEFAULT_IN_FLIGHT_MS, graceMs: options.graceMs ?? DEFAULT_PROCESS_GRACE_MS };
}

/** Runs one test-bed case on a fresh process (or session) of `target` and judges it with the side channel (`judgeTestbed`). */
export function runTestbedCase(target: Endpoint, plan: Plan, bounds: ProcessFuzzReport['bounds']): Promise<Judged> {
  return runCase(target, plan, bounds, judgeTestbed);
}

/** A test-bed plan's smaller plans: the process campaign's (the `run` arguments kept whole), then smaller programs. */
const testbedShrinks = (plan: Plan): Plan[] => [...shrinkCandidates(plan, new Set([TESTBED_TOOL])), ...programShrinks(plan)];

/**
 * `check --target <language>`: the generated lifecycle campaign on one SDK test bed, black box and
 * real time. Each case (`testbedCases`) runs on its own process or session, `parallel` at once,
 * judged from the wire and the bed's side channel; each invariant's first case is shrunk and its
 * minimal case rated as `fuzzProcess` does. A transport the release lacks, or a bed without the
 * `run` tool, is a `BadTargetError` (one line).
 */
export async function checkTestbed(testbed: SdkTestbed, options: TestbedCampaignOptions = {}): Promise<TestbedReport> {
  const transport = options.transport ?? 'stdio';
  const runs = options.runs ?? DEFAULT_PROCESS_RUNS;
  const seed = options.seed ?? DEFAULT_CAMPAIGN_SEED;
  const parallel = options.parallel ?? availableParallelism();
  const bounds = testbedBounds(options);
  let target: Endpoint;
  try {
    target = endpointOf(testbed, transport);
  } catch (error) {
    throw new BadTargetError('bad-option', `mcp-sim check --target: ${(error as Error).message}.`);
  }
  const started = performance.now();
  const discovery = await runPlan(target, { calls: [], serverRequests: 'answer' }, { hangAfterMs: bounds.hangAfterMs, tailMs: 0 });
  if (!discovery.tools.some((t) => t.name === TESTBED_TOOL)) {
    throw new BadTargetError('no-tools', `mcp-sim check --target ${testbed.language}: the test bed lists ${discovery.tools.map((t) => t.name).join(', ') || 'no tools'}, not \`${TESTBED_TOOL}\` (testbeds/PROGRAM.md): is it built?`);
  }
  const cases = testbedCases(seed, runs, { http: transport !== 'stdio', duplicateIds: options.duplicateIds === true });
  let done = 0;
  const run = (plan: Plan) => runTestbedCase(target, plan, bounds);
  const results = await pool(cases, parallel, async (plan) => {
    const r = await run(plan);
    options.onProgress?.(++done, runs);
    return r;
  });
  const wallMs = performance.now() - started;
  const findings = await shrinkAndRate(cases, results, run, { ...options, parallel, candidates: testbedShrinks });
  const report = processReport({
    target,
    hello: discovery.hello,
    seed,
    runs,
    parallel,
    tools: [TESTBED_TOOL],
    skipped: [],
    bounds,
    findings,
    wallMs,
    startups: [discovery.startupMs, ...results.flatMap((r) => (r.startupMs === undefined ? [] : [r.startupMs]))].sort((a, b) => a - b),
  });
  return { ...report, testbed: { language: testbed.language, sdk: testbed.manifest.sdk.name, version: testbed.version, pinned: testbed.pinned }, transport, lacks: testbed.lacks };
}
