import pc from 'picocolors';
import { realCampaign, type RealCampaignReport, type RealFinding } from '../campaign/real/realCampaign.ts';
import { realVerdict } from '../campaign/real/realVerdict.ts';
import { realReplayFile } from '../campaign/replayFile.ts';
import type { ResolvedRealCampaignOptions } from '../options/realCampaignOptions.ts';
import { formatRealReport, realJsonReport, realJunitReport, realMarkdownReport, type RealReplays } from '../report/realReport.ts';
import type { RealTarget } from '../targets/Target.ts';
import { writeFileAtomic, writeJsonAtomic } from '../util/atomicWrite.ts';
import { JSON_TO_STDOUT } from './commandHelp.ts';
import { createRealProgress } from './progress.ts';
import { replayFileName, replayPlace } from './replayPath.ts';
import { wireBoundsText } from '../report/boundsText.ts';

/** The invariants of `findings`, each once, with how many causes it has where more than one (an SDK client's scenarios: `http.close-deletes-session ×16`). */
function idsOf(findings: readonly RealFinding[]): string {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.invariant, (counts.get(f.invariant) ?? 0) + 1);
  return [...counts].map(([id, n]) => (n > 1 ? `${id} ×${n}` : id)).join(', ');
}

/**
 * `check TARGET` on the real clock (a process, a URL, an SDK's test bed or client): seed first and the
 * resolved options, the one campaign, the report (text, and `--json`, `--junit`, `--report`),
 * one replay file per finding, a verdict line. Exit 0 pass, 1 a confirmed finding beyond the
 * baseline at or above `--fail-on`.
 */
export async function checkReal(target: RealTarget, options: ResolvedRealCampaignOptions): Promise<number> {
  const say = (line: string) => (options.jsonFile === JSON_TO_STDOUT ? process.stderr.write(`${line}\n`) : console.log(line));
  const description = target.describe();
  say(pc.bold(`mcp-sim check ${description.argument.join(' ')}  seed=${options.seed}  (real time: every finding carries its reproduction rate)`));
  say(`  target        ${description.label}`);
  say(`  runs          ${options.runs}, ${options.reuse ? `many at once on ${options.parallel} shared processes or sessions (--fresh: one each)` : `${options.parallel} at once, one process or session each`}${options.duplicateIds ? ' (some calls reuse the id of a call in flight: --duplicate-ids)' : ''}`);
  say(`  bounds        --hang-after ${options.bounds.hangAfterMs} ms at least (slow is not stuck: twice what a tool showed it takes), in-flight ${options.bounds.inFlightMs} ms at least (sized to the server's round trips), grace ${options.bounds.graceMs} ms`);
  say(`  wire bounds   ${wireBoundsText(options.bounds)}`);
  const stated = Object.entries(options.toolMs);
  if (stated.length > 0) say(`  tool duration ${stated.map(([tool, ms]) => `${tool} ${ms} ms`).join(', ')} (--tool-duration)`);
  say(`  rate runs     ${options.rateRuns} per minimal case`);
  say(`  fail on       ${options.failOn}`);
  for (const line of target.lacks ?? []) say(pc.yellow(`  lacks         ${line}`));
  if (target.baseline) say(`  baseline      ${target.baseline.summary}`);
  const progress = createRealProgress();
  let report: RealCampaignReport;
  try {
    report = await realCampaign(target, {
      seed: options.seed,
      runs: options.runs,
      parallel: options.parallel,
      bounds: options.bounds,
      rateRuns: options.rateRuns,
      shrink: options.shrink,
      reuse: options.reuse,
      toolMs: options.toolMs,
      // Writing the baseline shrinks every cause afresh: none is taken as known.
      ...(target.baseline && !options.updateBaseline && { known: target.baseline.known }),
      onProgress: (done, total, phase, found) => progress.update({ done, total, phase, ...(found !== undefined && { found }) }),
    });
  } finally {
    progress.stop();
  }
  const verdict = realVerdict(report, options.failOn);
  const replays = new Map<RealFinding, { file: string; command: string }>();
  const perInvariant = new Map<string, number>();
  // Every finding has its file, a known cause's too (its first case: known causes are not shrunk).
  for (const f of report.findings) {
    const n = perInvariant.get(f.invariant) ?? 0;
    perInvariant.set(f.invariant, n + 1);
    const place = replayPlace(options.reproDir, replayFileName(report.target, f.invariant, n));
    writeJsonAtomic(place.file, realReplayFile(report.target.spec, f, report.bounds, report.target.system), { mkdir: true });
    replays.set(f, place);
  }
  say('');
  say(formatRealReport(report, replays as RealReplays));
  if (options.jsonFile !== undefined) {
    const document = realJsonReport(report, verdict, replays);
    if (options.jsonFile === JSON_TO_STDOUT) process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    else writeJsonAtomic(options.jsonFile, document, { mkdir: true });
  }
  if (options.junitFile !== undefined) writeFileAtomic(options.junitFile, realJunitReport(report, verdict, replays), { mkdir: true });
  if (options.markdownFile !== undefined) writeFileAtomic(options.markdownFile, realMarkdownReport(report, verdict, replays), { mkdir: true });
  if (options.updateBaseline && target.baseline) {
    // What the case's script explains is never the SDK's, so never baselined.
    const confirmed = report.findings.filter((f) => f.confirmed && f.owner !== 'script');
    const file = target.baseline.write(confirmed, `npx mcp-sim check ${description.argument.join(' ')} --runs ${options.runs} --seed ${options.seed} --update-baseline`);
    say(pc.green(`baseline ${file}: ${confirmed.length} finding(s)`));
    return 0;
  }
  const known = report.findings.filter((f) => f.known);
  const unconfirmed = report.findings.filter((f) => !f.confirmed);
  const below = report.findings.filter((f) => f.confirmed && !f.known && f.owner === 'target' && !verdict.failing.includes(f));
  const apart = report.findings.filter((f) => f.owner !== 'target');
  const aside = [
    ...(known.length > 0 ? [`${known.length} known in the baseline: ${idsOf(known)}`] : []),
    ...(unconfirmed.length > 0 ? [`${unconfirmed.length} unconfirmed (0 of ${unconfirmed[0]!.rate.runs} again): ${idsOf(unconfirmed)}`] : []),
    ...(below.length > 0 ? [`${below.length} below --fail-on ${options.failOn}: ${idsOf(below)}`] : []),
    ...(apart.length > 0 ? [`${apart.length} listed apart (the server SDK's way, the script's own): ${idsOf(apart)}`] : []),
  ];
  const label = description.label;
  say(
    verdict.failed
      ? pc.red(`FAIL ${label}: ${verdict.failing.map((f) => `${f.invariant} (${f.determinism})`).join(', ')}${aside.length ? `; ${aside.join('; ')}` : ''}`)
      : pc.green(`PASS ${label}: no finding beyond the baseline in ${report.runs} runs${aside.length ? ` (${aside.join('; ')})` : ''}`),
  );
  return verdict.failed ? 1 : 0;
}
