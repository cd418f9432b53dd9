import { join, relative } from 'node:path';
import pc from 'picocolors';
import { knownCausesFor } from '../baseline/baseline.ts';
import { loadShrinkMemo, saveShrinkMemo, shrinkMemoPath } from '../baseline/shrinkMemoFile.ts';
import type { KnownCauses } from '../campaign/knownCauses.ts';
import { causeName, verdictOf } from '../campaign/verdict.ts';
import { campaignOn } from '../campaign/check.ts';
import { fitToRelease, type ReleaseFit } from '../campaign/fitRelease.ts';
import { formatCampaignReport } from '../report/textReport.ts';
import { junitReport } from '../report/junit.ts';
import { jsonReport, REPORT_SCHEMA_VERSION } from '../report/jsonReport.ts';
import { markdownReport } from '../report/markdown.ts';
import { replayFile } from '../campaign/replayFile.ts';
import { shrunkFrom, type CampaignReport } from '../campaign/runCampaign.ts';
import { formatRange, shardRange } from '../campaign/shard.ts';
import { sweepOn } from '../campaign/sweep.ts';
import { createProgress, createTimedProgress } from './progress.ts';
import { defaultSdk, ENV_SDK } from '../sdk/load.ts';
import { realGlobals } from '../sim/realGlobals.ts';
import { writeFileAtomic, writeJsonAtomic } from '../util/atomicWrite.ts';
import { TOOL, type PackageId } from '../util/toolVersion.ts';
import { replayCaseCommand, type MadeWith } from '../options/replayCaseCommand.ts';
import type { InvariantId } from '../model/invariants.ts';
import { notJudgedUnder, type SpecRevision } from '../model/specRevision.ts';
import { CHECK_EXIT_HELP, JSON_TO_STDOUT } from './commandHelp.ts';
import { AUTO_WORKER_RUNS_MIN, DEFAULT_FAIL_ON, DEFAULT_SPEC, type FailOn, type ResolvedCampaignOptions, type ResolvedWorkload } from '../options/index.ts';


export { CHECK_EXIT_HELP, JSON_TO_STDOUT };

/** Exit code of a campaign stopped by Ctrl-C (128 + SIGINT), after its partial report. */
export const EXIT_INTERRUPTED = 130;


/** `mcp-sim check`: seed first, the resolved options, the campaign, the report, a verdict line. */
/**
 * What `check` does with the release's kept shrinks (`properties/baselines/<sdk>.shrinks.json`):
 * `kept` takes a kept shrink for a task it has (the default); `fresh` shrinks every task again
 * (`--fresh-shrinks`); `record` shrinks every task and keeps each in that file (`--record-shrinks`).
 */
export type ShrinkMemoUse = 'kept' | 'fresh' | 'record';

export async function checkCommand(
  asked: ResolvedCampaignOptions,
  use: { readonly shrinks?: ShrinkMemoUse; readonly allFindings?: boolean; readonly sdkRelease?: string } = {},
): Promise<number> {
  // Loaded before the campaign: a release is imported once, not inside its first run.
  const adapter = await defaultSdk();
  const { options, leftOut, limits } = fitToRelease(asked, adapter);
  const sdk = { name: adapter.name, version: adapter.version };
  const { seed, runs, workload } = options;
  // The baseline of the rule set the campaign's profiles speak (`--spec`), for the workload it runs on this release.
  const known = knownCausesFor(sdk, workload.profiles);

  console.log(pc.bold(options.seeds ? `mcp-sim check  seeds=${options.seeds[0]}..${options.seeds.at(-1)}` : `mcp-sim check  seed=${seed}`));
  for (const line of whatRunsLines(sdk, use.sdkRelease)) console.log(line);
  printCampaignOptions(sdk, { ...options, runs }, workload);
  printSpec(options.spec);
  const how = [...(options.workers === 1 ? ['in process'] : []), ...(options.workersAuto ? [`default: one per core, at most one per ${AUTO_WORKER_RUNS_MIN} runs`] : [])];
  console.log(`  workers       ${options.workers}${how.length > 0 ? ` (${how.join('; ')})` : ''}`);
  if (options.shard) {
    const range = shardRange(options.shard.index, options.shard.count, runs);
    console.log(`  shard         ${options.shard.index}/${options.shard.count}: ${formatRange(range)} of the ${runs}-run campaign`);
  }
  if (options.timeLimitSeconds !== undefined) console.log(`  time limit    ${options.timeLimitSeconds} s of runs${options.seeds ? ' for the whole sweep' : ''}`);
  console.log(`  baseline      ${baselineLine(known)}`);
  for (const l of leftOut) console.log(pc.yellow(`  left out      ${l.what}: ${l.why}`));
  for (const l of limits) console.log(pc.yellow(`  limit         ${l.what}: ${l.why}`));

  const interrupt = interruptOnSigint();
  try {
    if (options.seeds) return await sweepCommand(options, { adapter, sdk, known, signal: interrupt.signal });
    const progress = progressFor(options);
    let report: CampaignReport;
    let kept: string | undefined;
    try {
      const shrinks = use.shrinks ?? 'kept';
      const memo = shrinks === 'kept' ? loadShrinkMemo(sdk.name, sdk.version) : undefined;
      const recorded = shrinks === 'record' ? loadShrinkMemo(sdk.name, sdk.version) : undefined;
      report = await campaignOn(adapter, options, progress.update, {
        signal: interrupt.signal,
        known,
        ...(memo && memo.size > 0 && { shrinkMemo: memo }),
        ...(recorded && { recordShrinks: recorded }),
        onShrinksKept: (n, total) => {
          if (total > 0 && memo && memo.size > 0) kept = `  shrinking     ${n} of ${total} counterexample(s) kept from ${relative(process.cwd(), shrinkMemoPath(sdk.name, sdk.version))} (the same task shrinks to the same case; --fresh-shrinks shrinks them again)`;
        },
      });
      if (recorded) {
        const file = saveShrinkMemo(sdk.name, sdk.version, recorded, `npx mcp-sim check --seed ${seed} --runs ${runs} --record-shrinks`);
        console.log(pc.green(`  recorded      ${recorded.size} kept shrink(s) in ${relative(process.cwd(), file)}`));
      }
    } finally {
      progress.stop();
    }
    if (kept) console.log(kept);
    return presentCampaign(report, {
      sdk,
      known,
      reproDir: options.reproDir,
      jsonFile: options.jsonFile,
      junitFile: options.junitFile,
      markdownFile: options.markdownFile,
      failOn: options.failOn,
      strictCauses: options.strictCauses,
      fitted: { leftOut, limits },
      knownFindings: use.allFindings ? 'full' : 'summary',
    });
  } finally {
    interrupt.dispose();
  }
}

/**
 * The two lines under `check`'s first: what this campaign tests (a TypeScript SDK release, not
 * the reader's server) and the one command that checks their own server instead. A first-time
 * reader runs `check` with no target and must not take its findings for their server's.
 */
export function whatRunsLines(sdk: PackageId, release: string | undefined): string[] {
  const which = release === undefined ? 'the installed TypeScript SDK' : `the TypeScript SDK release sdk@${release}`;
  return [
    `  tests         ${which}, ${sdk.name}@${sdk.version}: its own client and server in process, in virtual time (not your server)`,
    `  your server   ${pc.bold('mcp-sim check -- <your server command>')} (any language, over stdio; mcp-sim check --help lists every target)`,
  ];
}

/** The option lines `check` and `merge` print under their first line. */
export function printCampaignOptions(
  sdk: PackageId,
  options: { readonly runs: number; readonly shrink: boolean; readonly shrinkTimeMsMax?: number; readonly selfCheck: boolean; readonly failOn?: FailOn },
  workload: ResolvedWorkload,
): void {
  console.log(`  sdk           ${sdk.name}@${sdk.version}`);
  console.log(`  runs          ${options.runs}`);
  console.log(`  profiles      ${workload.profiles.join(', ')}`);
  console.log(`  actions max   ${workload.actionsMax}`);
  console.log(`  steps max     ${workload.stepsMax}`);
  console.log(`  server reqs   ${workload.serverRequests}`);
  console.log(`  faults        ${workload.faults} (close, reconnect)`);
  const budget = options.shrink && options.shrinkTimeMsMax !== undefined ? ` (at most ${options.shrinkTimeMsMax / 1000} s per counterexample)` : '';
  console.log(`  shrink        ${options.shrink}${budget}`);
  console.log(`  self-check    ${options.selfCheck}`);
  if (options.failOn) console.log(`  fail on       ${options.failOn} and above, beyond the baseline`);
}

/** The rule set line, and under 2026-07-28 every session-era invariant it does not judge, with why (never in silence). */
function printSpec(spec: SpecRevision): void {
  console.log(`  spec          ${spec}${spec === DEFAULT_SPEC ? '' : ' (opt-in rule set of the newest revision)'}`);
  for (const [id, why] of notJudgedUnder(spec)) console.log(pc.yellow(`  not judged    ${id}: ${why}`));
}

/** The progress display of one campaign's runs and shrinks (runs against time under a time limit). */
function progressFor(options: ResolvedCampaignOptions) {
  const run =
    options.timeLimitSeconds === undefined ? createProgress('runs') : createTimedProgress('runs', options.timeLimitSeconds, () => realGlobals.Date.now());
  const progress = { run, shrink: createProgress('shrinking') };
  return {
    update(done: number, total: number, phase: 'run' | 'shrink', found?: number) {
      progress[phase].update(done, total, found);
      if (done === total) progress[phase].stop();
    },
    stop() {
      progress.run.stop();
      progress.shrink.stop();
    },
  };
}

/**
 * Ctrl-C: the first stops the campaign after its current run (the report of the runs done is
 * printed and written, exit 130); a second one quits at once. Only sets a flag: the handler may
 * fire between two steps of a run, while the run has the process's clock.
 */
function interruptOnSigint(): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) {
      process.stderr.write('\nmcp-sim: interrupted again: quitting without a report\n');
      process.exit(EXIT_INTERRUPTED);
    }
    process.stderr.write('\nmcp-sim: interrupted: stopping after the current run, then the report of the runs done (Ctrl-C again quits at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}

/** What the options block says of the baseline a campaign is judged against. */
export function baselineLine(known: KnownCauses): string {
  if (known.causes.length === 0) return 'none for this SDK version: every finding is new';
  const ids = new Set(known.causes.map((c) => c.invariant)).size;
  const rates = known.rateCampaign ? `, rates from ${known.rateCampaign.runs} runs of seed ${known.rateCampaign.seed}` : ', no rates';
  // Which baseline: the release, and the rule set when it is not the session era's.
  const whose = known.sdk ? `${known.sdk}: ` : '';
  return `${whose}${known.causes.length} known cause(s) of ${ids} invariant(s)${rates}; a finding is known by cause, not by id`;
}

/** Where a report goes and what it is judged against. */
export interface Presentation {
  readonly sdk: PackageId;
  /** The SDK release's baseline, as known causes (the report's findings are already told apart by them). */
  readonly known: KnownCauses;
  readonly reproDir: string;
  readonly jsonFile: string | undefined;
  /** Where to write the JUnit XML and the Markdown summary, if anywhere. */
  readonly junitFile?: string | undefined;
  readonly markdownFile?: string | undefined;
  /** The lowest severity beyond the baseline that fails. @default DEFAULT_FAIL_ON */
  readonly failOn?: FailOn;
  /** Fail on new causes of known invariants outside the baseline's campaign too. @default DEFAULT_STRICT_CAUSES */
  readonly strictCauses?: boolean;
  /** What the campaign left out for the release, and its limits: the JSON and Markdown reports list them. */
  readonly fitted?: ReleaseFit;
  /** How the text report prints the findings the baseline explains. @default 'full' */
  readonly knownFindings?: 'full' | 'summary';
}

/** The lines that say a report covers less than its campaign: cut, interrupted or one shard. */
export function scopeLines(report: CampaignReport): string[] {
  const planned = report.planned ?? report.runs;
  const from = report.shard?.from ?? 0;
  const of = report.shard ? `${report.shard.to - report.shard.from}` : `${planned}`;
  const done = `${report.runs} of ${of} runs done (${report.runs > 0 ? formatRange({ from, to: from + report.runs }) : 'no case'})`;
  const lines: string[] = [];
  if (report.shard) {
    lines.push(`shard ${report.shard.index}/${report.shard.count}: ${formatRange(report.shard)} of the ${planned}-run campaign; join the shards' --json reports with mcp-sim merge`);
  }
  const ranAll = report.runs === (report.shard ? report.shard.to - report.shard.from : planned);
  if (report.stopped === 'time-limit') lines.push(`cut by the time limit: ${done}; the findings are those of --runs ${report.runs}`);
  if (report.stopped === 'interrupted') {
    lines.push(ranAll ? 'interrupted (Ctrl-C) while shrinking: every run done; counterexamples may be missing or not minimal' : `interrupted (Ctrl-C): ${done}; not shrunk`);
  }
  return lines;
}

/** The replay file of each counterexample, written into `dir`; by invariant. */
function writeReplayFiles(report: CampaignReport, sdk: PackageId, dir: string): Map<string, string> {
  const replayFiles = new Map<string, string>();
  for (const f of report.findings) {
    if (!f.counterexample) continue;
    const file = join(dir, `${f.invariant}.json`);
    const origin = { seed: report.seed, caseIndex: shrunkFrom(f), workload: report.workload };
    writeFileAtomic(file, JSON.stringify(replayFile(f.invariant, f.counterexample.case, sdk, origin), null, 2) + '\n', { mkdir: true });
    replayFiles.set(f.invariant, file);
  }
  return replayFiles;
}

// The SDK facts in each run result hold RegExps, which JSON would write as `{}`: write their source.
const asJson = (_key: string, value: unknown) => (value instanceof RegExp ? value.source : value);

/** The `--json` report into its file, or onto stdout for `--json -` (where `main` keeps everything else off stdout). */
export function writeJsonReport(file: string, document: unknown): void {
  if (file === JSON_TO_STDOUT) process.stdout.write(JSON.stringify(document, asJson, 2) + '\n');
  else writeJsonAtomic(file, document, { replacer: asJson, mkdir: true });
}

/** The new causes of known invariants that do not fail the campaign, and why. */
function unconfirmedLines(v: ReturnType<typeof verdictOf>, report: CampaignReport, madeWith: MadeWith): string[] {
  if (v.unconfirmed.length === 0) return [];
  const list = v.unconfirmed.map((f) => `${f.invariant} (case ${f.fresh!.firstCase})`).join(', ');
  const first = v.unconfirmed[0]!;
  return [
    `new cause(s) of known invariants outside the baseline's own campaign, not failing: ${list}. ` +
      'The baseline never ran these cases on this SDK, so each is an unseen cause of a known bug or a regression: ' +
      'replay it on a release you trust; --strict-causes fails on them.',
    `  replay the first: ${replayCaseCommand(report.seed, first.fresh!.firstCase, report.workload, { expect: first.invariant, madeWith, ...(sdkArg().sdkArg && { sdk: sdkArg().sdkArg }) })}`,
  ];
}

/**
 * The SDK copy this process runs when it is not the installed release (`--sdk`, or
 * `MCP_SIM_SDK`): printed replay commands repeat it, so they replay on the same copy.
 */
function sdkArg(): { sdkArg?: string } {
  const folder = process.env[ENV_SDK];
  return folder ? { sdkArg: folder } : {};
}

/** The verdict line's list: new findings and rate regressions, by name. */
function failures(v: ReturnType<typeof verdictOf>): string {
  return [...v.fresh.map((f) => f.invariant), ...v.regressions.map((r) => `${causeName(r.cause)} more often`)].join(', ');
}

/**
 * Writes the replay files and the JSON report (atomically), prints the report and the verdict,
 * and returns the exit code: 130 when interrupted, 1 for a violation beyond the baseline (or a
 * nondeterministic case), 0 otherwise. What `check` and `merge` end with.
 */
export function presentCampaign(report: CampaignReport, p: Presentation): number {
  const replayFiles = writeReplayFiles(report, p.sdk, p.reproDir);
  for (const line of scopeLines(report)) console.log(pc.yellow(line));
  console.log(formatCampaignReport(report, { replayFiles, madeWith: { tool: TOOL, sdk: p.sdk }, knownFindings: p.knownFindings ?? 'full', ...sdkArg() }));

  const failOn = p.failOn ?? DEFAULT_FAIL_ON;
  const strictCauses = p.strictCauses ?? false;
  const verdict = verdictOf(report, { failOn, strictCauses, known: p.known });
  const { failed } = verdict;
  const exitCode = report.stopped === 'interrupted' ? EXIT_INTERRUPTED : failed ? 1 : 0;
  const madeWith = { tool: TOOL, sdk: p.sdk };
  if (p.jsonFile) {
    const document = jsonReport(report, { verdict, madeWith, failOn, strictCauses, exitCode, replayFiles, ...sdkArg(), ...(p.fitted && { fitted: p.fitted }) });
    writeJsonReport(p.jsonFile, document);
  }
  if (p.junitFile) writeFileAtomic(p.junitFile, junitReport(report, { verdict, madeWith, ...sdkArg() }), { mkdir: true });
  if (p.markdownFile) {
    writeFileAtomic(p.markdownFile, markdownReport(report, { verdict, madeWith, failOn, replayFiles, ...sdkArg(), ...(p.fitted && { fitted: p.fitted }) }) + '\n', { mkdir: true });
  }
  for (const line of unconfirmedLines(verdict, report, madeWith)) console.log(pc.yellow(line));
  // An entry met only as a knock-on effect (counted under its root cause) was met all the same.
  const met = new Set(report.findings.flatMap((f) => [f.invariant, ...(f.knockOns ?? []).map((k) => k.invariant)]));
  const stale = [...new Set(p.known.causes.map((c) => c.invariant))].filter((id) => !met.has(id));
  if (stale.length > 0) {
    console.log(pc.dim(`baseline entries not met by this campaign: ${stale.join(', ')} (the property suite checks them exactly)`));
  }
  console.log(
    failed
      ? pc.red(`FAIL: ${verdict.fresh.length + verdict.regressions.length} finding(s) beyond the baseline at --fail-on ${failOn} (${failures(verdict)}); seed=${report.seed}`)
      : pc.green(`PASS: no violation beyond the baseline of ${p.sdk.name}@${p.sdk.version} (--fail-on ${failOn}); seed=${report.seed}`),
  );
  return exitCode;
}

/**
 * `check --seeds A..B`: one campaign per seed; a line per seed that passes, the full report of
 * each seed that fails (its replay files under `<out>/seed-<seed>/`), then the union of the
 * violations beyond the baseline and one verdict. Exits 1 when any seed fails.
 */
async function sweepCommand(
  options: ResolvedCampaignOptions,
  ctx: { readonly adapter: Awaited<ReturnType<typeof defaultSdk>>; readonly sdk: PackageId; readonly known: KnownCauses; readonly signal: AbortSignal },
): Promise<number> {
  const seeds = options.seeds!;
  let progress = progressFor(options);
  const verdicts: { seed: number; failed: boolean; fresh: string[]; report: CampaignReport }[] = [];
  const result = await sweepOn(ctx.adapter, options, {
    signal: ctx.signal,
    known: ctx.known,
    onCampaignStart: (seed, position, count) => {
      progress = progressFor(options);
      process.stderr.write(`seed ${seed} (${position} of ${count})\n`);
    },
    onProgress: (done, total, phase, found) => progress.update(done, total, phase, found),
    onCampaignDone: (report) => {
      progress.stop();
      const verdict = verdictOf(report, { failOn: options.failOn, strictCauses: options.strictCauses, known: ctx.known });
      for (const line of unconfirmedLines(verdict, report, { tool: TOOL, sdk: ctx.sdk })) console.log(pc.yellow(line));
      const { failed } = verdict;
      const fresh = [...verdict.fresh.map((f) => f.invariant), ...verdict.regressions.map((r) => `${causeName(r.cause)} more often`)];
      verdicts.push({ seed: report.seed, failed, fresh, report });
      const replayFiles = writeReplayFiles(report, ctx.sdk, join(options.reproDir, `seed-${report.seed}`));
      console.log('');
      const summary = `seed ${report.seed}: ${report.runs} runs, ${report.findings.length} invariant(s) broken, ${fresh.length} finding(s) beyond the baseline at --fail-on ${options.failOn}`;
      if (!failed) {
        console.log(pc.green(`PASS ${summary}`));
        for (const line of scopeLines(report)) console.log(pc.yellow(`  ${line}`));
        return;
      }
      console.log(pc.red(`FAIL ${summary}${report.nondeterministic.length > 0 ? `, ${report.nondeterministic.length} nondeterministic case(s)` : ''}`));
      for (const line of scopeLines(report)) console.log(pc.yellow(line));
      console.log(formatCampaignReport(report, { replayFiles, madeWith: { tool: TOOL, sdk: ctx.sdk }, ...sdkArg() }));
    },
  });

  // The union of the violations beyond the baseline: each with the seeds (and first cases) that found it.
  const union = new Map<string, string[]>();
  for (const v of verdicts) {
    for (const id of v.fresh) {
      const f = v.report.findings.find((x) => x.invariant === id);
      union.set(id, [...(union.get(id) ?? []), f ? `seed ${v.seed} case ${shrunkFrom(f)}` : `seed ${v.seed}`]);
    }
  }
  const failedSeeds = verdicts.filter((v) => v.failed).map((v) => v.seed);
  console.log('');
  console.log(
    `sweep of seeds ${seeds[0]}..${seeds.at(-1)}: ${verdicts.length} of ${seeds.length} seed(s) run, ` +
      `${failedSeeds.length} failed${failedSeeds.length > 0 ? ` (${failedSeeds.join(', ')})` : ''}` +
      `${result.notRun.length > 0 ? `; not run: ${result.notRun.join(', ')} (${result.stopped === 'interrupted' ? 'interrupted' : 'time limit'})` : ''}`,
  );
  for (const [id, where] of union) console.log(pc.red(`  ✗ ${id}: ${where.join(', ')}`));
  if (options.jsonFile) {
    const document = {
      schemaVersion: REPORT_SCHEMA_VERSION,
      kind: 'sweep',
      sdk: ctx.sdk,
      tool: TOOL,
      verdict: { result: failedSeeds.length > 0 ? 'fail' : 'pass', exitCode: result.stopped === 'interrupted' ? EXIT_INTERRUPTED : failedSeeds.length > 0 ? 1 : 0 },
      seeds: verdicts.map((v) => ({ seed: v.seed, verdict: v.failed ? 'fail' : 'pass', fresh: v.fresh, report: v.report })),
      notRun: result.notRun,
      ...(result.stopped && { stopped: result.stopped }),
      fresh: [...union].map(([invariant, where]) => ({ invariant, where })),
    };
    writeJsonReport(options.jsonFile, document);
  }
  const failed = failedSeeds.length > 0;
  console.log(
    failed
      ? pc.red(`FAIL: ${union.size} finding(s) not in the baseline at --fail-on ${options.failOn} over ${failedSeeds.length} seed(s) (${[...union.keys()].join(', ')}); seeds=${seeds[0]}..${seeds.at(-1)}`)
      : pc.green(`PASS: no violation beyond the baseline of ${ctx.sdk.name}@${ctx.sdk.version} (--fail-on ${options.failOn}); seeds=${seeds[0]}..${seeds.at(-1)}`),
  );
  if (result.stopped === 'interrupted') return EXIT_INTERRUPTED;
  return failed ? 1 : 0;
}
