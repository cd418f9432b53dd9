import type { ExploreResult } from '../explore/explore.ts';

/** What the text report of an exploration needs besides the result. */
export interface ExploreTextContext {
  /** `preset=NAME` or `scenario=FILE`. */
  readonly source: string;
  /** The replay command of each finding, by cause. */
  readonly replays: ReadonlyMap<string, string>;
  /** Timers later than this were out of scope, when the preset or caller set a bound. */
  readonly virtualMsMax?: number;
}

/** The lines that say how far the enumeration got: exhaustive (clean or not), or what a bound left out. */
export function scopeLines(r: ExploreResult, virtualMsMax?: number): string[] {
  const lines: string[] = [];
  if (r.stats.unexplored > 0) {
    lines.push(`NOT exhaustive: --runs-max ${r.runsMax} reached with ${r.stats.unexplored} branch(es) of the schedule tree not explored`);
  }
  if (r.depthCut > 0) lines.push(`NOT exhaustive: ${r.depthCut} schedule(s) reached the depth bound (--depth ${r.depthMax}); what follows their step ${r.depthMax} was not explored`);
  if (r.timeCut > 0 && virtualMsMax !== undefined) lines.push(`scope: timers after ${virtualMsMax} virtual ms never fire (${r.timeCut} schedule(s) ended with one pending)`);
  if (r.complete) lines.push(r.findings.length === 0 ? 'exhaustive within this scope: clean' : `exhaustive within this scope: ${r.findings.length} cause(s) found`);
  return lines;
}

/**
 * The text report of `explore`: what was explored and pruned, the distinct traces and end
 * states, each cause found with its least-deviating schedule and replay command, then the scope.
 */
export function formatExploreReport(r: ExploreResult, ctx: ExploreTextContext): string {
  const out = [
    `mcp-sim explore  ${ctx.source}  reduction=${r.reduced ? 'dpor' : 'none'}  depth≤${r.depthMax}  runs≤${r.runsMax}  seed=${r.seed}`,
    `sdk                  ${r.sdk.name}@${r.sdk.version}`,
    `schedules explored   ${r.stats.schedules}${r.reduced ? `  (pruned: ${r.stats.pruned} branch(es) proven redundant, ${r.stats.sleepBlocked} run(s) stopped asleep)` : ''}`,
    `distinct traces      ${r.traces}`,
    `distinct end states  ${r.endStates.length}`,
    `time                 ${(r.ms / 1000).toFixed(1)} s`,
    `findings             ${r.findings.length === 0 ? 'none' : r.findings.length}`,
  ];
  for (const f of r.findings) {
    const mark = f.failing ? '✗' : f.known ? '·' : '!';
    out.push(`  ${mark} ${f.cause}  ${f.level}${f.known ? '  (known: the baseline explains it)' : ''}`);
    out.push(`      ${f.message}`);
    out.push(`      in ${f.schedules} schedule(s); deviations from the natural order: ${f.deviations} (1-minimal), tape [${f.tape.join(',')}]`);
    const replay = ctx.replays.get(f.cause);
    if (replay) out.push(`      replay: ${replay}`);
  }
  out.push(...scopeLines(r, ctx.virtualMsMax));
  return out.join('\n');
}
