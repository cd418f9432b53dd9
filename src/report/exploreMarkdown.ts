import type { ExploreFinding, ExploreResult } from '../explore/explore.ts';
import { invariant } from '../model/invariants.ts';
import type { ExploreJUnitContext } from './exploreJunit.ts';
import { scopeLines } from './exploreText.ts';
import { cell, findingSection, verdictHeading } from './markdownBlocks.ts';

/** What the Markdown report of an exploration needs besides the result. */
export interface ExploreMarkdownContext extends ExploreJUnitContext {
  readonly failOn: string;
}

/** A cause's standing against the verdict, in a few words. */
const standing = (f: ExploreFinding) =>
  f.failing ? '❌ fails the exploration' : f.known ? 'known' : '⚠️ not failing (below --fail-on, or a scripted handler’s own conduct)';

/**
 * An exploration as Markdown, like `check --report`: the verdict first, the exploration's numbers,
 * what its scope covered (exhaustive, clean or not, or what a bound cut), a row per cause; then
 * per cause (failing first) its message, replay command, and the Mermaid sequence diagram of its
 * 1-minimal schedule.
 */
export function exploreMarkdownReport(r: ExploreResult, ctx: ExploreMarkdownContext): string {
  const sdk = `${ctx.madeWith.sdk.name}@${ctx.madeWith.sdk.version}`;
  const failing = r.findings.filter((f) => f.failing);
  const lines = [
    verdictHeading('explore', r.failed),
    '',
    `\`${ctx.source}\` on \`${sdk}\` (${(r.ms / 1000).toFixed(1)} s), \`--fail-on ${ctx.failOn}\`: ${failing.length} cause(s) beyond the baseline, of ${r.findings.length} found.`,
    '',
    '| schedules explored | pruned | stopped asleep | distinct traces | distinct end states | reduction | depth ≤ | runs ≤ | seed |',
    '|---:|---:|---:|---:|---:|---|---:|---:|---:|',
    `| ${r.stats.schedules} | ${r.reduced ? r.stats.pruned : '–'} | ${r.reduced ? r.stats.sleepBlocked : '–'} | ${r.traces} | ${r.endStates.length} | ${r.reduced ? 'DPOR' : 'none'} | ${r.depthMax} | ${r.runsMax} | ${r.seed} |`,
    '',
    ...scopeLines(r, ctx.virtualMsMax).flatMap((line) => [`**${cell(line)}**`, '']),
  ];
  if (r.findings.length > 0) {
    lines.push('| | cause | level | schedules | deviations | first in schedule |', '|---|---|---|---:|---:|---:|');
    for (const f of r.findings) lines.push(`| ${f.failing ? '❌' : f.known ? '·' : '⚠️'} | \`${cell(f.cause)}\` | ${f.level} | ${f.schedules} | ${f.deviations} | ${f.firstAt.schedule} |`);
    lines.push('');
  }
  for (const f of [...failing, ...r.findings.filter((x) => !x.failing)]) {
    const replay = ctx.replays.get(f.cause);
    lines.push(
      ...findingSection({
        title: f.cause,
        level: f.level,
        section: invariant(f.invariant).section,
        status: standing(f),
        message: f.message,
        commands: replay ? [replay] : [],
        run: {
          caption: `1-minimal schedule: ${f.deviations} deviation(s) from the natural order, tape [${f.tape.join(',')}]; seen in ${f.schedules} of ${r.stats.schedules} schedule(s).`,
          trace: f.trace,
        },
      }),
    );
  }
  return lines.join('\n');
}
