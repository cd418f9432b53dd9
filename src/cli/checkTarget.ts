import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pc from 'picocolors';
import { DEFAULT_CAMPAIGN_SEED, DEFAULT_PROCESS_RUNS, DEFAULT_RATE_RUNS, DEFAULT_REPRO_DIR } from '../options/defaults.ts';
import { formatProcessReport, processJunitReport, processMarkdownReport, type Plan, type ProcessFinding } from '../realtime/index.ts';
import {
  checkTestbed,
  HTTP_MODES,
  installSdkTestbed,
  knownInBaseline,
  loadTestbedBaseline,
  runTestbedCase,
  SDK_TESTBED_LANGUAGES,
  sdkTestbed,
  testbedBounds,
  endpointOf,
  updateTestbedBaseline,
  type SdkTestbed,
  type SdkTestbedLanguage,
  type SdkTestbedTransport,
  type TestbedReport,
} from '../targets/testbed/index.ts';
import type { InvariantId } from '../model/invariants.ts';
import { BadTargetError } from '../real/index.ts';
import { writeFileAtomic, writeJsonAtomic } from '../util/atomicWrite.ts';
import { messageOf } from '../util/errors.ts';
import { JSON_TO_STDOUT } from './commandHelp.ts';
import { replayRate } from './fuzzProcess.ts';

/** The flags of `check --target` that commander parses. */
export interface CheckTargetFlags {
  target: string;
  sdkVersion?: string;
  transport?: string;
  runs?: number;
  seed?: number;
  parallel?: number;
  rateRuns?: number;
  shrink?: boolean;
  json?: string;
  junit?: string;
  md?: string;
  out?: string;
  replay?: string;
  updateBaseline?: boolean;
  duplicateIds?: boolean;
}

/** The transports a test bed can offer: stdio and each Streamable HTTP mode. */
const TRANSPORTS: readonly SdkTestbedTransport[] = ['stdio', ...HTTP_MODES.map((m) => `http-${m}` as const)];

/** A test bed's minimal case as a file: `check --target L --sdk-version V --replay FILE` runs it again and reports its rate. */
export interface TestbedReplayFile {
  readonly kind: 'testbed-check';
  readonly invariant: InvariantId;
  readonly language: SdkTestbedLanguage;
  readonly version: string;
  readonly transport: SdkTestbedTransport;
  readonly plan: Plan;
  readonly bounds: ReturnType<typeof testbedBounds>;
  readonly rate: { readonly hits: number; readonly runs: number };
}

/** Bad input: one line on stderr, exit 2. */
export class BadInput extends Error {}

/** The exit of a `--target` command that threw: bad input or a bad target is one line and 2; anything else goes on up. */
export function badInputExit(error: unknown): number {
  if (!(error instanceof BadInput || error instanceof BadTargetError)) throw error;
  process.stderr.write(`${error.message}\n`);
  return 2;
}

export function languageOf(name: string): SdkTestbedLanguage {
  if (!(SDK_TESTBED_LANGUAGES as readonly string[]).includes(name)) throw new BadInput(`mcp-sim check --target: unknown language ${JSON.stringify(name)}: one of ${SDK_TESTBED_LANGUAGES.join(', ')}.`);
  return name as SdkTestbedLanguage;
}

export function transportOf(name: string | undefined): SdkTestbedTransport {
  const t = name ?? 'stdio';
  if (!(TRANSPORTS as readonly string[]).includes(t)) throw new BadInput(`mcp-sim check --target: unknown transport ${JSON.stringify(t)}: one of ${TRANSPORTS.join(', ')}.`);
  return t as SdkTestbedTransport;
}

/**
 * The installed test bed of `language` at `version` (default: the manifest's first release); a
 * release not installed yet is installed first (its install.sh with MCP_SIM_SDK_VERSION), its
 * progress on stderr. A version the registry lacks, a missing toolchain or a failed install is bad input.
 */
export async function resolveTestbed(language: SdkTestbedLanguage, version: string | undefined): Promise<SdkTestbed> {
  const found = sdkTestbed(language, { ...(version !== undefined && { version }) });
  if (!('skipped' in found)) return found;
  if (!found.skipped.startsWith('not installed')) throw new BadInput(`mcp-sim check --target ${language}: ${found.skipped}.`);
  process.stderr.write(`installing the ${language} test bed${version === undefined ? '' : ` (${version})`}: ${found.skipped.replace(/^not installed: run /, '')}\n`);
  const install = await installSdkTestbed(language, { ...(version !== undefined && { version }), onLine: (line) => process.stderr.write(`  ${line}\n`) });
  if (install.code !== 0) {
    const why = install.code === 4 ? 'the registry has no such version' : install.code === 3 ? 'a toolchain is missing' : `the install failed (exit ${install.code})`;
    throw new BadInput(`mcp-sim check --target ${language}${version === undefined ? '' : ` --sdk-version ${version}`}: ${why}: ${install.lastLine}`);
  }
  console.log(`  installed: ${install.lastLine}`);
  const again = sdkTestbed(language, { ...(version !== undefined && { version }) });
  if ('skipped' in again) throw new BadInput(`mcp-sim check --target ${language}: installed, and still ${again.skipped}.`);
  return again;
}

/** The transport the release offers, or bad input naming what it offers. */
export function checkTransport(testbed: SdkTestbed, transport: SdkTestbedTransport): void {
  try {
    endpointOf(testbed, transport);
  } catch (error) {
    throw new BadInput(`mcp-sim check --target: ${messageOf(error)}.`);
  }
}

/** The lines that open a `check --target` report: the release, the transport, what the release lacks. */
export function testbedReportHead(report: TestbedReport): string[] {
  return [
    `SDK ${report.testbed.sdk} ${report.testbed.version}${report.testbed.pinned ? '' : ' (unpinned: resolved at install)'}, ${report.testbed.language} test bed, transport ${report.transport}`,
    'the server side is seen too: the test bed writes its handler events (start, each step, abort observed, end) on its side channel; a program\'s own ignore, swallow or hang is never the SDK\'s finding',
    ...report.lacks.map((l) => `lacks: ${l}`),
  ];
}

/** Writes a finding's minimal case as a replay file in `dir`, and gives the command that runs it again. */
export function writeTestbedReplay(report: TestbedReport, f: ProcessFinding, dir: string): { readonly file: string; readonly command: string } {
  const { language, version } = report.testbed;
  const file = join(dir, `testbed-${language}-${version}-${report.transport}-${f.invariant}.json`);
  const data: TestbedReplayFile = { kind: 'testbed-check', invariant: f.invariant, language, version, transport: report.transport, plan: f.minimal, bounds: report.bounds, rate: f.rate };
  writeJsonAtomic(file, data, { mkdir: true });
  return { file, command: commandOf(report, `--replay ${file}`) };
}

const commandOf = (report: Pick<TestbedReport, 'testbed' | 'transport'>, rest: string) => `npx mcp-sim check --target ${report.testbed.language} --sdk-version ${report.testbed.version} --transport ${report.transport} ${rest}`;

/**
 * `mcp-sim check --target <language>`: the generated lifecycle campaign on an SDK test bed (or,
 * with `--replay FILE`, one finding's minimal case again). Exit 0 clean (every confirmed finding
 * in the release's baseline), 1 a finding beyond it, 2 bad input, 3 a replay that did not reproduce.
 */
export async function checkTargetCommand(flags: CheckTargetFlags): Promise<number> {
  try {
    if (flags.replay !== undefined) return await replay(flags);
    const language = languageOf(flags.target);
    const transport = transportOf(flags.transport);
    const seed = flags.seed ?? DEFAULT_CAMPAIGN_SEED;
    const runs = flags.runs ?? DEFAULT_PROCESS_RUNS;
    console.log(pc.bold(`mcp-sim check --target ${language}  seed=${seed}  (black box, real time)`));
    const testbed = await resolveTestbed(language, flags.sdkVersion);
    checkTransport(testbed, transport);
    console.log(`  sdk           ${testbed.manifest.sdk.name} ${testbed.version}${testbed.pinned ? '' : ' (unpinned)'}`);
    console.log(`  transport     ${transport} (offers ${['stdio', ...testbed.modes.map((m) => `http-${m}`)].join(', ')})`);
    console.log(`  runs          ${runs}${flags.duplicateIds ? ' (some calls reuse the id of a call in flight: --duplicate-ids)' : ''}`);
    for (const l of testbed.lacks) console.log(pc.yellow(`  lacks         ${l}`));
    const baseline = loadTestbedBaseline(language, testbed.version);
    console.log(`  baseline      ${baseline ? `${baseline.entries.filter((e) => e.transport === transport).length} known finding(s) on ${transport}` : 'none yet (every finding is new)'}`);
    let shown = 0;
    const report = await checkTestbed(testbed, {
      transport,
      runs,
      seed,
      ...(flags.parallel !== undefined && { parallel: flags.parallel }),
      ...(flags.rateRuns !== undefined && { rateRuns: flags.rateRuns }),
      shrink: flags.shrink !== false,
      ...(flags.duplicateIds && { duplicateIds: true }),
      onProgress: (done, total) => {
        if (done === total || done - shown >= Math.max(1, Math.ceil(total / 10))) {
          shown = done;
          process.stderr.write(`  ${done}/${total} runs\n`);
        }
      },
    });
    const replays = new Map<string, string[]>();
    for (const f of report.findings) replays.set(f.invariant, [writeTestbedReplay(report, f, flags.out ?? DEFAULT_REPRO_DIR).command]);
    const text = [...testbedReportHead(report), ...formatProcessReport(report, replays).split('\n')].join('\n');
    if (flags.json === JSON_TO_STDOUT) process.stderr.write(`${text}\n`);
    else console.log(text);
    if (flags.json !== undefined) writeReport(flags.json, report, replays);
    if (flags.junit !== undefined) writeFileAtomic(flags.junit, processJunitReport(report), { mkdir: true });
    if (flags.md !== undefined) writeFileAtomic(flags.md, processMarkdownReport(report, replays).replace('\n\n', `\n\n${testbedReportHead(report).map((l) => `- ${l}`).join('\n')}\n`), { mkdir: true });
    const confirmed = report.findings.filter((f) => f.confirmed);
    if (flags.updateBaseline) {
      const file = updateTestbedBaseline(baseline, { language, sdk: testbed.manifest.sdk.name, version: testbed.version }, transport, confirmed, commandOf(report, `--runs ${runs} --seed ${seed}${flags.rateRuns === undefined ? '' : ` --rate-runs ${flags.rateRuns}`} --update-baseline`));
      console.log(pc.green(`baseline ${file}: ${confirmed.length} finding(s) on ${transport}`));
      return 0;
    }
    const known = confirmed.filter((f) => knownInBaseline(baseline, f, transport));
    const fresh = confirmed.filter((f) => !knownInBaseline(baseline, f, transport));
    const label = `${testbed.manifest.sdk.name} ${testbed.version} over ${transport}`;
    const knownText = known.length > 0 ? ` (${known.length} known in the baseline: ${names(known)})` : '';
    console.log(fresh.length === 0 ? pc.green(`PASS ${label}: no new finding in ${runs} runs${knownText}`) : pc.red(`FAIL ${label}: ${names(fresh)} beyond the baseline${knownText}`));
    return fresh.length === 0 ? 0 : 1;
  } catch (error) {
    return badInputExit(error);
  }
}

const names = (fs: readonly ProcessFinding[]) => fs.map((f) => `${f.invariant} (${f.determinism})`).join(', ');

function writeReport(file: string, report: TestbedReport, replays: ReadonlyMap<string, readonly string[]>): void {
  // `kind: 'fuzz-process'`, `clock: 'real'`: the trace viewer (`--html`) draws it as a black-box report.
  const document = { kind: 'fuzz-process', clock: 'real', ...report, findings: report.findings.map((f) => ({ ...f, replay: replays.get(f.invariant) ?? [] })) };
  if (file === JSON_TO_STDOUT) process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  else writeJsonAtomic(file, document, { mkdir: true });
}

/** `check --target L --replay FILE`: the file's minimal case `--rate-runs` times on its release and transport (the flags may name others). */
async function replay(flags: CheckTargetFlags): Promise<number> {
  let file: TestbedReplayFile;
  try {
    file = JSON.parse(readFileSync(flags.replay!, 'utf8')) as TestbedReplayFile;
  } catch (error) {
    throw new BadInput(`mcp-sim check --target --replay ${flags.replay}: cannot read it as JSON (${messageOf(error)}).`);
  }
  if (file.kind !== 'testbed-check') throw new BadInput(`mcp-sim check --target --replay ${flags.replay}: not a replay file of check --target (kind "testbed-check").`);
  const language = languageOf(flags.target ?? file.language);
  const transport = transportOf(flags.transport ?? file.transport);
  const testbed = await resolveTestbed(language, flags.sdkVersion ?? file.version);
  checkTransport(testbed, transport);
  console.log(`${testbed.manifest.sdk.name} ${testbed.version}, ${language} test bed, transport ${transport}`);
  const target = endpointOf(testbed, transport);
  return replayRate(file.invariant, file.plan, flags.rateRuns ?? DEFAULT_RATE_RUNS, () => runTestbedCase(target, file.plan, file.bounds));
}
