import type { ExploreResult } from '../explore/explore.ts';
import type { Scenario } from '../sim/index.ts';
import { TOOL } from '../util/toolVersion.ts';
import { REPORT_SCHEMA_VERSION } from './jsonReport.ts';

/** The JSON report of `explore` (`schemas/report.schema.json`, kind `explore`; docs/report-format.md). */
export function exploreJson(
  r: ExploreResult,
  ctx: {
    readonly source: { readonly kind: 'preset'; readonly name: string } | { readonly kind: 'file'; readonly file: string };
    readonly scenario: Scenario;
    readonly failOn: string;
    readonly virtualMsMax?: number;
    readonly replays: ReadonlyMap<string, { readonly file: string; readonly command: string }>;
    readonly exitCode: number;
  },
): Record<string, unknown> {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'explore',
    tool: { name: TOOL.name, version: TOOL.version },
    sdk: r.sdk,
    source: ctx.source,
    options: {
      reduction: r.reduced,
      runsMax: r.runsMax,
      depthMax: r.depthMax,
      seed: r.seed,
      failOn: ctx.failOn,
      ...(ctx.virtualMsMax !== undefined && { virtualMsMax: ctx.virtualMsMax }),
    },
    scenario: ctx.scenario,
    explored: {
      schedules: r.stats.schedules,
      pruned: r.stats.pruned,
      sleepBlocked: r.stats.sleepBlocked,
      unexplored: r.stats.unexplored,
      depthCut: r.depthCut,
      timeCut: r.timeCut,
      fallbacks: r.stats.fallbacks,
    },
    distinctTraces: r.traces,
    endStates: r.endStates,
    complete: r.complete,
    findings: r.findings.map((f) => ({
      cause: f.cause,
      invariant: f.invariant,
      level: f.level,
      severity: f.severity,
      message: f.message,
      tape: f.tape,
      deviations: f.deviations,
      schedules: f.schedules,
      known: f.known,
      failing: f.failing,
      ...(ctx.replays.has(f.cause) && { replay: ctx.replays.get(f.cause) }),
    })),
    ms: Math.round(r.ms),
    verdict: { result: r.failed ? 'fail' : 'pass', exitCode: ctx.exitCode },
  };
}
