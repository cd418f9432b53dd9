import fc from 'fast-check';
import { loadBaseline } from '../baseline/baseline.ts';
import { caseSeed } from '../campaign/simCase.ts';
import { minimize } from '../campaign/minimize.ts';
import { countsAs, foldsUnderRoot } from '../campaign/rootCauses.ts';
import { runChecked } from '../check/runChecked.ts';
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
    throw new TargetError('no-tools', `mcp-sim fuzz: none of the tools of ${target.label} can be fuzzed: ${skipped.map((s) => `${s.name}: ${s.reason}`).join('; ')}`);
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

/** The findings a run counts: knock-ons fold under their root, as in `check`. */
const counted = (findings: readonly Finding[]) => findings.filter((f) => !foldsUnderRoot(f));

/** Shrinking budgets: scheduler steps (deterministic) and wall-clock time (a safety valve). */
interface ShrinkBudget {
  readonly steps: number;
  readonly timeMs: number;
}

/**
 * Shrinks the case of `fcSeed` while `invariant` fires: fast-check's shrinking, then the greedy
 * 1-minimal pass, within `budget`. A candidate the simulator refuses (an abort left without its
 * call) does not fire. The budget is checked before each run, never by racing one: fast-check's
 * `interruptAfterTimeLimit` answers an async property that is still running, so the next
 * candidate's run started while the last one's work went on (`another run is in progress`).
 */
async function shrink(plan: FuzzPlan, invariant: InvariantId, fcSeed: number, budget: ShrinkBudget): Promise<FuzzCounterexample | undefined> {
  const deadline = performance.now() + budget.timeMs;
  let steps = 0;
  let cutShort: 'steps' | 'time' | undefined;
  const fires = async (c: FuzzCase) => {
    if (steps >= budget.steps) cutShort ??= 'steps';
    else if (performance.now() > deadline) cutShort ??= 'time';
    if (cutShort) return false;
    try {
      const run = await runFuzzCase(plan.target, c);
      steps += run.result.steps;
      return run.findings.some((f) => countsAs(f, invariant));
    } catch {
      return false;
    }
  };
  const details = await fc.check(fc.asyncProperty(plan.arbitrary, async (c) => !(await fires(c))), { seed: fcSeed, numRuns: 1 });
  if (!details.failed || !details.counterexample) return undefined;
  const { case: small, removals } = await minimize(details.counterexample[0], fires);
  const run = await runFuzzCase(plan.target, small);
  const f = run.findings.find((x) => countsAs(x, invariant));
  if (!f) return undefined;
  return {
    case: small,
    trace: run.result.trace,
    finding: f,
    call: callOf(f, small.scenario, run.result.trace),
    shrinks: details.numShrinks,
    removals,
    ...(cutShort && { cutShort }),
  };
}

/**
 * A fuzz campaign against a user's server: `tools/list`, then `runs` generated runs of its tools
 * (concurrent calls, progress tokens, cancels at every point, timeouts, closes, a virtual
 * network), each judged by the oracle; each invariant broken is shrunk to a minimal run and
 * explained in the author's terms.
 */
export async function fuzzCampaign(plan: FuzzPlan, options: FuzzOptions = {}): Promise<FuzzReport> {
  const runs = options.runs ?? DEFAULT_FUZZ_RUNS;
  const seed = options.seed ?? DEFAULT_CAMPAIGN_SEED;
  const { target } = plan;
  const baseline = loadBaseline(target.sdk.name, target.sdk.version);
  const knownIds = new Set(baseline?.entries.map((e) => e.invariant) ?? []);
  const seen = new Map<InvariantId, { runs: number; firstCase: number; example: Finding; call: FindingCall | undefined; trace: readonly TraceEvent[] }>();
  const started = performance.now();
  let runsDone = 0;
  let firstHash: string | undefined;
  /** A run saw work of a handler of an earlier run (`leftover-work`): the runs are not isolated. */
  let leftovers = false;
  for (let k = 0; k < runs && !options.signal?.aborted; k++) {
    const c = fuzzCaseAt(plan, seed, k);
    const run = await runFuzzCase(target, c);
    if (k === 0) firstHash = run.result.hash;
    leftovers ||= run.result.trace.some((e) => e.kind === 'leftover-work');
    const firsts = new Map<InvariantId, Finding>();
    for (const f of counted(run.findings)) if (!firsts.has(f.invariant)) firsts.set(f.invariant, f);
    for (const f of firsts.values()) {
      const entry = seen.get(f.invariant);
      if (entry) entry.runs++;
      else seen.set(f.invariant, { runs: 1, firstCase: k, example: f, call: callOf(f, c.scenario, run.result.trace), trace: run.result.trace });
    }
    runsDone++;
    options.onProgress?.(runsDone, runs, 'run');
  }
  const durationMs = performance.now() - started;
  // A server that keeps state across runs (module-level maps, intervals) makes a case's result
  // depend on the runs before it: case 0 run again after the others tells.
  // So does work an earlier run's handler does in a later run (a promise kept in module-level state).
  const stateful = leftovers || (firstHash !== undefined && (await runFuzzCase(target, fuzzCaseAt(plan, seed, 0))).result.hash !== firstHash);
  const findings: FuzzFinding[] = [];
  let shrunk = 0;
  for (const [invariant, entry] of seen) {
    const owner = ownerOf(invariant);
    // SDK findings are listed, not shrunk: they are not the user's to fix.
    const counterexample =
      owner === 'server' && !stateful && options.shrink !== false && !options.signal?.aborted
        ? await shrink(plan, invariant, caseSeed(seed, entry.firstCase), {
            steps: options.shrinkStepsMax ?? DEFAULT_FUZZ_SHRINK_STEPS_MAX,
            timeMs: options.shrinkTimeMsMax ?? DEFAULT_FUZZ_SHRINK_MS_MAX,
          })
        : undefined;
    options.onProgress?.(++shrunk, seen.size, 'shrink');
    const shown = counterexample ?? { finding: entry.example, call: entry.call, trace: entry.trace };
    findings.push({
      invariant,
      severity: entry.example.severity,
      owner,
      knownInSdkBaseline: knownIds.has(invariant),
      runs: entry.runs,
      firstCase: entry.firstCase,
      explanation: explain(shown.finding, shown.call, shown.trace, target.sdk.generation),
      call: shown.call,
      example: entry.example,
      ...(counterexample && { counterexample }),
    });
  }
  findings.sort((a, b) => (a.owner === b.owner ? a.firstCase - b.firstCase : a.owner === 'server' ? -1 : 1));
  return {
    target: { label: target.label, kind: target.kind, sdk: { name: target.sdk.name, version: target.sdk.version } },
    seed,
    runs,
    runsDone,
    durationMs,
    runsPerSecond: runsDone / Math.max(durationMs / 1000, 1e-9),
    tools: { fuzzed: plan.fuzzed, skipped: plan.skipped },
    stateful,
    limits: limitsOf(target),
    findings,
    passed: !findings.some((f) => failsCampaign(f, options.failOn)),
  };
}
