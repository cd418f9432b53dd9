import fc from 'fast-check';
import { loadBaseline } from '../baseline/baseline.ts';
import { caseSeed } from '../campaign/simCase.ts';
import { countsAs } from '../campaign/rootCauses.ts';
import { runCampaign, type CheckedRunner } from '../campaign/runCampaign.ts';
import { runChecked } from '../check/runChecked.ts';
import { resolveCampaignOptions, type ResolvedCampaignOptions } from '../options/index.ts';
import type { Finding } from '../model/finding.ts';
import type { InvariantId } from '../model/invariants.ts';
import { DEFAULT_CAMPAIGN_SEED, DEFAULT_FUZZ_CALLS_MAX, DEFAULT_FUZZ_MAX_STEPS, DEFAULT_FUZZ_MAX_VIRTUAL_MS, DEFAULT_FUZZ_RUNS, DEFAULT_FUZZ_SHRINK_MS_MAX, DEFAULT_FUZZ_SHRINK_STEPS_MAX } from '../options/defaults.ts';
import type { RunOptions, TraceEvent } from '../sim/index.ts';
import { toolCallArbitrary, type FuzzCase } from '../workload/index.ts';
import { callOf, explain, type FindingCall } from './explain.ts';
import { ownerOf } from './ownership.ts';
import { discoverTools } from '../targets/module/discoverTools.ts';
import type { FuzzTarget } from '../targets/module/loadModule.ts';
import { TargetError } from '../targets/module/TargetError.ts';
import { planTools, type FixedArguments, type SkippedTool } from '../workload/toolArguments.ts';

/** Options of a fuzz campaign; every field optional. */
export interface FuzzOptions {
  /** @default DEFAULT_FUZZ_RUNS */
  readonly runs?: number;
  /** @default DEFAULT_CAMPAIGN_SEED */
  readonly seed?: number;
  /** Fixed argument sets by tool (`--args FILE`). @default none: every tool's arguments are generated */
  readonly args?: FixedArguments;
  /** Most concurrent calls per run. @default DEFAULT_FUZZ_CALLS_MAX */
  readonly callsMax?: number;
  /** Shrink each finding to a minimal counterexample. @default true */
  readonly shrink?: boolean;
  /** @default DEFAULT_FUZZ_SHRINK_MS_MAX */
  readonly shrinkTimeMsMax?: number;
  /** Scheduler steps shrinking one finding may take, over all its runs. @default DEFAULT_FUZZ_SHRINK_STEPS_MAX */
  readonly shrinkStepsMax?: number;
  /**
   * The lowest severity of a finding on the server's own code that fails the campaign: `must`
   * (violations), `should` (warnings too), `advice` (notes too: every pitfall). @default 'advice'
   */
  readonly failOn?: FailOn;
  readonly onProgress?: (done: number, total: number, phase: 'run' | 'shrink') => void;
  /** Aborting it stops the runs after the current one (the report covers the runs done). */
  readonly signal?: AbortSignal;
}

/** The `--fail-on` levels, as in `check`. */
export type FailOn = 'must' | 'should' | 'advice';

const FAILING: Record<FailOn, ReadonlySet<Finding['severity']>> = {
  must: new Set(['violation']),
  should: new Set(['violation', 'warning']),
  advice: new Set(['violation', 'warning', 'note']),
};

/** Whether `f` fails a campaign at level `failOn`: a finding on the server's code at or above it. */
export function failsCampaign(f: Pick<FuzzFinding, 'owner' | 'severity'>, failOn: FailOn = 'advice'): boolean {
  return f.owner === 'server' && FAILING[failOn].has(f.severity);
}

/** A minimal run that shows one finding. */
export interface FuzzCounterexample {
  readonly case: FuzzCase;
  readonly trace: readonly TraceEvent[];
  readonly finding: Finding;
  readonly call: FindingCall | undefined;
  /** Shrinking steps of fast-check, then single removals of the greedy pass. */
  readonly shrinks: number;
  readonly removals: number;
  /**
   * Shrinking stopped at a budget before it was done: `steps` (`shrinkStepsMax`, the same on
   * every machine) or `time` (`shrinkTimeMsMax`: another machine may shrink further). Absent: fully shrunk.
   */
  readonly cutShort?: 'steps' | 'time';
}

/** One invariant the campaign saw broken. */
export interface FuzzFinding {
  readonly invariant: InvariantId;
  readonly severity: Finding['severity'];
  /** `server`: the user's code; `sdk`: the SDK's client or protocol layer (never fails a campaign). */
  readonly owner: 'server' | 'sdk';
  /** The SDK release's baseline lists this invariant (for `sdk` findings: a known SDK behaviour). */
  readonly knownInSdkBaseline: boolean;
  readonly runs: number;
  /** Campaign case index of its first run (replay: `--seed S --case K`). */
  readonly firstCase: number;
  /** The finding in the author's terms, from the counterexample (or the first run). */
  readonly explanation: string;
  /** The tool call it concerns, from the counterexample (or the first run). */
  readonly call: FindingCall | undefined;
  readonly example: Finding;
  readonly counterexample?: FuzzCounterexample;
}

export interface FuzzReport {
  readonly target: { readonly label: string; readonly kind: FuzzTarget['kind']; readonly sdk: { readonly name: string; readonly version: string } };
  readonly seed: number;
  readonly runs: number;
  readonly runsDone: number;
  readonly durationMs: number;
  readonly runsPerSecond: number;
  readonly tools: { readonly fuzzed: readonly string[]; readonly skipped: readonly SkippedTool[] };
  /**
   * The server keeps state across runs (case 0 gave another trace when run again after the
   * others, or a handler of one run worked in a later one: `leftover-work`): a case replays only
   * after the runs before it (`--runs K+1`), and findings are not shrunk.
   */
  readonly stateful: boolean;
  /** What the hosting of this SDK copy cannot observe, each a sentence (`ServerHosting.toolStartLimit`); empty on the releases mcp-sim knows. */
  readonly limits: readonly string[];
  readonly findings: readonly FuzzFinding[];
  /** `fail` when a finding on the server's own code is at or above `failOn` (`fuzzVerdict`). */
  readonly passed: boolean;
}

/** What the campaign needs to draw case K again: the target's tools, planned the same way. */
export interface FuzzPlan {
  readonly target: FuzzTarget;
  readonly arbitrary: fc.Arbitrary<FuzzCase>;
  readonly fuzzed: readonly string[];
  readonly skipped: readonly SkippedTool[];
}

/** Discovers the target's tools and builds the generator of its runs. */
export async function planFuzz(target: FuzzTarget, options: Pick<FuzzOptions, 'args' | 'callsMax'> & { readonly tools?: readonly string[] } = {}): Promise<FuzzPlan> {
  const listed = await discoverTools(target);
  const named = options.tools;
  const tools = named ? listed.filter((t) => named.includes(t.name)) : listed;
  if (named && tools.length === 0) throw new TargetError('no-tools', `mcp-sim check ${target.label}: --tools ${named.join(',')} names no tool it lists (it lists ${listed.map((t) => t.name).join(', ')}).`);
  const { fuzzable, skipped } = planTools(tools, options.args);
  if (fuzzable.length === 0) {
    throw new TargetError('no-tools', `mcp-sim check: none of the tools of ${target.label} can be fuzzed: ${skipped.map((s) => `${s.name}: ${s.reason}`).join('; ')}`);
  }
  return {
    target,
    arbitrary: toolCallArbitrary({ tools: fuzzable, callsMax: options.callsMax ?? DEFAULT_FUZZ_CALLS_MAX }),
    fuzzed: fuzzable.map((t) => t.name),
    skipped,
  };
}

/** What hosting `target`'s SDK copy cannot observe: said in the report, never judged around in silence. */
export function limitsOf(target: FuzzTarget): readonly string[] {
  const limit = target.sdk.hosting?.toolStartLimit;
  return limit === undefined ? [] : [limit];
}

/** Case `index` of the campaign of seed `seed`: the same on every machine, for the same tools. */
export function fuzzCaseAt(plan: FuzzPlan, seed: number, index: number): FuzzCase {
  return fc.sample(plan.arbitrary, { seed: caseSeed(seed, index), numRuns: 1 })[0]!;
}

/** The end of the last run started: each run starts after it, so runs never overlap. */
let lastRun: Promise<unknown> = Promise.resolve();

/**
 * One run of a fuzz case against the target, judged by the oracle; `observe` watches it step by
 * step (the HTML viewer). Runs replace process-wide globals (timers, random sources), so a run
 * asked for while another is under way (a caller that gave up waiting on one) waits for it to
 * end instead of failing.
 */
export function runFuzzCase(target: FuzzTarget, c: FuzzCase, observe?: RunOptions['observe']) {
  const run = lastRun.then(() =>
    runChecked(c.scenario, {
      ...(observe && { observe }),
      tape: c.tape,
      seed: c.seed,
      sdk: target.sdk,
      server: target.source,
      maxSteps: DEFAULT_FUZZ_MAX_STEPS,
      maxVirtualMs: DEFAULT_FUZZ_MAX_VIRTUAL_MS,
    }),
  );
  lastRun = run.catch(() => undefined);
  return run;
}

/**
 * A campaign against a user's server: `tools/list`, then `runs` generated runs of its tools
 * (concurrent calls, progress tokens, cancels at every point, timeouts, closes, a virtual
 * network), each judged by the oracle: the one campaign (`runCampaign`) with the module's cases
 * and its hosted runs. Each invariant broken on the server's own code is shrunk to a minimal run
 * (within a budget of scheduler steps, the same on every machine) and explained in the author's
 * terms; what the SDK's own layer does is listed apart and never fails it.
 */
export async function fuzzCampaign(plan: FuzzPlan, options: FuzzOptions = {}): Promise<FuzzReport> {
  const runs = options.runs ?? DEFAULT_FUZZ_RUNS;
  const seed = options.seed ?? DEFAULT_CAMPAIGN_SEED;
  const { target } = plan;
  const baseline = loadBaseline(target.sdk.name, target.sdk.version);
  const knownIds = new Set(baseline?.entries.map((e) => e.invariant) ?? []);
  const started = performance.now();
  /** The first run that showed each invariant: its scenario and trace, to explain a finding that is not shrunk. */
  const firstSeen = new Map<InvariantId, { scenario: FuzzCase['scenario']; trace: readonly TraceEvent[] }>();
  let firstHash: string | undefined;
  /** A run saw work of a handler of an earlier run (`leftover-work`): the runs are not isolated. */
  let leftovers = false;
  let runsDone = 0;
  const runner: CheckedRunner = async (scenario, runOptions) => {
    const run = await runFuzzCase(target, { scenario, tape: [...(runOptions.tape ?? [])], seed: runOptions.seed ?? 0 });
    if (runOptions.coverage) {
      // A campaign run (shrinking runs ask for no coverage): what the report says beside the tally.
      firstHash ??= run.result.hash;
      leftovers ||= run.result.trace.some((e) => e.kind === 'leftover-work');
      for (const f of run.findings) if (!firstSeen.has(f.invariant)) firstSeen.set(f.invariant, { scenario, trace: run.result.trace });
      runsDone++;
    }
    return run;
  };
  // A server that keeps state across runs (module-level maps, intervals) makes a case's result
  // depend on the runs before it: case 0 run again after the others tells; so does work an earlier
  // run's handler does in a later run (a promise kept in module-level state). Asked once, when shrinking starts.
  let stateful: boolean | undefined;
  const isStateful = async () => (stateful ??= leftovers || (firstHash !== undefined && (await runFuzzCase(target, fuzzCaseAt(plan, seed, 0))).result.hash !== firstHash));
  const report = await runCampaign(moduleCampaignOptions(seed, runs, options.shrinkTimeMsMax ?? DEFAULT_FUZZ_SHRINK_MS_MAX, options.shrink !== false), {
    runner,
    cases: { at: (s, k) => fuzzCaseAt(plan, s, k), arbitrary: plan.arbitrary },
    // SDK findings are listed, not shrunk: they are not the user's to fix; a stateful server's cases replay only after the runs before them.
    shrinks: (f) => ownerOf(f.invariant) === 'server' && stateful === false,
    shrinkStepsMax: options.shrinkStepsMax ?? DEFAULT_FUZZ_SHRINK_STEPS_MAX,
    onProgress: (done, total, phase) => {
      if (phase === 'run') options.onProgress?.(done, total, 'run');
      else options.onProgress?.(done, total, 'shrink');
    },
    ...(options.signal && { signal: options.signal }),
    beforeShrinking: async () => void (await isStateful()),
  });
  const findings: FuzzFinding[] = report.findings.map((f) => {
    const owner = ownerOf(f.invariant);
    const cx = f.counterexample;
    const shown = cx?.findings.find((x) => countsAs(x, f.invariant));
    const counterexample: FuzzCounterexample | undefined =
      cx && shown
        ? { case: cx.case, trace: cx.result.trace, finding: shown, call: callOf(shown, cx.case.scenario, cx.result.trace), shrinks: cx.shrinks, removals: cx.removals, ...(cx.cutShort && { cutShort: cx.cutShort }) }
        : undefined;
    const first = firstSeen.get(f.invariant)!;
    const call = counterexample?.call ?? callOf(f.example, first.scenario, first.trace);
    return {
      invariant: f.invariant,
      severity: f.example.severity,
      owner,
      knownInSdkBaseline: knownIds.has(f.invariant),
      runs: f.runs,
      firstCase: f.firstCase,
      explanation: counterexample ? explain(counterexample.finding, counterexample.call, counterexample.trace, target.sdk.generation) : explain(f.example, call, first.trace, target.sdk.generation),
      call,
      example: f.example,
      ...(counterexample && { counterexample }),
    };
  });
  findings.sort((a, b) => (a.owner === b.owner ? a.firstCase - b.firstCase : a.owner === 'server' ? -1 : 1));
  const durationMs = performance.now() - started;
  return {
    target: { label: target.label, kind: target.kind, sdk: { name: target.sdk.name, version: target.sdk.version } },
    seed,
    runs,
    runsDone,
    durationMs,
    runsPerSecond: runsDone / Math.max(durationMs / 1000, 1e-9),
    tools: { fuzzed: plan.fuzzed, skipped: plan.skipped },
    stateful: await isStateful(),
    limits: limitsOf(target),
    findings,
    passed: !findings.some((f) => failsCampaign(f, options.failOn)),
  };
}

/**
 * The one campaign's options for a module: its seed and runs, in process (a module is loaded in
 * this thread), no shards or time limit, shrinking as asked. The workload names no case here (the
 * module's tools draw them); it is the default, for the report's sake only.
 */
function moduleCampaignOptions(seed: number, runs: number, shrinkTimeMsMax: number, shrink: boolean): ResolvedCampaignOptions {
  return { ...resolveCampaignOptions({ seed, runs, shrink, workers: 1 }, {}), shrinkTimeMsMax };
}
