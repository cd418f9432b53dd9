import pc from 'picocolors';
import { runAndJudge } from '../campaign/real/realCampaign.ts';
import { determinismOf } from '../campaign/real/rate.ts';
import { readReplayFile, type LoadedReplayFile } from '../campaign/replayFile.ts';
import { DEFAULT_IN_FLIGHT_MS, DEFAULT_HANG_AFTER_MS, DEFAULT_PROCESS_GRACE_MS, DEFAULT_RATE_RUNS } from '../options/defaults.ts';
import { formatTrace } from '../sim/trace.ts';
import { targetKind } from '../targets/kinds.ts';
import { usageExit } from './usageExit.ts';
import { REPLAY_EXIT } from './commandHelp.ts';
import type { RealBounds } from '../targets/Target.ts';
import { wireBoundsOf } from '../real/wireBounds.ts';
import type { Finding } from '../model/finding.ts';
import type { TraceEvent } from '../sim/trace.ts';
import { REPORT_SCHEMA_VERSION } from '../report/jsonReport.ts';
import { TOOL } from '../util/toolVersion.ts';
import { writeJsonReport } from './check.ts';

/** What `replay FILE` takes for a case on another clock than the SDK's in process. */
export interface ReplayTargetFlags {
  readonly rateRuns?: unknown;
  readonly hangAfter?: unknown;
  readonly expect?: unknown;
  /** A real-time case: also write the replay as JSON (its rate, the trace of its first failing run). */
  readonly json?: unknown;
}

/**
 * `replay FILE` of any kind: the file's target opened again and its case run. On the virtual
 * clock once, byte for byte (an SDK release: src/cli/replay.ts; a module: its run in process); on
 * the real clock `--rate-runs` times, printing the trace of the first failing run and the rate.
 * Exit 0 reproduced (or no invariant named and none shown), 2 bad input, 3 not reproduced.
 */
export async function replayTargetFile(path: string, flags: ReplayTargetFlags = {}): Promise<number> {
  let file: LoadedReplayFile;
  try {
    file = readReplayFile(path);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return REPLAY_EXIT.refused;
  }
  try {
    const invariant = (typeof flags.expect === 'string' ? flags.expect : undefined) ?? file.invariant;
    if (file.clock === 'real') return await replayReal(file, invariant, flags);
    if (file.target.kind === 'module') return await (await import('./fuzz.ts')).replayModuleCase(file.target, file.case as never, invariant);
    throw new Error(`replayTargetFile: ${path} is a case of an SDK release in process: replay it with replayCommand`);
  } catch (error) {
    return usageExit(error);
  }
}

/** A real-time case `--rate-runs` times on its target: the trace of the first failing run, and the rate. */
async function replayReal(file: LoadedReplayFile, invariant: string | undefined, flags: ReplayTargetFlags): Promise<number> {
  const kind = await targetKind(file.target.kind);
  const bounds: RealBounds = {
    hangAfterMs: typeof flags.hangAfter === 'number' ? flags.hangAfter : (file.bounds?.hangAfterMs ?? DEFAULT_HANG_AFTER_MS),
    inFlightMs: file.bounds?.inFlightMs ?? DEFAULT_IN_FLIGHT_MS,
    graceMs: file.bounds?.graceMs ?? DEFAULT_PROCESS_GRACE_MS,
    // What the connection keeps of the server's frames: as when the case was found.
    ...wireBoundsOf(file.bounds),
  };
  const target = await kind.openReal!(file.target as never, { graceMs: bounds.graceMs, wire: wireBoundsOf(bounds), say: (line) => process.stderr.write(`${line}\n`) });
  const runs = typeof flags.rateRuns === 'number' ? flags.rateRuns : DEFAULT_RATE_RUNS;
  console.log(`replay of ${invariant ?? 'a case'} on ${target.describe().label} (real time), ${runs} runs of:`);
  for (const line of target.describeCase(file.case)) console.log(`  ${line}`);
  console.log(file.rate ? `  (when found: reproduced ${file.rate.hits}/${file.rate.runs})` : '  (when found: a known cause of the baseline, not re-run)');
  let hits = 0;
  let first: { readonly finding: Finding; readonly trace: readonly TraceEvent[] } | undefined;
  for (let k = 0; k < runs; k++) {
    const r = await runAndJudge(target, file.case, bounds);
    const f = invariant === undefined ? r.findings[0] : r.findings.find((x) => x.invariant === invariant);
    if (!f) continue;
    hits++;
    if (!first) {
      first = { finding: f, trace: r.trace };
      console.log(formatTrace(r.trace));
      console.log(`${f.invariant}: ${f.message}`);
    }
  }
  const rate = determinismOf(hits, runs);
  if (typeof flags.json === 'string') {
    // The replay as a report (schemas/report.schema.json, kind replay on the real clock): the trace viewer draws its first failing run.
    const document = {
      schemaVersion: REPORT_SCHEMA_VERSION,
      kind: 'replay',
      clock: 'real',
      tool: TOOL,
      target: target.describe(),
      case: file.case,
      steps: target.describeCase(file.case),
      bounds,
      rate: { hits, runs },
      determinism: rate,
      findings: first ? [{ invariant: first.finding.invariant, level: first.finding.level, message: first.finding.message, determinism: rate, trace: first.trace }] : [],
    };
    writeJsonReport(flags.json, document);
  }
  if (invariant === undefined) {
    console.log(hits > 0 ? `findings in ${rate}` : `no finding in ${runs} runs`);
    return REPLAY_EXIT.pass;
  }
  console.log(hits > 0 ? pc.green(`reproduced: ${invariant}, ${rate}`) : pc.red(`NOT reproduced: ${invariant}, ${rate}`));
  return hits > 0 ? REPLAY_EXIT.pass : REPLAY_EXIT.notReproduced;
}

/** `replay ./server.ts --seed S --case N`: case N of a module's campaign of seed S, run once in process. */
export async function replayModuleByCase(module: string, opts: Record<string, unknown>): Promise<number> {
  const { resolveFuzzOptions } = await import('../options/index.ts');
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  try {
    const options = resolveFuzzOptions({
      module,
      ...(typeof opts.seed === 'number' && { seed: opts.seed }),
      ...(typeof opts.case === 'number' && { caseIndex: opts.case }),
      ...(str(opts.expect) !== undefined && { expect: str(opts.expect)! }),
      ...(str(opts.args) !== undefined && { argsFile: str(opts.args)! }),
      ...(str(opts.config) !== undefined && { config: str(opts.config)! }),
    });
    return await (await import('./fuzz.ts')).fuzzCommand(options);
  } catch (error) {
    return usageExit(error);
  }
}

/**
 * What `replay FILE` names when it is not a case of the SDK in process: `module` for a server
 * module (its cases replay by seed and index), `file` for a replay file of a module or a
 * real-time target; undefined otherwise (the SDK's own replay takes it, and says what is wrong).
 */
export async function otherTarget(file: string): Promise<'module' | 'file' | undefined> {
  const { MODULE_PATH } = await import('../targets/module/kind.ts');
  if (MODULE_PATH.test(file)) return 'module';
  try {
    return readReplayFile(file).target.kind === 'sdk' ? undefined : 'file';
  } catch {
    return undefined;
  }
}
