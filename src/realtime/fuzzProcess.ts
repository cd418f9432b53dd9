import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { planTools, type FixedArguments, type SkippedTool } from '../workload/toolArguments.ts';
import { covers, shapeKey } from '../campaign/cause.ts';
import { realVariantOf } from '../campaign/realVariant.ts';
import { planShape } from '../workload/planShape.ts';
import { judgeUserServer } from '../campaign/real/judgeReal.ts';
import { shrinkCase } from '../campaign/real/realCampaign.ts';
import { whoseOf, type CaseFinding, type CaseJudge, type FindingOwner, type Whose } from '../campaign/caseVerdict.ts';
export type { CaseFinding, CaseJudge, CaseJudgeOptions, CaseVerdict, FindingOwner, Whose } from '../campaign/caseVerdict.ts';
import type { RealClock } from '../model/clock.ts';
import type { Finding } from '../model/finding.ts';
import type { InvariantId } from '../model/invariants.ts';
import {
  DEFAULT_CAMPAIGN_SEED,
  DEFAULT_HANG_AFTER_MS,
  DEFAULT_IN_FLIGHT_MS,
  DEFAULT_PROCESS_GRACE_MS,
  DEFAULT_PROCESS_RUNS,
  DEFAULT_RATE_RUNS,
} from '../options/defaults.ts';
import type { TraceEvent } from '../sim/trace.ts';
import { BadTargetError, type CommandSpec, type Endpoint, type TargetVisibility } from '../real/index.ts';
import { checkUrl, stdioEndpoint, httpEndpoint, type UrlSpec } from '../targets/index.ts';
import type { ServerHello } from '../real/index.ts';
import { planArbitrary } from '../workload/planArbitrary.ts';
import { withoutCancels, type Plan } from '../real/plan.ts';
import { runPlan } from '../real/runPlan.ts';
import { REUSE_NOTE, SharedConnection } from '../real/sharedConnection.ts';

/** What to fuzz: a stdio command (`{ command }`) or a Streamable HTTP URL (`{ url, start? }`). */
export type ProcessTargetSpec = CommandSpec | UrlSpec;

export interface FuzzProcessOptions {
  /** Cases, one server process (or session) each. @default DEFAULT_PROCESS_RUNS */
  readonly runs?: number;
  /** Seed of the cases, printed first. @default DEFAULT_CAMPAIGN_SEED */
  readonly seed?: number;
  /** Server processes at once. @default the number of cores */
  readonly parallel?: number;
  /** `--hang-after`. @default DEFAULT_HANG_AFTER_MS */
  readonly hangAfterMs?: number;
  /** The in-flight bound of a cancel. @default DEFAULT_IN_FLIGHT_MS */
  readonly inFlightMs?: number;
  /** Grace period of each shutdown step. @default DEFAULT_PROCESS_GRACE_MS */
  readonly graceMs?: number;
  /** Re-runs of each finding's minimal case for its rate. @default DEFAULT_RATE_RUNS */
  readonly rateRuns?: number;
  /** Shrink each finding's first case (greedy, each candidate tried up to `shrinkTries` times). @default true */
  readonly shrink?: boolean;
  /** @default DEFAULT_SHRINK_TRIES */
  readonly shrinkTries?: number;
  /** Real-time budget of shrinking one finding, in ms. @default DEFAULT_PROCESS_SHRINK_MS_MAX */
  readonly shrinkMsMax?: number;
  /** Also send requests that reuse the id of a call in flight (a correct client never does). @default false */
  readonly duplicateIds?: boolean;
  /** Only these tools (by name). @default every listed tool */
  readonly tools?: readonly string[];
  /** Fixed argument sets by tool (`--args`): those tools are called with one of these, the others with generated arguments. */
  readonly args?: FixedArguments;
  /**
   * `--reuse`: many cases on one process (or session, or stateless server) per parallel slot,
   * separated by a barrier (`SharedConnection`); the report and each finding say that state may
   * carry over, and each finding's minimal case is re-run both ways. @default false
   */
  readonly reuse?: boolean;
  /** Called after each run. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A finding of a black-box campaign: the invariant and its cause, its minimal case and how often it reproduces. */
export interface ProcessFinding extends Whose {
  readonly invariant: InvariantId;
  readonly level: Finding['level'];
  readonly severity: Finding['severity'];
  readonly message: string;
  /** Its cause: the transport variant (`realVariantOf`) and the features of its minimal plan (`planShape`). */
  readonly variant: string;
  readonly shape: string;
  /** The first case that showed it (index in the campaign of the seed). */
  readonly firstCase: number;
  /** Runs of the campaign that showed it. */
  readonly runs: number;
  readonly minimal: Plan;
  readonly shrinks: number;
  readonly rate: { readonly hits: number; readonly runs: number };
  /** "reproduced 10/10", "3/10: timing-dependent". */
  readonly determinism: string;
  /**
   * The minimal case failed again in at least one of the rate runs. An unconfirmed finding (seen
   * in one campaign run, 0 of N again) is listed but does not fail the campaign: in real time a
   * stall of the machine at the in-flight bound looks the same once.
   */
  readonly confirmed: boolean;
  /** The trace of one failing run of the minimal case. */
  readonly trace: readonly TraceEvent[];
  /** `--reuse` only: the note, and the minimal case's rate on a shared connection (`rate` is on a fresh process each). */
  readonly reuse?: { readonly note: typeof REUSE_NOTE; readonly rate: { readonly hits: number; readonly runs: number } };
}

export interface ProcessFuzzReport {
  readonly mode: 'black box, real time';
  readonly target: { readonly kind: Endpoint['kind']; readonly label: string; readonly server: ServerHello['serverInfo'] | null; readonly protocolVersion: string | undefined };
  readonly visibility: TargetVisibility;
  readonly seed: number;
  readonly runs: number;
  readonly parallel: number;
  readonly tools: readonly string[];
  readonly skipped: readonly SkippedTool[];
  readonly bounds: { readonly hangAfterMs: number; readonly inFlightMs: number; readonly graceMs: number };
  readonly findings: readonly ProcessFinding[];
  readonly wallMs: number;
  readonly runsPerSecond: number;
  /** Median real ms from spawn (or session open) to the end of the handshake. */
  readonly startupMs: number;
  /**
   * `--reuse` only: the note, how many processes (or sessions) the campaign's runs shared, and
   * how many frames of a case came after its barrier (left out of the next case, not judged).
   */
  readonly reuse?: { readonly note: typeof REUSE_NOTE; readonly connections: number; readonly lateFrames: number };
  readonly passed: boolean;
}

/** The `Target` of a spec. */
export function targetOf(spec: ProcessTargetSpec, graceMs: number): Endpoint {
  if ('url' in spec) {
    checkUrl(spec.url, spec.start !== undefined);
    return httpEndpoint(spec, { graceMs });
  }
  return stdioEndpoint(spec, { graceMs });
}

/** The cases of a campaign: case `k` of `seed` is always the same plan for the same tool list. */
export function processCases(tools: Parameters<typeof planArbitrary>[0], seed: number, runs: number): Plan[] {
  return runs === 0 ? [] : fc.sample(planArbitrary(tools), { seed, numRuns: runs });
}

/** One case's verdict: its findings (with whose each is), the observed trace judged and the run's start-up. */
export interface Judged {
  readonly findings: CaseFinding[];
  readonly trace: TraceEvent[];
  /** Spawn (or session open) to the end of the handshake; none for a case on an already open connection (`--reuse`). */
  readonly startupMs: number | undefined;
  /** `--reuse`: frames of earlier cases left out of this one's trace (`SharedCase.lateFrames`). */
  readonly lateFrames?: number;
}

/** The clock of a black-box campaign's bounds. */
export const realClockOf = (bounds: ProcessFuzzReport['bounds']): RealClock => ({ kind: 'real', ...bounds });

/** Judges a run's trace; for a result that crossed a cancel, the counterfactual run of the case without cancels (a fresh process). */
async function judgeRun(target: Endpoint, plan: Plan, trace: TraceEvent[], bounds: ProcessFuzzReport['bounds'], judge: CaseJudge): Promise<Pick<Judged, 'findings' | 'trace'>> {
  const clock = realClockOf(bounds);
  let judged = judge(trace, plan, { clock });
  if (judged.undecided.length > 0) {
    const counter = await runPlan(target, withoutCancels(plan), { hangAfterMs: bounds.hangAfterMs, tailMs: bounds.inFlightMs });
    const durations = new Map<string, number>();
    for (const e of counter.trace) {
      if (e.kind !== 'call-settle') continue;
      const start = counter.trace.find((s) => s.kind === 'call-start' && s.call === e.call);
      if (start) durations.set(e.call, e.t - start.t);
    }
    judged = judge(trace, plan, { clock, durations });
  }
  return { findings: judged.findings, trace: judged.trace };
}

/** One case on a fresh process (or session): run, judge (`judge`: the model on the frames alone by default), and the counterfactual when a result crossed a cancel. */
export async function runCase(target: Endpoint, plan: Plan, bounds: ProcessFuzzReport['bounds'], judge: CaseJudge = judgeUserServer): Promise<Judged> {
  const run = await runPlan(target, plan, { hangAfterMs: bounds.hangAfterMs, tailMs: 2 * bounds.inFlightMs });
  return { ...(await judgeRun(target, plan, run.trace, bounds, judge)), startupMs: run.startupMs };
}

/**
 * `--reuse`: `plans` on shared connections, one per parallel slot, each case judged on its own
 * slice of the trace (`SharedConnection`). A connection is retired (and the slot opens a fresh
 * one) when it ended, stayed noisy after its barrier, or its case left a call running.
 */
async function runShared(target: Endpoint, plans: readonly Plan[], parallel: number, bounds: ProcessFuzzReport['bounds'], onDone?: () => void): Promise<Judged[]> {
  const results: Judged[] = new Array(plans.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, plans.length) }, async () => {
      let shared: SharedConnection | undefined;
      try {
        while (next < plans.length) {
          const k = next++;
          shared ??= await SharedConnection.open(target);
          const r = await shared.run(target, plans[k]!, bounds, { last: next >= plans.length });
          if (r.retired) shared = undefined;
          results[k] = { ...(await judgeRun(target, plans[k]!, r.trace, bounds, judgeUserServer)), startupMs: r.startupMs, lateFrames: r.lateFrames };
          onDone?.();
        }
      } finally {
        await shared?.close();
      }
    }),
  );
  return results;
}

/** Runs `work` over `items` with at most `parallel` at once, in order of the items for the results. */
export async function pool<T, R>(items: readonly T[], parallel: number, work: (item: T, k: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const k = next++;
        results[k] = await work(items[k]!, k);
      }
    }),
  );
  return results;
}

/** Most causes of one invariant (whose, on one variant) shrunk and rated in one campaign: each costs real time. */
const CAUSES_PER_INVARIANT_MAX = 3;

/**
 * Smaller plans than `plan`, simplest first: fewer calls, then no timeout, no token change,
 * smaller arguments (not for the tools of `fixed`: their arguments are the user's `--args` sets,
 * or a test bed's program).
 */
export function shrinkCandidates(plan: Plan, fixed: ReadonlySet<string> = new Set()): Plan[] {
  const out: Plan[] = [];
  for (const c of plan.calls) {
    if (plan.calls.length === 1 || plan.calls.some((o) => o.sameIdAs === c.label)) continue;
    // Calls anchored on the one removed keep their delay, from the handshake instead.
    const rest = plan.calls.filter((o) => o !== c).map((o) => (o.at.kind !== 'start' && o.at.call === c.label ? { ...o, at: { kind: 'start' as const, ms: o.at.ms } } : o));
    out.push({ ...plan, calls: rest });
  }
  const each = (f: (c: Plan['calls'][number]) => Plan['calls'][number] | undefined) => {
    plan.calls.forEach((c, k) => {
      const next = f(c);
      if (next) out.push({ ...plan, calls: plan.calls.map((o, j) => (j === k ? next : o)) });
    });
  };
  each((c) => (c.timeout ? (({ timeout: _t, ...rest }) => rest)(c) : undefined));
  each((c) => (c.cancel ? (({ cancel: _c, cancelHow: _h, ...rest }) => rest)(c) : undefined));
  each((c) => (c.sameIdAs ? (({ sameIdAs: _s, ...rest }) => rest)(c) : undefined));
  each((c) => (c.at.kind === 'start' && c.at.ms > 0 ? { ...c, at: { kind: 'start', ms: 0 } } : undefined));
  each((c) => (c.progressToken === undefined ? undefined : (({ progressToken: _p, ...rest }) => rest)(c)));
  // Arguments: none at all, then one member fewer (a candidate the server rejects fails to reproduce, and is dropped).
  each((c) => (Object.keys(c.arguments).length > 0 && !fixed.has(c.tool) ? { ...c, arguments: {} } : undefined));
  plan.calls.forEach((c, k) => {
    if (fixed.has(c.tool)) return;
    for (const key of Object.keys(c.arguments)) {
      const { [key]: _drop, ...args } = c.arguments;
      out.push({ ...plan, calls: plan.calls.map((o, j) => (j === k ? { ...c, arguments: args } : o)) });
    }
  });
  if (plan.serverRequests !== 'answer') out.push({ ...plan, serverRequests: 'answer' });
  if (plan.close) out.push((({ close: _close, ...rest }) => rest)(plan));
  return out;
}

/** How `shrinkAndRate` shrinks and rates: `FuzzProcessOptions`' own, plus the campaign's own smaller plans. */
export interface ShrinkAndRateOptions extends Pick<FuzzProcessOptions, 'shrink' | 'shrinkTries' | 'shrinkMsMax' | 'rateRuns'> {
  readonly parallel: number;
  /** Smaller plans than one, simplest first. @default `shrinkCandidates` */
  readonly candidates?: (plan: Plan) => Plan[];
  /** `--reuse`: runs plans on shared connections; a minimal case is then also rated there. */
  readonly shared?: (plans: readonly Plan[]) => Promise<Judged[]>;
}

/**
 * A campaign's findings from its cases and their verdicts: per cause (an invariant, whose it is,
 * the variant and the shape of its minimal plan, as `realVariantOf` and `planShape` tell them) its first case, shrunk
 * greedily (a candidate is kept when it fails in any of `shrinkTries` runs, within a real-time
 * budget), and its minimal case re-run `rateRuns` times for its reproduction rate. `run` runs and
 * judges one plan (on a fresh process or session).
 */
export async function shrinkAndRate(cases: readonly Plan[], results: readonly Judged[], run: (plan: Plan) => Promise<Judged>, options: ShrinkAndRateOptions): Promise<ProcessFinding[]> {
  const { parallel, candidates = (plan: Plan) => shrinkCandidates(plan), shared: runShared } = options;
  const rateRuns = options.rateRuns ?? DEFAULT_RATE_RUNS;
  /** The cases of each invariant, whose and on which variant, in campaign order: each group holds one cause or more. */
  const groups = new Map<string, { readonly id: InvariantId; readonly owner: FindingOwner; readonly variant: string; readonly cases: { readonly k: number; readonly finding: CaseFinding }[] }>();
  results.forEach((r, k) => {
    const variant = realVariantOf(r.trace);
    for (const f of r.findings) {
      const key = `${f.invariant}|${f.owner}|${variant}`;
      const group = groups.get(key) ?? { id: f.invariant, owner: f.owner, variant, cases: [] };
      groups.set(key, group);
      if (group.cases.at(-1)?.k !== k) group.cases.push({ k, finding: f });
    }
  });

  const shows = (r: Judged, id: InvariantId, owner: FindingOwner) => r.findings.some((f) => f.invariant === id && f.owner === owner);
  const findings: ProcessFinding[] = [];
  for (const { id, owner, variant, cases: seen } of groups.values()) {
    // One cause after another: the first case left is shrunk; the cases whose plan has every
    // feature of its minimal plan may be that cause again (`covers`); a case that lacks one is another.
    let rest = seen;
    for (let n = 0; rest.length > 0 && n < CAUSES_PER_INVARIANT_MAX; n++) {
      const first = rest[0]!;
      const start = cases[first.k]!;
      // What is listed apart (the server SDK's way, the script's own) is rated, not shrunk: real time is dear.
      const { minimal, shrinks, witness } =
        options.shrink !== false && owner === 'target'
          ? await shrinkCase(start, candidates, (r: Judged) => shows(r, id, owner), results[first.k]!, run, options, runShared !== undefined)
          : { minimal: start, shrinks: 0, witness: results[first.k]! };
      const shape = planShape(minimal);
      const mine = rest.filter((c) => c === first || covers(planShape(cases[c.k]!), shape));
      rest = rest.filter((c) => !mine.includes(c));
      const again = await pool(Array.from({ length: rateRuns }), parallel, () => run(minimal));
      const hits = again.filter((r) => shows(r, id, owner)).length;
      const shared = runShared ? (await runShared(Array.from({ length: rateRuns }, () => minimal))).filter((r) => shows(r, id, owner)).length : 0;
      const shown = witness.findings.find((f) => f.invariant === id && f.owner === owner) ?? first.finding;
      findings.push({
        invariant: id,
        level: shown.level,
        severity: shown.severity,
        message: shown.message,
        ...whoseOf(shown),
        variant,
        shape: shapeKey(shape),
        firstCase: first.k,
        runs: mine.length,
        minimal,
        shrinks,
        rate: { hits, runs: rateRuns },
        determinism: runShared ? `${determinismOf(shared, rateRuns)} with --reuse; ${hits}/${rateRuns} on a fresh process${hits === 0 && shared > 0 ? ': needs state an earlier case left' : ''}` : determinismOf(hits, rateRuns),
        confirmed: hits + shared > 0,
        trace: witness.trace,
        ...(runShared && { reuse: { note: REUSE_NOTE, rate: { hits: shared, runs: rateRuns } } }),
      });
    }
  }
  return findings;
}

/**
 * `fuzzProcess({ command } | { url }, options)`: a black-box, real-time campaign against a server
 * process or URL. Each case is a plan run on a fresh process (or session) and judged from the
 * wire by the model (`judgeObserved`: the run as the model sees it, on a real clock); each
 * cause's first case is shrunk greedily (a candidate is kept when it fails in any of
 * `shrinkTries` runs) and its minimal case re-run `rateRuns` times for its reproduction rate. A bad target throws `BadTargetError` (one line, exit 2 in the CLI).
 */
export async function fuzzProcess(spec: ProcessTargetSpec, options: FuzzProcessOptions = {}): Promise<ProcessFuzzReport> {
  const runs = options.runs ?? DEFAULT_PROCESS_RUNS;
  const seed = options.seed ?? DEFAULT_CAMPAIGN_SEED;
  const parallel = options.parallel ?? availableParallelism();
  const bounds = { hangAfterMs: options.hangAfterMs ?? DEFAULT_HANG_AFTER_MS, inFlightMs: options.inFlightMs ?? DEFAULT_IN_FLIGHT_MS, graceMs: options.graceMs ?? DEFAULT_PROCESS_GRACE_MS };
  const target = targetOf(spec, bounds.graceMs);
  const started = performance.now();

  const discovery = await runPlan(target, { calls: [], serverRequests: 'answer' }, { hangAfterMs: bounds.hangAfterMs, tailMs: 0 });
  const listed = discovery.tools.filter((t) => !options.tools || options.tools.includes(t.name));
  if (listed.length === 0) throw new BadTargetError('no-tools', `mcp-sim: ${target.label} lists ${discovery.tools.length === 0 ? 'no tools' : `no tool named ${options.tools!.join(', ')} (it lists ${discovery.tools.map((t) => t.name).join(', ')})`}: nothing to call.`);
  const { fuzzable, skipped } = planTools(listed, options.args);
  if (fuzzable.length === 0) throw new BadTargetError('no-tools', `mcp-sim: no tool of ${target.label} can be called with generated arguments: ${skipped.map((s) => `${s.name}: ${s.reason}`).join('; ')}.`);
  const cases = processCases({ tools: fuzzable, http: target.kind === 'url', duplicateIds: options.duplicateIds === true }, seed, runs);

  let done = 0;
  const reuse = options.reuse === true;
  const results = reuse
    ? await runShared(target, cases, parallel, bounds, () => options.onProgress?.(++done, runs))
    : await pool(cases, parallel, async (plan) => {
        const r = await runCase(target, plan, bounds);
        options.onProgress?.(++done, runs);
        return r;
      });
  const wallMs = performance.now() - started;

  const opened = results.flatMap((r) => (r.startupMs === undefined ? [] : [r.startupMs]));
  const startups = [discovery.startupMs, ...opened].sort((a, b) => a - b);
  const fixed = new Set(Object.keys(options.args ?? {}));
  const findings = await shrinkAndRate(cases, results, (plan) => runCase(target, plan, bounds), {
    ...options,
    parallel,
    candidates: (plan) => shrinkCandidates(plan, fixed),
    ...(reuse && { shared: (plans: readonly Plan[]) => runShared(target, plans, parallel, bounds) }),
  });
  return processReport({
    target,
    hello: discovery.hello,
    seed,
    runs,
    parallel,
    tools: fuzzable.map((t) => t.name),
    skipped,
    bounds,
    findings,
    wallMs,
    startups,
    ...(reuse && { reuse: { connections: opened.length, lateFrames: results.reduce((n, r) => n + (r.lateFrames ?? 0), 0) } }),
  });
}

/** The report of a black-box campaign from its parts: speed and the median start-up computed here. */
export function processReport(parts: {
  readonly target: Endpoint;
  readonly hello: ServerHello | undefined;
  readonly seed: number;
  readonly runs: number;
  readonly parallel: number;
  readonly tools: readonly string[];
  readonly skipped: readonly SkippedTool[];
  readonly bounds: ProcessFuzzReport['bounds'];
  readonly findings: readonly ProcessFinding[];
  readonly wallMs: number;
  /** Start-up of every run that opened a process or session, sorted. */
  readonly startups: readonly number[];
  /** `--reuse`: connections opened and late frames left out. */
  readonly reuse?: { readonly connections: number; readonly lateFrames: number };
}): ProcessFuzzReport {
  const { target, hello, findings, wallMs, startups, runs } = parts;
  return {
    mode: 'black box, real time',
    target: { kind: target.kind, label: target.label, server: hello?.serverInfo ?? null, protocolVersion: hello?.protocolVersion },
    visibility: target.visibility,
    seed: parts.seed,
    runs,
    parallel: parts.parallel,
    tools: parts.tools,
    skipped: parts.skipped,
    bounds: parts.bounds,
    findings,
    wallMs: Math.round(wallMs),
    runsPerSecond: Math.round((runs / (wallMs / 1000)) * 10) / 10,
    startupMs: Math.round(startups[Math.floor(startups.length / 2)] ?? 0),
    ...(parts.reuse && { reuse: { note: REUSE_NOTE, ...parts.reuse } }),
    // Only the target's own confirmed findings fail it: the SDK's way and the script's own are listed apart.
    passed: findings.every((f) => !f.confirmed || f.owner !== 'target'),
  };
}

/** The reproduction rate in words: never implied. */
export function determinismOf(hits: number, runs: number): string {
  if (hits === runs) return `reproduced ${hits}/${runs}`;
  if (hits === 0) return `reproduced 0/${runs}: seen in the campaign only (timing-dependent, rare)`;
  return `${hits}/${runs}: timing-dependent`;
}
