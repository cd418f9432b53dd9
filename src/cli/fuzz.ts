import { join } from 'node:path';
import pc from 'picocolors';
import {
  explain,
  callOf,
  formatFuzzReport,
  fuzzJunitReport,
  fuzzMarkdownReport,
  fuzzCampaign,
  fuzzCaseAt,
  limitsOf,
  loadTarget,
  planFuzz,
  runFuzzCase,
  FixedArgumentsError,
  TargetError,
  type FuzzPlan,
  type FuzzReport,
} from '../fuzz/index.ts';
import type { ResolvedFuzzOptions } from '../options/index.ts';
import { formatTrace } from '../sim/trace.ts';
import { writeFileAtomic, writeJsonAtomic } from '../util/atomicWrite.ts';
import { messageOf } from '../util/errors.ts';
import { createProgress } from './progress.ts';
import { JSON_TO_STDOUT } from './check.ts';
import type { FuzzCase } from '../workload/index.ts';
import { moduleReplayFile, readReplayFile } from '../campaign/replayFile.ts';
import type { SpecOf } from '../targets/Target.ts';
import { moduleKind } from '../targets/module/kind.ts';
import { REPORT_SCHEMA_VERSION } from '../report/jsonReport.ts';
import { TOOL } from '../util/toolVersion.ts';

export { FUZZ_EXIT_HELP } from './commandHelp.ts';

/** The flags every printed command carries so that it draws the same cases: the module, the fixed arguments, the config. */
function targetArgs(options: ResolvedFuzzOptions): string[] {
  const quote = (s: string) => (/^[\w./@:=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const args = [quote(options.module)];
  if (options.argsFile !== undefined) args.push('--args', quote(options.argsFile));
  if (Object.keys(options.config).length > 0) args.push('--config', quote(JSON.stringify(options.config)));
  return args;
}

/** `mcp-sim check <module>`: a campaign (or `replay <module> --seed S --case K`: one of its cases). */
export async function fuzzCommand(options: ResolvedFuzzOptions, choice: { readonly tools?: readonly string[] } = {}): Promise<number> {
  let plan: FuzzPlan;
  try {
    const target = await loadTarget(options.module, { config: options.config });
    plan = await planFuzz(target, { ...(options.args && { args: options.args }), ...(choice.tools && { tools: choice.tools }) });
  } catch (error) {
    if (error instanceof TargetError || error instanceof FixedArgumentsError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (options.replay) return replay(plan, options);

  const { target } = plan;
  console.log(pc.bold(`mcp-sim check ${targetArgs(options).join(' ')}  seed=${options.seed}  (in process, virtual time)`));
  console.log(`  module        ${options.module} (${target.kind === 'factory' ? 'server factory' : target.kind === 'import-connect' ? 'connects at import: captured, imported again per run' : 'exports a server: imported again per run'})`);
  console.log(`  sdk           ${target.sdk.name}@${target.sdk.version} (${target.sdk.root})`);
  console.log(`  runs          ${options.runs}`);
  console.log(`  tools         ${plan.fuzzed.join(', ')}${options.argsFile ? ` (fixed arguments from ${options.argsFile} where given)` : ''}`);
  for (const s of plan.skipped) console.log(pc.yellow(`  skipped       ${s.name}: ${s.reason}`));
  console.log(`  fail on       ${options.failOn}`);
  for (const limit of limitsOf(target)) console.log(pc.yellow(`  limit         ${limit}`));
  const progress = createProgress('runs');
  let report: FuzzReport;
  try {
    report = await fuzzCampaign(plan, {
      runs: options.runs,
      seed: options.seed,
      shrink: options.shrink,
      failOn: options.failOn,
      ...(options.args && { args: options.args }),
      onProgress: (done, total, phase) => phase === 'run' && progress.update(done, total),
    });
  } finally {
    progress.stop();
  }
  const replays = new Map<string, string[]>();
  for (const f of report.findings) {
    if (f.owner !== 'server') continue;
    const commands: string[] = [];
    if (f.counterexample) {
      const file = join(options.reproDir, `${moduleWords(options.module)}-${f.invariant}.json`);
      writeJsonAtomic(file, moduleReplayFile(spec(options), f.invariant, f.counterexample.case, report.target.sdk), { mkdir: true });
      commands.push(`npx mcp-sim replay ${file}`);
    }
    // A stateful server shows a case's finding only after the runs before it: replay that prefix of the campaign.
    commands.push(
      report.stateful
        ? `npx mcp-sim check ${[...targetArgs(options), '--seed', String(options.seed), '--runs', String(f.firstCase + 1), '--no-shrink'].join(' ')}`
        : `npx mcp-sim replay ${[...targetArgs(options), '--seed', String(options.seed), '--case', String(f.firstCase), '--expect', f.invariant].join(' ')}`,
    );
    replays.set(f.invariant, commands);
  }
  console.log('');
  console.log(formatFuzzReport(report, replays));
  if (options.jsonFile !== undefined) writeJson(options.jsonFile, report, replays, spec(options));
  if (options.junitFile !== undefined) writeFileAtomic(options.junitFile, fuzzJunitReport(report, replays, options.failOn), { mkdir: true });
  if (options.markdownFile !== undefined) writeFileAtomic(options.markdownFile, fuzzMarkdownReport(report, replays), { mkdir: true });
  console.log(report.passed ? pc.green(`PASS ${options.module}: no finding on the server`) : pc.red(`FAIL ${options.module}: ${report.findings.filter((f) => f.owner === 'server').map((f) => f.invariant).join(', ')}`));
  return report.passed ? 0 : 1;
}

/**
 * The module's report as `--json` writes it: the one report document (schemas/report.schema.json,
 * kind `campaign`, clock virtual, its target a `module`), with what it says of the author's server.
 */
function writeJson(file: string, report: FuzzReport, replays: ReadonlyMap<string, readonly string[]>, target: SpecOf<'module'>): void {
  const document = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'campaign',
    clock: 'virtual',
    tool: TOOL,
    ...report,
    target: { kind: 'module', clock: 'virtual', label: report.target.label, argument: moduleKind.argumentOf(target), spec: target, system: report.target.sdk, hosting: report.target.kind },
    findings: report.findings.map(({ counterexample, ...f }) => ({
      ...f,
      replay: replays.get(f.invariant) ?? [],
      ...(counterexample && {
        counterexample: { case: counterexample.case, shrinks: counterexample.shrinks, removals: counterexample.removals, ...(counterexample.cutShort && { cutShort: counterexample.cutShort }) },
      }),
    })),
  };
  if (file === JSON_TO_STDOUT) process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  else writeJsonAtomic(file, document, { mkdir: true });
}

/** The module as a target spec (for replay files). */
const spec = (options: ResolvedFuzzOptions): SpecOf<'module'> => ({ kind: 'module', module: options.module, ...(Object.keys(options.config).length > 0 && { config: options.config as SpecOf<'module'>['config'] }) });

/** The module's path as part of a file name: two modules' replay files never share a name. */
const moduleWords = (module: string) => module.replace(/^\.\//, '').replace(/[^\w.@-]+/g, '_');

/**
 * `replay FILE` of a module's case: the module loaded again (with its config), the case run once
 * in virtual time, its findings in the author's terms, and whether `invariant` reproduced.
 */
export async function replayModuleCase(target: SpecOf<'module'>, c: FuzzCase, invariant: string | undefined): Promise<number> {
  let loaded;
  try {
    loaded = await loadTarget(target.module, { config: target.config ?? {} });
  } catch (error) {
    if (error instanceof TargetError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  return showCase(loaded, c, invariant);
}

/** Runs case `c` on the module once: its trace, its findings in the author's terms, and whether `expect` reproduced. */
async function showCase(target: FuzzPlan['target'], c: FuzzCase, expect: string | undefined): Promise<number> {
  const run = await runFuzzCase(target, c);
  console.log(formatTrace(run.result.trace));
  console.log('');
  for (const f of run.findings) console.log(`${f.invariant}: ${explain(f, callOf(f, c.scenario, run.result.trace), run.result.trace)}`);
  if (run.findings.length === 0) console.log('no finding');
  console.log(`trace hash ${run.result.hash}`);
  if (expect === undefined) return 0;
  if (run.findings.some((f) => f.invariant === expect)) {
    console.log(pc.green(`reproduced: ${expect}`));
    return 0;
  }
  console.log(pc.red(`NOT reproduced: ${expect}`));
  return 3;
}

/** Replays one case (a file, or case K of seed S): its trace, its findings in the author's terms, and whether the expected one reproduced. */
async function replay(plan: FuzzPlan, options: ResolvedFuzzOptions): Promise<number> {
  let c: FuzzCase;
  let expect = options.expect;
  if (options.replay!.kind === 'file') {
    try {
      const file = readReplayFile(options.replay!.file);
      c = file.case as FuzzCase;
      expect ??= file.invariant;
    } catch (error) {
      process.stderr.write(`${messageOf(error)}\n`);
      return 2;
    }
  } else {
    c = fuzzCaseAt(plan, options.seed, options.replay!.index);
  }
  return showCase(plan.target, c, expect);
}
