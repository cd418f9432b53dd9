import { join } from 'node:path';
import pc from 'picocolors';
import {
  describePlan,
  determinismOf,
  formatProcessReport,
  formatRogueProcessTable,
  fuzzProcess,
  processJunitReport,
  processMarkdownReport,
  readProcessReplayFile,
  rogueProcess,
  runCase,
  targetOf,
  type Judged,
  type Plan,
  type ProcessFuzzReport,
  type ProcessReplayFile,
  type ProcessTargetSpec,
} from '../realtime/index.ts';
import { BadTargetError } from '../real/index.ts';
import { FixedArgumentsError } from '../workload/toolArguments.ts';
import { OptionError } from '../options/OptionError.ts';
import { readArgsFile } from '../options/fuzzOptions.ts';
import { DEFAULT_CAMPAIGN_SEED, DEFAULT_HANG_AFTER_MS, DEFAULT_IN_FLIGHT_MS, DEFAULT_PROCESS_GRACE_MS, DEFAULT_RATE_RUNS, DEFAULT_REPRO_DIR } from '../options/defaults.ts';
import { formatTrace } from '../sim/trace.ts';
import { REPORT_SCHEMA_VERSION } from '../report/jsonReport.ts';
import { writeFileAtomic, writeJsonAtomic } from '../util/atomicWrite.ts';
import { messageOf } from '../util/errors.ts';
import type { InvariantId } from '../model/invariants.ts';
import { TOOL } from '../util/toolVersion.ts';
import { JSON_TO_STDOUT } from './check.ts';

/** The flags of `fuzz --stdio` / `fuzz --url` that commander parses. */
export interface ProcessFlags {
  stdio?: string;
  url?: string;
  start?: string;
  cwd?: string;
  env?: string[];
  hangAfter?: number;
  parallel?: number;
  runs?: number;
  seed?: number;
  shrink?: boolean;
  rateRuns?: number;
  tools?: string;
  json?: string;
  junit?: string;
  report?: string;
  out?: string;
  replay?: string;
  reuse?: boolean;
  duplicateIds?: boolean;
  /** `--args FILE`: fixed argument sets by tool. */
  args?: string;
  /** Module-only flags: refused with --stdio/--url (a process has no factory config or case index). */
  config?: string;
  case?: number;
  expect?: string;
}

/** The target the flags name; a bad combination is a `BadTargetError` (one line, exit 2). */
export function targetSpecOf(flags: ProcessFlags): ProcessTargetSpec {
  if (flags.stdio !== undefined && flags.url !== undefined) throw new BadTargetError('bad-option', 'mcp-sim fuzz: --stdio and --url name two targets: give one (use --url URL --start CMD to start an HTTP server).');
  if (flags.start !== undefined && flags.url === undefined) throw new BadTargetError('bad-option', 'mcp-sim fuzz: --start needs --url (the URL the started server answers on, with {port}).');
  const env: Record<string, string> = {};
  for (const kv of flags.env ?? []) {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new BadTargetError('bad-option', `mcp-sim fuzz: --env ${JSON.stringify(kv)} is not K=V.`);
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const command = (c: string) => ({ command: c, ...(flags.cwd !== undefined && { cwd: flags.cwd }), env });
  if (flags.url !== undefined) return { url: flags.url, ...(flags.start !== undefined && { start: command(flags.start) }) };
  return command(flags.stdio!);
}

const quote = (s: string) => (/^[\w./@:=,{}-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

function targetArgs(flags: ProcessFlags): string[] {
  const args: string[] = [];
  if (flags.stdio !== undefined) args.push('--stdio', quote(flags.stdio));
  if (flags.url !== undefined) args.push('--url', quote(flags.url));
  if (flags.start !== undefined) args.push('--start', quote(flags.start));
  if (flags.cwd !== undefined) args.push('--cwd', quote(flags.cwd));
  for (const kv of flags.env ?? []) args.push('--env', quote(kv));
  return args;
}

/** `mcp-sim fuzz --stdio CMD | --url URL [--start CMD]`: a black-box, real-time campaign, or a replay with its rate. */
export async function fuzzProcessCommand(flags: ProcessFlags): Promise<number> {
  let spec: ProcessTargetSpec;
  try {
    spec = targetSpecOf(flags);
    const moduleOnly = [flags.config !== undefined && '--config', flags.case !== undefined && '--case', flags.expect !== undefined && '--expect'].filter((f) => f !== false);
    if (moduleOnly.length > 0) throw new BadTargetError('bad-option', `mcp-sim fuzz: ${moduleOnly.join(', ')} ${moduleOnly.length > 1 ? 'are' : 'is'} for a server module, not --stdio or --url (a process has no factory config; its cases replay from files: --replay FILE).`);
    const args = flags.args === undefined ? undefined : readArgsFile(flags.args);
    if (flags.replay !== undefined) return await replay(spec, flags);
    console.log(pc.bold(`mcp-sim fuzz  seed=${flags.seed ?? DEFAULT_CAMPAIGN_SEED}  (black box, real time)`));
    const report = await fuzzProcess(spec, {
      ...(flags.runs !== undefined && { runs: flags.runs }),
      ...(flags.seed !== undefined && { seed: flags.seed }),
      ...(flags.parallel !== undefined && { parallel: flags.parallel }),
      ...(flags.hangAfter !== undefined && { hangAfterMs: flags.hangAfter }),
      ...(flags.rateRuns !== undefined && { rateRuns: flags.rateRuns }),
      ...(flags.tools !== undefined && { tools: flags.tools.split(',') }),
      ...(args !== undefined && { args }),
      ...(flags.duplicateIds && { duplicateIds: true }),
      ...(flags.reuse && { reuse: true }),
      shrink: flags.shrink !== false,
    });
    const replays = new Map<string, string[]>();
    for (const f of report.findings) {
      const file = join(flags.out ?? DEFAULT_REPRO_DIR, `fuzz-process-${f.invariant}.json`);
      const data: ProcessReplayFile = { kind: 'fuzz-process', invariant: f.invariant, target: spec, plan: f.minimal, bounds: report.bounds, rate: f.rate };
      writeJsonAtomic(file, data, { mkdir: true });
      replays.set(f.invariant, [`npx mcp-sim fuzz ${targetArgs(flags).join(' ')} --replay ${file}`]);
    }
    const text = formatProcessReport(report, replays);
    if (flags.json === JSON_TO_STDOUT) process.stderr.write(`${text}\n`);
    else console.log(text);
    if (flags.json !== undefined) writeJson(flags.json, report, replays);
    if (flags.junit !== undefined) writeFileAtomic(flags.junit, processJunitReport(report), { mkdir: true });
    if (flags.report !== undefined) writeFileAtomic(flags.report, processMarkdownReport(report, replays), { mkdir: true });
    // The server SDK's way (an answer to a cancelled request) is listed apart in the report, not here.
    const own = report.findings.filter((f) => f.owner === 'target');
    const unconfirmed = own.filter((f) => !f.confirmed);
    const apart = report.findings.length - own.length;
    const verdict = report.passed
      ? pc.green(`PASS ${report.target.label}: no finding in ${report.runs} runs${unconfirmed.length ? ` (${unconfirmed.length} unconfirmed: ${unconfirmed.map((f) => f.invariant).join(', ')}, 0 of ${unconfirmed[0]!.rate.runs} again)` : ''}${apart ? ` (${apart} of the server SDK's own, listed apart)` : ''}`)
      : pc.red(`FAIL ${report.target.label}: ${own.filter((f) => f.confirmed).map((f) => `${f.invariant} (${f.determinism})`).join(', ')}`);
    if (flags.json === JSON_TO_STDOUT) process.stderr.write(`${verdict}\n`);
    else console.log(verdict);
    return report.passed ? 0 : 1;
  } catch (error) {
    if (error instanceof BadTargetError || error instanceof OptionError || error instanceof FixedArgumentsError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

function writeJson(file: string, report: ProcessFuzzReport, replays: ReadonlyMap<string, readonly string[]>): void {
  // `clock: 'real'`: the trace viewer draws each finding's recorded trace as it is (docs/report-format.md).
  // The document is `fuzzProcess` of schemas/report.schema.json.
  const document = { schemaVersion: REPORT_SCHEMA_VERSION, kind: 'fuzz-process', tool: TOOL, clock: 'real', ...report, findings: report.findings.map((f) => ({ ...f, replay: replays.get(f.invariant) ?? [] })) };
  if (file === JSON_TO_STDOUT) process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  else writeJsonAtomic(file, document, { mkdir: true });
}

/** Runs a replay file's minimal case `--rate-runs` times: the trace of the first failing run and the rate. */
async function replay(spec: ProcessTargetSpec, flags: ProcessFlags): Promise<number> {
  let file: ProcessReplayFile;
  try {
    file = readProcessReplayFile(flags.replay!);
  } catch (error) {
    process.stderr.write(`${messageOf(error)}\n`);
    return 2;
  }
  const bounds = { hangAfterMs: flags.hangAfter ?? file.bounds.hangAfterMs ?? DEFAULT_HANG_AFTER_MS, inFlightMs: file.bounds.inFlightMs ?? DEFAULT_IN_FLIGHT_MS, graceMs: file.bounds.graceMs ?? DEFAULT_PROCESS_GRACE_MS };
  const target = targetOf(spec, bounds.graceMs);
  return replayRate(file.invariant, file.plan, flags.rateRuns ?? DEFAULT_RATE_RUNS, () => runCase(target, file.plan, bounds));
}

/**
 * Runs a minimal case `runs` times (`run`, on a fresh process or session each): prints the case,
 * the trace of the first failing run and the rate. Exit 0 reproduced, 3 not reproduced.
 */
export async function replayRate(invariant: InvariantId, plan: Plan, runs: number, run: () => Promise<Judged>): Promise<number> {
  console.log(`replay of ${invariant} (black box, real time), ${runs} runs of:`);
  for (const line of describePlan(plan)) console.log(`  ${line}`);
  let hits = 0;
  let shown = false;
  for (let k = 0; k < runs; k++) {
    const r = await run();
    const f = r.findings.find((x) => x.invariant === invariant);
    if (!f) continue;
    hits++;
    if (!shown) {
      shown = true;
      console.log(formatTrace(r.trace));
      console.log(`${f.invariant}: ${f.message}`);
    }
  }
  const rate = determinismOf(hits, runs);
  console.log(hits > 0 ? pc.green(`reproduced: ${invariant}, ${rate}`) : pc.red(`NOT reproduced: ${invariant}, ${rate}`));
  return hits > 0 ? 0 : 3;
}

/** `mcp-sim rogue --stdio CMD | --url URL`: every rogue frame against the process or endpoint. */
export async function rogueProcessCommand(flags: ProcessFlags & { filter?: string }): Promise<number> {
  try {
    const spec = targetSpecOf(flags);
    const target = targetOf(spec, DEFAULT_PROCESS_GRACE_MS);
    const { runPlan } = await import('../realtime/index.ts');
    const discovery = await runPlan(target, { calls: [], serverRequests: 'answer' }, { tailMs: 0 });
    const tool = discovery.tools[0]?.name ?? 'work';
    console.log(pc.bold(`mcp-sim rogue  (black box, real time) ${target.label}`));
    const report = await rogueProcess(target, tool, flags.filter);
    const { rows } = report;
    console.log(formatRogueProcessTable(rows));
    console.log(`not judged from outside: ${report.cannotJudge.join('; ')}`);
    if (report.leftOut.length > 0) console.log(`left out: ${report.leftOut.map((l) => `${l.kind} (${l.why})`).join(', ')}`);
    const bad = rows.filter((r) => r.verdicts.some((v) => !v.met));
    console.log(bad.length === 0 ? pc.green(`every rogue frame answered as judged, the server stayed usable (${rows.length} kinds)`) : pc.red(`${bad.length} of ${rows.length} kinds: ${bad.map((r) => `${r.kind} (${r.verdicts.filter((v) => !v.met).map((v) => v.invariant).join(', ')})`).join(', ')}`));
    if (flags.json !== undefined) {
      // `rogueProcess` of schemas/report.schema.json.
      const doc = { schemaVersion: REPORT_SCHEMA_VERSION, kind: 'rogue-process', tool: TOOL, mode: 'black box, real time', target: { kind: target.kind, label: target.label }, ...report };
      if (flags.json === JSON_TO_STDOUT) process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
      else writeJsonAtomic(flags.json, doc, { mkdir: true });
    }
    return bad.length === 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof BadTargetError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
