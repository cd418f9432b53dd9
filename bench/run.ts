/**
 * Entry point of the correlation benchmarks (issue 6): `npm run bench [-- flags]`, which runs
 * `node --expose-gc --import tsx bench/run.ts`.
 *
 * Runs every suite (the floor once, the SDK suites once per SDK version), prints a table per
 * suite, and writes latest.json, summary.md and one SVG chart per suite. Full runs of the
 * installed SDK write to bench/results/; other runs (--quick, --sdk, --compare) write to a
 * subfolder of it that git ignores, so they never overwrite the committed results.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { heapMethodDescription } from './lib/heap.ts';
import { writeFileAtomic } from '../src/util/atomicWrite.ts';
import { SdkNotInstalledError, aliasFor, installedSdk, loadSdkVersion } from '../src/sdk/load.ts';
import { SdkChoiceError, loadChosenSdk, parseSdkChoice } from '../src/sdk/install.ts';
import { findPackage } from '../src/sdk/sdkPackage.ts';
import type { SdkAdapter } from '../src/sdk/SdkAdapter.ts';
import { analyze, suiteCharts, summaryMarkdown, terminalReport, type RunRecord } from './lib/report.ts';
import { realNow } from './lib/realClock.ts';
import type { BenchSuite, SuiteResult } from './lib/suite.ts';
import { cancellationSuite } from './suites/cancellation.ts';
import { floorSuite } from './suites/floor.ts';
import { progressSuite } from './suites/progress.ts';
import { requestResponseSuite } from './suites/requestResponse.ts';
import { streamableHttpSuite } from './suites/streamableHttp.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '..');

const BUILTIN_SUITES: BenchSuite[] = [floorSuite, requestResponseSuite, progressSuite, cancellationSuite, streamableHttpSuite];

interface Options {
  quick: boolean;
  sdk?: string;
  compare?: string[];
  suite?: string[];
  maxN?: number;
  out?: string;
  write: boolean;
}

function positiveInt(value: string): number {
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function parseArgs(argv: string[]): Options {
  const program = new Command()
    .name('npm run bench --')
    .description('Correlation benchmarks of the MCP SDK request lifecycle, against a minimal floor')
    .option('--quick', 'rough picture in under a minute: fewer N values and iterations', false)
    .option('--sdk <version|path>', 'benchmark this SDK release: an exact version (the alias package sdk-VERSION when installed, else installed into mcp-sim\'s cache from the npm registry), a folder holding the SDK, or installed (the project\'s own)')
    .option('--compare <a,b>', 'benchmark two SDK releases (versions or folders, as --sdk) in one process and print their ratios side by side', list)
    .option('--suite <names>', `run only these suites (${BUILTIN_SUITES.map((s) => s.name).join(', ')}, harness)`, list)
    .option('--max-n <n>', 'cap the largest N of every suite (default: no cap)', positiveInt)
    .option('--out <dir>', 'output folder (default: bench/results for a full run of the installed SDK, else a git-ignored subfolder)')
    .option('--no-write', 'print the tables only, write no files')
    .showHelpAfterError();
  program.parse(argv);
  const o = program.opts<Options>();
  if (o.sdk !== undefined && o.compare !== undefined) program.error('--sdk and --compare are exclusive');
  if (o.compare !== undefined && o.compare.length !== 2) program.error('--compare takes exactly two versions: --compare A,B');
  return o;
}

/** The harness suite from bench/harness.bench.ts, if that file exists and exports one. */
async function harnessSuite(): Promise<BenchSuite | undefined> {
  const file = join(HERE, 'harness.bench.ts');
  if (!existsSync(file)) return undefined;
  try {
    const mod = (await import(pathToFileURL(file).href)) as { harnessSuite?: unknown };
    const s = mod.harnessSuite as Partial<BenchSuite> | undefined;
    if (s && typeof s.name === 'string' && typeof s.run === 'function') return s as BenchSuite;
  } catch (error) {
    process.stderr.write(`bench/harness.bench.ts failed to load, skipped: ${(error as Error).message}\n`);
  }
  return undefined;
}

/**
 * The release `--sdk` or `--compare` names: a version's alias package (`sdk-VERSION`, a
 * devDependency) when the project has it, else what `--sdk` gives on every mcp-sim command (the
 * version installed into mcp-sim's cache, a folder, the installed SDK).
 */
async function loadBenchSdk(choice: string): Promise<SdkAdapter> {
  const parsed = parseSdkChoice(choice);
  if (parsed.kind === 'version' && findPackage(aliasFor(parsed.version), import.meta.url)) return loadSdkVersion(parsed.version);
  return loadChosenSdk(parsed, { onInstall: (message) => process.stderr.write(`${message}\n`) });
}

function commandLine(argv: string[]): string {
  const args = argv.slice(2).join(' ');
  if (process.env['npm_lifecycle_event'] === 'bench') return `npm run bench${args ? ` -- ${args}` : ''}`;
  return ['node', ...process.execArgv, relative(process.cwd(), fileURLToPath(import.meta.url)), args].filter(Boolean).join(' ');
}

function outputDir(o: Options, versions: string[]): string {
  if (o.out !== undefined) return resolve(o.out);
  const base = join(HERE, 'results');
  const tags: string[] = [];
  if (o.quick) tags.push('quick');
  // A folder is named by its last segment and the version it holds: a path's slashes would nest folders.
  const nameOf = (choice: string, version: string | undefined) => (parseSdkChoice(choice).kind === 'folder' ? `${basename(resolve(choice))}-${version}` : choice);
  if (o.compare) tags.push(`compare-${o.compare.map((choice, i) => nameOf(choice, versions[i])).join('-vs-')}`);
  else if (o.sdk !== undefined && parseSdkChoice(o.sdk).kind === 'folder') tags.push(`sdk-${nameOf(o.sdk, versions[0])}`);
  else if (o.sdk !== undefined && versions[0] !== installedSdk().version) tags.push(`sdk-${versions[0]}`);
  if (o.suite) tags.push(o.suite.join('+'));
  if (o.maxN !== undefined) tags.push(`maxn-${o.maxN}`);
  return tags.length === 0 ? base : join(base, tags.join('-'));
}

async function main(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  const started = realNow();
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg()[0]!;
  const requested = o.compare ?? [o.sdk ?? 'installed'];
  const sdks: SdkAdapter[] = [];
  try {
    for (const v of requested) sdks.push(await loadBenchSdk(v));
  } catch (error) {
    if (error instanceof SdkNotInstalledError || error instanceof SdkChoiceError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const versions = sdks.map((s) => s.version);
  const log = (message: string): void => {
    process.stderr.write(`[${((realNow() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
  };

  const suites = [...BUILTIN_SUITES];
  const harness = await harnessSuite();
  if (harness !== undefined) suites.push(harness);
  const selected = o.suite === undefined ? suites : suites.filter((s) => o.suite!.includes(s.name) || (s === harness && o.suite!.includes('harness')));
  if (selected.length === 0) {
    process.stderr.write(`no suite matches ${o.suite?.join(',')}; known: ${suites.map((s) => s.name).join(', ')}\n`);
    return 2;
  }

  const results: SuiteResult[] = [];
  const suiteSeconds: Record<string, number> = {};
  for (const suite of selected) {
    // The harness suite measures the harness against the SDK it imports itself: run it once.
    const once = suite.sdkIndependent === true || suite === harness;
    for (const sdk of once ? sdks.slice(0, 1) : sdks) {
      const key = once ? suite.name : `${suite.name}@${sdk.version}`;
      log(`suite ${key}`);
      const t0 = realNow();
      try {
        results.push(await suite.run({ sdk, quick: o.quick, maxN: o.maxN ?? Number.POSITIVE_INFINITY, log: (m) => log(`  ${m}`) }));
      } catch (error) {
        const e = error as Error;
        log(`  suite ${key} failed: ${e.stack ?? e.message}`);
        results.push({
          name: suite.name,
          description: suite.description,
          ...(once ? {} : { sdkVersion: sdk.version }),
          curves: [],
          leaks: [],
          notes: [],
          skipped: `failed: ${e.message}`,
        });
      }
      suiteSeconds[key] = (realNow() - t0) / 1000;
    }
  }

  const tinybenchVersion = (JSON.parse(readFileSync(join(ROOT, 'node_modules/tinybench/package.json'), 'utf8')) as { version: string }).version;
  const run: RunRecord = {
    meta: {
      command: commandLine(argv),
      startedAt,
      durationSeconds: (realNow() - started) / 1000,
      node: process.version,
      platform: `${platform()} ${release()}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      loadAverage1m: { start: loadAtStart, end: loadavg()[0]! },
      quick: o.quick,
      sdkVersions: versions,
      sdkPackages: sdks.map((sdk) => (sdk.generation === 2 ? '@modelcontextprotocol/client + /server' : sdk.name)),
      heapMethod: heapMethodDescription(),
      tinybench: tinybenchVersion,
      costStatistic: 'median tinybench sample (real clock, performance.now) divided by the operations timed per sample; the mean is reported beside it',
      gcPolicy:
        'no GC is forced before timed samples (V8 collects when it decides, so a sample may pay for garbage its untimed setup left); ' +
        'the untimed heap probes force full GCs and are followed by a 250 ms pause so that background sweeping does not overlap the next timed sample',
      suiteSeconds,
    },
    analysis: [],
    suites: results,
  };
  run.analysis = analyze(results);

  process.stdout.write(`${terminalReport(run)}\n`);
  if (o.write) {
    const dir = outputDir(o, versions);
    mkdirSync(dir, { recursive: true });
    const chartFiles = new Map<string, string>();
    for (const [name, svg] of await suiteCharts(run)) {
      const file = `${name}.svg`;
      writeFileAtomic(join(dir, file), `${svg}\n`);
      chartFiles.set(name, file);
    }
    writeFileAtomic(join(dir, 'latest.json'), `${JSON.stringify(run, null, 2)}\n`);
    writeFileAtomic(join(dir, 'summary.md'), `${summaryMarkdown(run, chartFiles)}\n`);
    log(`wrote ${relative(process.cwd(), dir) || '.'}/{latest.json,summary.md,${[...chartFiles.values()].join(',')}}`);
  }
  log(`done in ${((realNow() - started) / 1000).toFixed(0)} s`);
  return 0;
}

process.exitCode = await main(process.argv);
