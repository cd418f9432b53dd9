import { resolveRealCampaignOptions, type RealCampaignFlags } from '../options/realCampaignOptions.ts';
import type { CommandSpec } from '../real/startProcess.ts';
import type { Plan } from '../real/plan.ts';
import type { FixedArguments } from '../workload/toolArguments.ts';
import { parseTarget, targetKind } from '../targets/kinds.ts';
import type { TargetSpec } from '../targets/Target.ts';
import { realCampaign, type RealCampaignReport } from './real/realCampaign.ts';
import { realVerdict, type RealVerdict } from './real/realVerdict.ts';
import { wireBoundsOf } from '../real/wireBounds.ts';

/** What `checkTarget` gives back: the report, its verdict, and whether it passed. */
export interface TargetCheck<Case = unknown> extends RealCampaignReport<Case> {
  readonly verdict: RealVerdict;
  /** No confirmed finding beyond the target's baseline at or above `--fail-on`. */
  readonly passed: boolean;
}

/** The options of `checkTarget`: the command line's, by name (all optional, the same defaults). */
export interface TargetCheckOptions extends Omit<RealCampaignFlags, 'hangAfter' | 'tools' | 'args' | 'toolDuration'> {
  /** How long tools are expected to take, ms (`--tool-duration`). */
  readonly toolMs?: Readonly<Record<string, number>>;
  /** Fixed argument sets by tool (`--args`'s content). */
  readonly args?: FixedArguments;
  /** `--hang-after`, in ms. */
  readonly hangAfterMs?: number;
  readonly tools?: readonly string[];
  /** A JSON file of fixed argument sets by tool (`--args`). */
  readonly argsFile?: string;
  /** The in-flight bound of a cancel, in ms (a library's; the command line keeps the default). */
  readonly inFlightMs?: number;
  /** The grace period of each shutdown step, in ms (a library's). */
  readonly graceMs?: number;
  /** A shrink candidate counts as failing when it fails in any of this many runs. */
  readonly shrinkTries?: number;
  /** Called after each run. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * `mcp-sim check TARGET` as a function, for a target on the real clock: a stdio command
 * (`{ command: ['python', 'server.py'] }`), a URL (`{ url, start? }`), or any target by its spec
 * or its command-line form (`'testbed:go@v1.8.0'`). Its report, and `passed` as the CLI decides
 * it. A bad target throws one line (`TargetArgumentError`, `BadTargetError`).
 */
export async function checkTarget(target: TargetSpec | string | CommandSpec | { readonly url: string; readonly start?: CommandSpec }, options: TargetCheckOptions = {}): Promise<TargetCheck> {
  const spec: TargetSpec =
    typeof target === 'string' ? await parseTarget(target, undefined) : 'kind' in target ? target : 'url' in target ? { kind: 'url', ...target } : { kind: 'process', ...target };
  const kind = await targetKind(spec.kind);
  if (!kind.openReal) throw new Error(`checkTarget: a ${spec.kind} target runs in process: use check() (an SDK release) or fuzzServer() (a module)`);
  const { hangAfterMs, tools, args, argsFile, onProgress: _p, inFlightMs, graceMs, shrinkTries, toolMs, ...flags } = options;
  const resolved = resolveRealCampaignOptions(
    {
      ...flags,
      ...(hangAfterMs !== undefined && { hangAfter: hangAfterMs }),
      ...(tools && { tools: tools.join(',') }),
      ...(argsFile !== undefined && { args: argsFile }),
      ...(toolMs && { toolDuration: Object.entries(toolMs).map(([tool, ms]) => `${tool}=${ms}`) }),
    },
    // The kind's own defaults, as the command line takes them (an SDK's client: its generated cases, one at a time).
    { userServer: kind.author === 'user', ...kind.realDefaults?.(spec as never, undefined), ...(inFlightMs !== undefined && { inFlightMs }), ...(graceMs !== undefined && { graceMs }) },
  );
  const fixed = args ?? resolved.args;
  const opened = await kind.openReal(spec as never, { graceMs: resolved.bounds.graceMs, ...(resolved.tools && { tools: resolved.tools }), ...(fixed && { args: fixed }), duplicateIds: resolved.duplicateIds, wire: wireBoundsOf(resolved.bounds) });
  const report = await realCampaign(opened, {
    seed: resolved.seed,
    runs: resolved.runs,
    parallel: resolved.parallel,
    bounds: resolved.bounds,
    rateRuns: resolved.rateRuns,
    shrink: resolved.shrink,
    reuse: resolved.reuse,
    toolMs: resolved.toolMs,
    ...(shrinkTries !== undefined && { shrinkTries }),
    ...(opened.baseline && { known: opened.baseline.known }),
    ...(options.onProgress && { onProgress: (done, total, phase) => phase === 'run' && options.onProgress!(done, total) }),
  });
  const verdict = realVerdict(report, resolved.failOn);
  return { ...report, verdict, passed: !verdict.failed };
}

/**
 * @deprecated The name of `checkTarget` for a stdio command or a URL in earlier releases
 * (`fuzzProcess({ command })`): the same campaign and report. Use `checkTarget`.
 */
export const fuzzProcess = (target: CommandSpec | { readonly url: string; readonly start?: CommandSpec }, options: TargetCheckOptions = {}): Promise<TargetCheck<Plan>> => checkTarget(target, options) as Promise<TargetCheck<Plan>>;
