import { Command } from 'commander';
import {
  AUTO_WORKER_RUNS_MIN,
  CAMPAIGN_RUNS_LIMIT,
  DEFAULT_BASELINE_RUNS,
  DEFAULT_CAMPAIGN_RUNS,
  DEFAULT_CAMPAIGN_SEED,
  DEFAULT_REPRO_DIR,
  DEFAULT_MATRIX_DIR,
  DEFAULT_MATRIX_RUNS,
  DEFAULT_BISECT_DIR,
  DEFAULT_FAIL_ON,
  DEFAULT_SHRINK,
  ENV_RUNS,
  ENV_SEED,
  resolveBaselineOptions,
  resolveCampaignOptions,
  resolveReplayOptions,
  SPEC_FLAG,
  type FailOn,
  DEFAULT_EXPLORE_DEPTH_MAX,
  DEFAULT_EXPLORE_RUNS_MAX,
  resolveExploreOptions,
} from '../options/index.ts';
import { SPEC_REVISIONS, type SpecRevision } from '../model/specRevision.ts';
import { TOOL } from '../util/toolVersion.ts';
import { format } from 'node:util';
import { progressSettings } from './progress.ts';
import { BISECT_EXIT_HELP, CHECK_EXIT_HELP, EXPLORE_EXIT_HELP, FUZZ_EXIT_HELP, JSON_TO_STDOUT, REPLAY_EXIT_HELP } from './commandHelp.ts';
import { commaListArg, secondsArg, wholeNumberArg } from './flagParsers.ts';
import { SDK_OPTION_HELP } from './sdkOption.ts';
import { ENV_SDK } from '../sdk/envNames.ts';
import { addReplayCoordinateOptions, addWorkloadOptions, workloadOf, type ReplayCoordinateFlags, type WorkloadFlags } from './workloadFlags.ts';
import { DEFAULT_FUZZ_FAIL_ON, DEFAULT_FUZZ_RUNS, resolveFuzzOptions } from '../options/index.ts';
import { addHtmlOption, addViewCommand } from './view.ts';

// Every command's own module (the campaign, the SDK, fast-check, the report writers) is imported
// by its action, when it runs: `--version`, `--help` and a command's help load none of them.
// A new command registers its flags here and imports its module the same way.
const commands = {
  check: () => import('./check.ts'),
  merge: () => import('./merge.ts'),
  replay: () => import('./replay.ts'),
  baseline: () => import('./baseline.ts'),
  matrix: () => import('./matrix.ts'),
  bisect: () => import('./bisect.ts'),
  rogue: () => import('./rogue.ts'),
  explore: () => import('./explore.ts'),
  fuzz: () => import('./fuzz.ts'),
  sdkInstall: () => import('../sdk/install.ts'),
  fuzzProcess: () => import('./fuzzProcess.ts'),
  checkTarget: () => import('./checkTarget.ts'),
  checkClient: () => import('./checkClient.ts'),
  targetReleases: () => import('./targetReleases.ts'),
};
import type { ProcessFlags } from './fuzzProcess.ts';
import { DEFAULT_HANG_AFTER_MS, DEFAULT_PROCESS_RUNS, DEFAULT_RATE_RUNS } from '../options/defaults.ts';

/**
 * The `mcp-sim` command line; returns the process exit code (0 pass, 1 a violation, 2 bad usage
 * or an error, 3 a replay whose expected finding did not reproduce, 130 a campaign stopped by
 * Ctrl-C after its partial report). Commander only parses: each
 * action hands the flags to the resolver of its kind of run (src/options/), which fills in the
 * defaults and rejects bad values, then runs it.
 */
export async function main(argv: readonly string[]): Promise<number> {
  let code = 0;
  const program = new Command('mcp-sim')
    .description('Deterministic simulation and fuzzing of the MCP request lifecycle against the real SDK')
    .version(`${TOOL.name} ${TOOL.version}`, '-V, --version', 'print the mcp-sim version')
    .showHelpAfterError()
    .exitOverride();
  // `--json -` puts the JSON report on stdout: everything the command prints goes to stderr instead.
  const jsonToStdout = argv.some((a, i) => (a === '--json' && argv[i + 1] === JSON_TO_STDOUT) || a === `--json=${JSON_TO_STDOUT}`);
  const log = console.log;
  if (jsonToStdout) console.log = (...xs: unknown[]) => void process.stderr.write(`${format(...xs)}\n`);
  // `--quiet`: no progress, and of what the command prints only its verdict (PASS/FAIL, reproduced or not).
  const quiet = argv.includes('--quiet');
  if (quiet) {
    progressSettings.quiet = true;
    const out = console.log;
    console.log = (...xs: unknown[]) => {
      const line = format(...xs).replace(/\u001b\[[0-9;]*m/g, '');
      if (/^(PASS|FAIL|reproduced|NOT reproduced)\b/.test(line)) out(...xs);
    };
  }
  // `--sdk` is MCP_SIM_SDK for this command: every load (runs, workers, baselines) follows it.
  const envBefore = process.env[ENV_SDK];
  program.hook('preAction', async (_program, action) => {
    const choice = (action.opts() as { sdk?: string }).sdk;
    // `matrix --sdk` names several releases and loads each itself.
    if (choice === undefined || action.name() === 'matrix') return;
    const { parseSdkChoice, sdkFolderOf } = await commands.sdkInstall();
    const folder = await sdkFolderOf(parseSdkChoice(choice), { onInstall: (message) => process.stderr.write(`${message}\n`) });
    if (folder === undefined) delete process.env[ENV_SDK];
    else process.env[ENV_SDK] = folder;
  });

  const check = program
    .command('check')
    .description('fuzz campaign against the installed SDK: generated workloads and schedules, judged by the lifecycle oracle')
    .option('--runs <n>', `number of generated runs (default: ${DEFAULT_CAMPAIGN_RUNS}; env ${ENV_RUNS})`, wholeNumberArg('--runs'))
    .option('--seed <n>', `campaign seed, printed first; the same seed runs the same campaign (default: ${DEFAULT_CAMPAIGN_SEED}; env ${ENV_SEED})`, wholeNumberArg('--seed'))
    .option('--sdk <version|path>', SDK_OPTION_HELP);
  addWorkloadOptions(check)
    .option('--shrink', `shrink each invariant's first case to a minimal counterexample (default: ${DEFAULT_SHRINK ? 'on' : 'off'})`)
    .option('--no-shrink', 'report first cases as found, without shrinking')
    .option('--self-check', 'run every case twice and compare trace hashes (harness.deterministic)')
    .option('--fresh-shrinks', "shrink every counterexample again, even one the SDK release's kept shrinks hold (properties/baselines/<sdk>.shrinks.json)")
    .option('--record-shrinks', "shrink every counterexample afresh and keep each in the release's kept shrinks (properties/baselines/<sdk>.shrinks.json)")
    .option('--fail-on <level>', `lowest severity beyond the baseline that fails: must (violations), should (warnings too), advice (notes too) (default: ${DEFAULT_FAIL_ON})`)
    .option('--quiet', 'print only the verdict line (and errors): no progress, no report')
    .option('--strict-causes', "also fail on a new cause of a known invariant found outside the baseline's own campaign (other seeds, more runs)")
    .option('--json <file>', "also write the report as JSON (schemas/report.schema.json); '-' writes it to stdout and everything else to stderr")
    .option('--junit <file>', 'also write the report as JUnit XML: one test case per invariant, failing where the verdict fails')
    .option('--report <file>', 'also write a Markdown report: summary, each failing finding with its replay and Mermaid diagram, coverage (renders on GitHub)')
    .option('--out <dir>', `folder for replay files of counterexamples (default: ${DEFAULT_REPRO_DIR})`)
    .option('--workers <n>', `worker threads that run the cases; 1 runs them in process; the report does not depend on it (default: one per core, at most one per ${AUTO_WORKER_RUNS_MIN} runs)`, wholeNumberArg('--workers'))
    .option('--shard <i/n>', 'run only slice I of N of the campaign (contiguous case indices); join the shards\' --json reports with mcp-sim merge')
    .option('--time-limit <seconds>', `stop starting runs after this many seconds and report the runs done (without --runs: run until then, at most ${CAMPAIGN_RUNS_LIMIT} runs)`, secondsArg('--time-limit'))
    .option('--seeds <a..b>', 'a sweep: one campaign per seed from A to B, one combined report; exits 1 if any seed fails')
    .option(`${SPEC_FLAG} <revision>`, SPEC_HELP)
    .option('--target <language>', 'instead: the lifecycle campaign on an SDK test bed, black box and real time: typescript, python, go, rust or java (testbeds/, docs/sdks.md)')
    .option('--sdk-version <version>', 'with --target: the SDK release (default: the test bed\'s first; one not installed is installed first)')
    .option('--transport <transport>', 'with --target: stdio (default), http-stateful-sse, http-stateful-json, http-stateless-sse or http-stateless-json')
    .option('--parallel <n>', 'with --target: test-bed processes at once (default: the number of cores)', wholeNumberArg('--parallel'))
    .option('--rate-runs <n>', `with --target: re-runs of each minimal case for its reproduction rate (default: ${DEFAULT_RATE_RUNS})`, wholeNumberArg('--rate-runs'))
    .option('--md <file>', 'with --target: also write a Markdown report')
    .option('--update-baseline', "with --target: write the release's confirmed findings on this transport as its baseline (properties/baselines/testbeds/)")
    .option('--replay <file>', "with --target: run a replay file's minimal case --rate-runs times and report its rate")
    .option('--duplicate-ids', 'with --target: some generated calls reuse the id of a call in flight (what the SDK does with it: go-sdk #1004)')
    .option('--client', "with --target: judge the SDK's client instead: its test-bed client against mcp-sim's scripted server, every client scenario over stdio and HTTP (--transport stdio|http, --runs per scenario, default 3)")
    .option('--scenario <list>', 'with --client: only these client scenarios, comma-separated')
    .addHelpText('after', CHECK_EXIT_HELP)
    .action(async (opts: CheckFlags) => {
      if (opts.target !== undefined && opts.client) {
        const { target, sdkVersion, transport, runs, scenario, json, md, updateBaseline } = opts;
        code = await (await commands.checkClient()).checkClientCommand({ target, sdkVersion, transport, runs, scenario, json, md, updateBaseline });
        return;
      }
      if (opts.client || opts.scenario !== undefined) {
        process.stderr.write('mcp-sim check: --client and --scenario go with --target <language> (the SDK whose client is judged).\n');
        code = 2;
        return;
      }
      if (opts.target !== undefined) {
        const { target, sdkVersion, transport, runs, seed, parallel, rateRuns, shrink, json, junit, md, out, replay, updateBaseline, duplicateIds } = opts;
        code = await (await commands.checkTarget()).checkTargetCommand({ target, sdkVersion, transport, runs, seed, parallel, rateRuns, shrink, json, junit, md, out, replay, updateBaseline, duplicateIds });
        return;
      }
      const { out: reproDir, json: jsonFile, junit: junitFile, report: markdownFile, ...rest } = opts;
      const options = resolveCampaignOptions({
        seed: rest.seed,
        runs: rest.runs,
        shrink: rest.shrink,
        selfCheck: rest.selfCheck,
        failOn: rest.failOn as FailOn | undefined,
        strictCauses: rest.strictCauses,
        reproDir,
        jsonFile,
        junitFile,
        markdownFile,
        workload: workloadOf(opts),
        workers: rest.workers,
        shard: rest.shard,
        timeLimitSeconds: rest.timeLimit,
        seeds: rest.seeds,
        ...(rest.spec !== undefined && { spec: rest.spec as SpecRevision }),
      });
      if (rest.freshShrinks && rest.recordShrinks) {
        process.stderr.write('mcp-sim check: --fresh-shrinks and --record-shrinks: choose one (--record-shrinks shrinks every task afresh anyway).\n');
        code = 2;
        return;
      }
      code = await (await commands.check()).checkCommand(options, { shrinks: rest.recordShrinks ? 'record' : rest.freshShrinks ? 'fresh' : 'kept' });
    });

  program
    .command('merge')
    .description("join the --json reports of a campaign's shards (check --shard I/N) into the report of the whole campaign; prints and exits like check")
    .argument('<files...>', 'the JSON report of every shard, in any order')
    .option('--json <file>', 'also write the merged report as JSON')
    .option('--junit <file>', 'also write the merged report as JUnit XML')
    .option('--quiet', 'print only the verdict line (and errors)')
    .option('--report <file>', 'also write the merged report as Markdown')
    .option('--out <dir>', `folder for replay files of counterexamples (default: ${DEFAULT_REPRO_DIR})`)
    .addHelpText('after', '\nExit status: 0 pass, 1 a violation beyond the baseline, 2 shards that do not make one campaign (other seeds, workloads, SDK or mcp-sim versions; a shard missing, twice, or cut short).')
    .action(async (files: string[], opts: { json?: string; junit?: string; report?: string; out?: string }) => {
      code = await (await commands.merge()).mergeCommand({
        files,
        ...(opts.json !== undefined && { jsonFile: opts.json }),
        ...(opts.junit !== undefined && { junitFile: opts.junit }),
        ...(opts.report !== undefined && { markdownFile: opts.report }),
        ...(opts.out !== undefined && { reproDir: opts.out }),
      });
    });

  const replay = program
    .command('replay [file]')
    .description('replay one case: from a replay file written by check, by campaign seed and case index, or a baseline entry')
    .option('--seed <n>', 'campaign seed', wholeNumberArg('--seed'))
    .option('--case <n>', 'case index in that campaign', wholeNumberArg('--case'));
  addReplayCoordinateOptions(addWorkloadOptions(replay))
    .option('--baseline <entry>', 'a baseline entry of the installed SDK, of any rule set\'s baseline: "<invariant> <variant> <shape>"')
    .option('--full', 'print every trace event (sends included)')
    .option('--mermaid', 'print a Mermaid sequence diagram')
    .option('--self-check', 'replay twice and compare trace hashes')
    .option('--quiet', 'print only whether the expected finding reproduced (and errors)')
    .option('--json <file>', "also write the replay as JSON (schemas/report.schema.json, kind replay); '-' writes it to stdout and everything else to stderr")
    .option('--emit-test <file>', 'also write a vitest regression test of the case (needs --expect, or a file or entry that names its invariant)')
    .option('--emit-expect <absent|present>', 'the emitted test fails while the finding reproduces (absent, default) or once it is fixed (present)')
    .option('--sdk <version|path>', SDK_OPTION_HELP)
    .option(`${SPEC_FLAG} <revision>`, `${SPEC_HELP} (with --seed/--case)`)
    .addHelpText('after', REPLAY_EXIT_HELP)
    .action(async (file: string | undefined, opts: ReplayFlags) => {
      const { case: caseIndex, baseline: baselineEntry, seed, full, mermaid, selfCheck, expect, madeWith } = opts;
      const options = resolveReplayOptions({
        file,
        seed,
        caseIndex,
        baselineEntry,
        full,
        mermaid,
        selfCheck,
        expect,
        madeWith,
        workload: workloadOf(opts),
        ...(opts.spec !== undefined && { spec: opts.spec as SpecRevision }),
        ...(opts.emitTest !== undefined && { emitTest: opts.emitTest }),
        ...(opts.emitExpect !== undefined && { emitExpect: opts.emitExpect }),
        ...(opts.json !== undefined && { jsonFile: opts.json }),
      });
      code = await (await commands.replay()).replayCommand(options);
    });

  const baseline = program
    .command('baseline')
    .description("find the installed SDK's violations with 1-minimal counterexamples; --update writes its baseline file")
    .option('--runs <n>', `runs of the baseline campaign (default: ${DEFAULT_BASELINE_RUNS})`, wholeNumberArg('--runs'))
    .option('--seed <n>', `campaign seed (default: ${DEFAULT_CAMPAIGN_SEED})`, wholeNumberArg('--seed'))
    .option('--sdk <version|path>', SDK_OPTION_HELP);
  addWorkloadOptions(baseline)
    .option('--update', 'write properties/baselines/<package>@<version>.json (with --spec 2026-07-28: <package>@<version>+2026-07-28.json)')
    .option('--table', 'only print the existing baseline as a Markdown table (detection and shrink measurements)')
    .option('--json <file>', "also write the entries found as JSON (schemas/report.schema.json, kind baseline); '-' writes them to stdout")
    .option(`${SPEC_FLAG} <revision>`, `the rule set the baseline is about: ${SPEC_REVISIONS.join(' (default) or ')}, whose baseline is <package>@<version>+<revision>.json (the campaign check ${SPEC_FLAG} runs)`)
    .action(async (opts: BaselineFlags) => {
      const options = resolveBaselineOptions({
        seed: opts.seed,
        runs: opts.runs,
        update: opts.update,
        table: opts.table,
        workload: workloadOf(opts),
        ...(opts.spec !== undefined && { spec: opts.spec as SpecRevision }),
      });
      code = await (await commands.baseline()).baselineCommand(options, { ...(opts.json !== undefined && { json: opts.json }) });
    });

  const matrix = program
    .command('matrix')
    .description('the same campaign on several SDK releases, one table: (invariant, cause) × release, each violated cell linked to its minimal counterexample')
    .option('--sdk <list>', 'releases, comma-separated: exact versions (installed into mcp-sim\'s cache) or folders (required without --target)')
    .option('--runs <n>', `cases per release: the same cases on each, those of a profile a release lacks not run (default: ${DEFAULT_MATRIX_RUNS})`, wholeNumberArg('--runs'))
    .option('--seed <n>', `campaign seed (default: ${DEFAULT_CAMPAIGN_SEED})`, wholeNumberArg('--seed'));
  addWorkloadOptions(matrix)
    .option('--markdown <file>', 'also write the table as Markdown, its cells linked (relative paths) to the counterexamples')
    .option('--json <file>', "also write the matrix as JSON (schemas/report.schema.json, kind matrix); '-' writes it to stdout")
    .option('--chart <file.svg>', 'also write a heat map (Vega-Lite spec next to it as <file>.vl.json; the SVG when vega is installed)')
    .option('--out <dir>', `folder for the counterexamples, one subfolder per release (default: ${DEFAULT_MATRIX_DIR})`)
    .option('--target <language>', 'instead: the test-bed campaign (check --target) on each release of an SDK test bed, black box and real time')
    .option('--sdk-version <list>', "with --target: the releases, comma-separated (default: the test bed's pinned releases)")
    .option('--transport <transport>', 'with --target: stdio (default) or http-<mode>')
    .action(async (opts: MatrixFlags) => {
      if (opts.target !== undefined) {
        const { target, sdkVersion, transport, runs, seed, markdown } = opts;
        code = await (await commands.targetReleases()).matrixTargetCommand({ target, sdkVersion, transport, runs, seed, markdown });
        return;
      }
      if (opts.sdk === undefined) {
        process.stderr.write("error: required option '--sdk <list>' not specified\n");
        code = 2;
        return;
      }
      code = await (await commands.matrix()).matrixCommand(opts.sdk, matrixCampaignOf(opts), {
        out: opts.out ?? DEFAULT_MATRIX_DIR,
        ...(opts.markdown !== undefined && { markdown: opts.markdown }),
        ...(opts.json !== undefined && { json: opts.json }),
        ...(opts.chart !== undefined && { chart: opts.chart }),
      });
    });

  const bisect = program
    .command('bisect')
    .description('the first release between a good and a bad one that shows a finding (or, good after bad, that no longer shows it), its minimal case on both sides of the change')
    .requiredOption('--invariant <id>', 'the invariant (or <id>/<clause>) whose finding to search for')
    .option('--cause <cause>', 'only this cause of it, as matrix prints it: "<variant> <shape>" (e.g. "memory close")')
    .option('--good <release>', 'a release without the finding (version, or folder with --releases; required without --target)')
    .option('--bad <release>', 'a release with it: later than --good (where it appears) or earlier (where it disappears: a fix; required without --target)')
    .option('--releases <list>', 'the releases to search, oldest first, comma-separated (default: the published releases, npm view)', commaListArg)
    .option('--runs <n>', `cases per release probed (default: ${DEFAULT_MATRIX_RUNS})`, wholeNumberArg('--runs'))
    .option('--seed <n>', `campaign seed (default: ${DEFAULT_CAMPAIGN_SEED})`, wholeNumberArg('--seed'));
  addWorkloadOptions(bisect)
    .option('--out <dir>', `folder for the replay files of the answer (default: ${DEFAULT_BISECT_DIR})`)
    .option('--target <language>', "instead: over an SDK test bed's releases (oldest first), the release where the finding appears or is fixed, black box and real time")
    .option('--sdk-version <list>', "with --target: the releases searched, oldest first (default: the test bed's pinned releases)")
    .option('--transport <transport>', 'with --target: stdio (default) or http-<mode>')
    .option('--rate-runs <n>', 'with --target: re-runs of the minimal case on each release', wholeNumberArg('--rate-runs'))
    .addHelpText('after', BISECT_EXIT_HELP)
    .action(async (opts: BisectFlags) => {
      if (opts.target !== undefined) {
        const { target, sdkVersion, transport, runs, seed, rateRuns, invariant } = opts;
        code = await (await commands.targetReleases()).bisectTargetCommand({ target, sdkVersion, transport, runs, seed, rateRuns, invariant });
        return;
      }
      if (opts.good === undefined || opts.bad === undefined) {
        process.stderr.write(`error: required option '${opts.good === undefined ? '--good <release>' : '--bad <release>'}' not specified\n`);
        code = 2;
        return;
      }
      code = await (await commands.bisect()).bisectCommand(
        {
          invariant: opts.invariant,
          good: opts.good,
          bad: opts.bad,
          out: opts.out ?? DEFAULT_BISECT_DIR,
          ...(opts.cause !== undefined && { cause: opts.cause }),
          ...(opts.releases !== undefined && { releases: opts.releases }),
        },
        matrixCampaignOf(opts),
      );
    });

  program
    .command('rogue')
    .description('rogue peer: frames the lifecycle model forbids, sent to the real SDK server and client')
    .option('--target <side>', "only attacks on 'client' or 'server'")
    .option('--filter <text>', 'only rogue kinds whose name contains this text')
    .option('--sdk <version|path>', SDK_OPTION_HELP)
    .option('--json <file>', "also write the results as JSON (schemas/report.schema.json, kind rogue); '-' writes them to stdout")
    .option('--stdio <command>', 'black box: every rogue frame against a server process started by this command (docs/process-targets.md)')
    .option('--url <url>', 'black box: every rogue frame against this Streamable HTTP endpoint')
    .option('--start <command>', 'with --url: start the server first ({port} is a free loopback port)')
    .option('--cwd <dir>', 'with --stdio or --start: the server\'s working directory')
    .option('--env <K=V>', 'with --stdio or --start: a variable for the server (repeatable)', (v: string, all: string[] = []) => [...all, v])
    .action(async (opts) => {
      code = opts.stdio !== undefined || opts.url !== undefined ? await (await commands.fuzzProcess()).rogueProcessCommand(opts) : await (await commands.rogue()).rogueCommand(opts);
    });

  // explore (issue #15): every schedule of a small scenario, with dynamic partial-order reduction.
  program
    .command('explore')
    .description('every schedule of a small scenario (a preset or a scenario file), pruned by dynamic partial-order reduction, each judged by the oracle')
    .option('--preset <name>', 'a preset scenario (--list prints them)')
    .option('--scenario <file>', 'a scenario JSON file (or a replay file: its scenario)')
    .option('--list', 'print the presets, one per line, name first')
    .option('--no-reduction', 'try every choice at every step (no partial-order reduction): slow, the reference the reduction is tested against')
    .option('--runs-max <n>', `most runs before stopping, saying what was not explored (default: ${DEFAULT_EXPLORE_RUNS_MAX})`, wholeNumberArg('--runs-max'))
    .option('--depth <n>', `depth bound: most scheduler steps per run (default: ${DEFAULT_EXPLORE_DEPTH_MAX})`, wholeNumberArg('--depth'))
    .option('--fail-on <level>', `lowest level beyond the baseline that fails: must, should or advice (default: ${DEFAULT_FAIL_ON})`)
    .option('--out <dir>', `folder for the replay files of findings (default: ${DEFAULT_REPRO_DIR})`)
    .option('--sdk <version|path>', SDK_OPTION_HELP)
    .option('--json <file>', "also write the result as JSON (schemas/report.schema.json, kind explore); '-' writes it to stdout")
    .option('--junit <file>', 'also write the result as JUnit XML: one test case per invariant, failing where the verdict fails, and a scope case (skipped when a bound cut the exploration)')
    .option('--report <file>', 'also write a Markdown report: verdict, exploration numbers, scope, each cause with its replay and the Mermaid diagram of its 1-minimal schedule')
    .addHelpText('after', EXPLORE_EXIT_HELP)
    .action(async (opts: ExploreFlags) => {
      if (opts.list) {
        console.log((await commands.explore()).listPresets());
        return;
      }
      const options = resolveExploreOptions({
        preset: opts.preset,
        scenarioFile: opts.scenario,
        reduce: opts.reduction,
        runsMax: opts.runsMax,
        depthMax: opts.depth,
        failOn: opts.failOn,
        reproDir: opts.out,
        jsonFile: opts.json,
        junitFile: opts.junit,
        markdownFile: opts.report,
      });
      code = await (await commands.explore()).exploreCommand(options);
    });

  program
    .command('fuzz [module]')
    .description("fuzz your own MCP server: its tools called with generated arguments, progress tokens, cancels, timeouts and closes, judged by the lifecycle oracle")
    .option('--runs <n>', `number of generated runs (default: ${DEFAULT_FUZZ_RUNS}, with --stdio or --url ${DEFAULT_PROCESS_RUNS}; env ${ENV_RUNS})`, wholeNumberArg('--runs'))
    .option('--seed <n>', `campaign seed, printed first (default: ${DEFAULT_CAMPAIGN_SEED}; env ${ENV_SEED})`, wholeNumberArg('--seed'))
    .option('--args <file>', 'JSON file of fixed argument sets by tool ({"tool": [{...}, ...]}); other tools get generated arguments')
    .option('--config <json|file>', "the factory's config (a JSON object, or a JSON file)")
    .option('--no-shrink', 'report first cases as found, without shrinking')
    .option('--fail-on <level>', `lowest severity of a finding on the server that fails: must, should, advice (default: ${DEFAULT_FUZZ_FAIL_ON})`)
    .option('--json <file>', "also write the report as JSON; '-' writes it to stdout and everything else to stderr")
    .option('--junit <file>', 'also write the report as JUnit XML: one test case per invariant on the server, failing at the --fail-on level')
    .option('--report <file>', 'also write a Markdown report: each finding on the server with its replay commands')
    .option('--out <dir>', `folder for replay files of counterexamples (default: ${DEFAULT_REPRO_DIR})`)
    .option('--replay <file>', 'replay a fuzz replay file instead of running a campaign')
    .option('--case <n>', 'replay case N of the campaign of --seed instead of running a campaign', wholeNumberArg('--case'))
    .option('--expect <invariant>', 'with a replay: the finding it must show (exit 3 if it does not)')
    .option('--quiet', 'print only the verdict line (and errors)')
    .option('--stdio <command>', 'black box, real time: fuzz a server process started by this command, over stdin/stdout (any language; docs/process-targets.md)')
    .option('--url <url>', 'black box, real time: fuzz this Streamable HTTP endpoint (loopback; {port} with --start)')
    .option('--start <command>', 'with --url: start the server first ({port} is a free loopback port), stop it at the end')
    .option('--cwd <dir>', 'with --stdio or --start: the server\'s working directory')
    .option('--env <K=V>', 'with --stdio or --start: a variable for the server (repeatable)', (v: string, all: string[] = []) => [...all, v])
    .option('--hang-after <ms>', `with --stdio or --url: the bound after which a call or a POST that never ends is a finding (default: ${DEFAULT_HANG_AFTER_MS})`, wholeNumberArg('--hang-after'))
    .option('--parallel <n>', 'with --stdio or --url: server processes at once (default: the number of cores)', wholeNumberArg('--parallel'))
    .option('--rate-runs <n>', `with --stdio or --url: re-runs of each minimal case for its reproduction rate (default: ${DEFAULT_RATE_RUNS})`, wholeNumberArg('--rate-runs'))
    .option('--tools <names>', 'with --stdio or --url: only these tools (comma-separated)')
    .option('--reuse', 'with --stdio or --url: many cases on one process (or session), separated by a barrier; state may carry over, and each finding is re-run on a fresh process too')
    .option('--duplicate-ids', 'with --stdio or --url: also reuse the id of a call in flight (a client fault; off by default)')
    .addHelpText('after', FUZZ_EXIT_HELP)
    .action(async (module: string | undefined, opts: FuzzFlags & ProcessFlags) => {
      if (opts.stdio !== undefined || opts.url !== undefined) {
        code = await (await commands.fuzzProcess()).fuzzProcessCommand(opts);
        return;
      }
      if (module === undefined) throw new Error('fuzz: give a module (fuzz ./server.ts), or --stdio "<command>" or --url URL for a server in any language');
      code = await (await commands.fuzz()).fuzzCommand(
        resolveFuzzOptions({
          module,
          ...(opts.runs !== undefined && { runs: opts.runs }),
          ...(opts.seed !== undefined && { seed: opts.seed }),
          ...(opts.args !== undefined && { argsFile: opts.args }),
          ...(opts.config !== undefined && { config: opts.config }),
          shrink: opts.shrink,
          ...(opts.failOn !== undefined && { failOn: opts.failOn }),
          ...(opts.json !== undefined && { jsonFile: opts.json }),
          ...(opts.junit !== undefined && { junitFile: opts.junit }),
          ...(opts.report !== undefined && { markdownFile: opts.report }),
          ...(opts.out !== undefined && { reproDir: opts.out }),
          ...(opts.replay !== undefined && { replayFile: opts.replay }),
          ...(opts.case !== undefined && { caseIndex: opts.case }),
          ...(opts.expect !== undefined && { expect: opts.expect }),
        }),
      );
    });

  // The trace viewer (issue #23): `view`, and `--html FILE` on the commands that write a JSON report.
  addViewCommand(program, (c) => (code = c));
  for (const name of ['check', 'replay', 'explore', 'fuzz']) addHtmlOption(program.commands.find((c) => c.name() === name)!);

  try {
    await program.parseAsync(argv as string[]);
  } catch (error) {
    const e = error as { code?: string; exitCode?: number; message?: string };
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
    if (typeof e.exitCode === 'number') return e.exitCode === 0 ? 0 : 2;
    process.stderr.write(`mcp-sim: ${e.message ?? String(error)}\n`);
    return 2;
  } finally {
    console.log = log;
    progressSettings.quiet = false;
    if (envBefore === undefined) delete process.env[ENV_SDK];
    else process.env[ENV_SDK] = envBefore;
  }
  return code;
}

/** What commander parses for `check` (absent flags stay undefined). */
interface CheckFlags extends WorkloadFlags {
  seed?: number;
  runs?: number;
  shrink?: boolean;
  selfCheck?: boolean;
  failOn?: string;
  strictCauses?: boolean;
  out?: string;
  json?: string;
  junit?: string;
  report?: string;
  workers?: number;
  shard?: string;
  timeLimit?: number;
  seeds?: string;
  spec?: string;
  target?: string;
  sdkVersion?: string;
  transport?: string;
  parallel?: number;
  rateRuns?: number;
  md?: string;
  updateBaseline?: boolean;
  replay?: string;
  client?: boolean;
  scenario?: string;
  duplicateIds?: boolean;
  freshShrinks?: boolean;
  recordShrinks?: boolean;
}

/** The help of `--spec` (check, replay). */
const SPEC_HELP = `the spec revision whose rules judge the runs: ${SPEC_REVISIONS.join(' (default) or ')}, opt-in, which runs profile http-2026 on the 2.x packages only (--sdk <folder with @modelcontextprotocol/client and /server>)`;

/** What commander parses for `replay`. */
interface ReplayFlags extends WorkloadFlags, ReplayCoordinateFlags {
  seed?: number;
  case?: number;
  baseline?: string;
  full?: boolean;
  mermaid?: boolean;
  selfCheck?: boolean;
  emitTest?: string;
  emitExpect?: string;
  json?: string;
  spec?: string;
}

/** What commander parses for `matrix`. */
interface MatrixFlags extends WorkloadFlags {
  sdk?: string;
  target?: string;
  sdkVersion?: string;
  transport?: string;
  runs?: number;
  seed?: number;
  markdown?: string;
  json?: string;
  chart?: string;
  out?: string;
}

/** What commander parses for `bisect`. */
interface BisectFlags extends WorkloadFlags {
  invariant: string;
  cause?: string;
  good?: string;
  bad?: string;
  target?: string;
  sdkVersion?: string;
  transport?: string;
  rateRuns?: number;
  releases?: string[];
  runs?: number;
  seed?: number;
  out?: string;
}

/** The campaign of `matrix` and `bisect`: resolved like check's (with shrinking), its runs defaulting to the matrix's. */
function matrixCampaignOf(opts: WorkloadFlags & { runs?: number; seed?: number }) {
  const { seed, runs, workload, shrinkTimeMsMax } = resolveCampaignOptions({ seed: opts.seed, runs: opts.runs ?? DEFAULT_MATRIX_RUNS, shrink: true, workload: workloadOf(opts) });
  return { seed, runs, workload, shrinkTimeMsMax };
}

/** What commander parses for `baseline`. */
interface BaselineFlags extends WorkloadFlags {
  seed?: number;
  runs?: number;
  update?: boolean;
  table?: boolean;
  json?: string;
  spec?: string;
}

/** What commander parses for `explore`. */
interface ExploreFlags {
  preset?: string;
  scenario?: string;
  list?: boolean;
  reduction: boolean;
  runsMax?: number;
  depth?: number;
  failOn?: FailOn;
  out?: string;
  json?: string;
  junit?: string;
  report?: string;
}

/** What commander parses for `fuzz`. */
interface FuzzFlags {
  runs?: number;
  seed?: number;
  args?: string;
  config?: string;
  shrink?: boolean;
  failOn?: string;
  json?: string;
  junit?: string;
  report?: string;
  out?: string;
  replay?: string;
  case?: number;
  expect?: string;
}
