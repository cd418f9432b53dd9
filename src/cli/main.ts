import { Command, InvalidArgumentError, Option } from 'commander';
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
import { CHECK_FLAGS, LEGACY_CHECK_FLAGS, type CheckFlag } from '../options/checkFlags.ts';
import { parseTarget, targetKinds } from '../targets/kinds.ts';
import type { SpecOf } from '../targets/Target.ts';

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
  targetReleases: () => import('./targetReleases.ts'),
  front: () => import('./front.ts'),
  replayTarget: () => import('./replayTarget.ts'),
};
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
  // The words after `--` name a stdio server's command (`check -- python server.py`): commander never sees them.
  const dashes = argv.indexOf('--');
  const before = dashes < 0 ? argv : argv.slice(0, dashes);
  const after = dashes < 0 ? undefined : argv.slice(dashes + 1);
  argv = before;
  // The kinds of target, for `check --help` and the front door (light modules: src/targets/<kind>/kind.ts).
  const kinds = await targetKinds();
  const targetFormsHelp = () => `\nTARGET is one of:\n${kinds.flatMap((k) => k.forms).map((f) => `  ${f}`).join('\n')}\n\nA flag that does not apply to the target's kind is refused (exit 2), with why.`;
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
    if (choice === undefined || action.name() === 'matrix' || action.name() === 'check') return;
    const { parseSdkChoice, sdkFolderOf } = await commands.sdkInstall();
    const folder = await sdkFolderOf(parseSdkChoice(choice), { onInstall: (message) => process.stderr.write(`${message}\n`) });
    if (folder === undefined) delete process.env[ENV_SDK];
    else process.env[ENV_SDK] = folder;
  });

  // `check [TARGET]`: one front door for every kind of target (src/targets/). Its flags come from
  // one table (src/options/checkFlags.ts); a flag the target's kind does not take is refused there.
  const check = program
    .command('check')
    .argument('[target]', 'what to check (none: the installed SDK); after --: a stdio server command')
    .description('the lifecycle campaign on a target: the installed SDK (none), sdk@<version>, ./server.ts, -- <command>, http://host/mcp, testbed:<language>[@<release>], client:<language>[@<release>]')
    .addHelpText('after', () => targetFormsHelp());
  // `--html` is every report command's (addHtmlOption, below); the rest are check's own.
  for (const f of CHECK_FLAGS) if (f.name !== '--html') check.addOption(optionOf(f));
  for (const [flag, value] of [['--target', '<language>'], ['--client', ''], ['--sdk', '<version|path>'], ['--sdk-version', '<version>'], ['--md', '<file>'], ['--replay', '<file>']] as const) {
    check.addOption(new Option(`${flag}${value ? ` ${value}` : ''}`, `old spelling: ${LEGACY_CHECK_FLAGS[flag]}`).hideHelp());
  }
  check.addHelpText('after', CHECK_EXIT_HELP).action(async (argument: string | undefined, opts: Record<string, unknown>) => {
    const legacy = legacyCheck(argument, opts);
    if (legacy.replay !== undefined) {
      code = await (await commands.replayTarget()).replayTargetFile(legacy.replay, legacy.opts);
      return;
    }
    code = await (await commands.front()).checkFront({ argument: legacy.argument, command: after, opts: legacy.opts, given: typed(before, legacy.renamed) });
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
    .description('replay one case: a replay file of any target written by check (real time: --rate-runs times, with its rate), a campaign case by seed and index (of the installed SDK, or of a module: replay ./server.ts --seed S --case N), or a baseline entry')
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
    .option('--rate-runs <n>', `a real-time case: how many times to run it for its rate (default: ${DEFAULT_RATE_RUNS})`, wholeNumberArg('--rate-runs'))
    .option('--hang-after <ms>', 'a real-time case: the bound it is judged with (default: the one it was found with)', wholeNumberArg('--hang-after'))
    .option('--args <file>', "a module's case: the fixed argument sets its campaign was given (check's --args)")
    .option('--config <json|file>', "a module's case: the factory config its campaign was given (check's --config)")
    .addHelpText('after', REPLAY_EXIT_HELP)
    .action(async (file: string | undefined, opts: ReplayFlags & { args?: string; config?: string }) => {
      // A module (replay ./server.ts --seed S --case N), or a replay file of another target than the SDK in process.
      const other = file === undefined ? undefined : await (await commands.replayTarget()).otherTarget(file);
      if (other !== 'module' && (opts.args !== undefined || opts.config !== undefined)) {
        process.stderr.write(`mcp-sim replay: ${opts.args !== undefined ? '--args' : '--config'} is for a case of a server module's campaign (replay ./server.ts --seed S --case K); a replay file keeps its target's own.\n`);
        code = 2;
        return;
      }
      if (other !== undefined) {
        code = other === 'module' ? await (await commands.replayTarget()).replayModuleByCase(file!, opts as unknown as Record<string, unknown>) : await (await commands.replayTarget()).replayTargetFile(file!, opts);
        return;
      }
      if (opts.rateRuns !== undefined || opts.hangAfter !== undefined) {
        process.stderr.write(`mcp-sim replay: ${opts.rateRuns !== undefined ? '--rate-runs' : '--hang-after'} is for a case of a real-time target; a case in process replays byte for byte, once.\n`);
        code = 2;
        return;
      }
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

  // `matrix TARGET --releases A,B,…` and `bisect TARGET --invariant ID`: TARGET is `sdk` (in process)
  // or `testbed:<language>` (real time); the old spellings (`--sdk <list>`, `--target L --sdk-version
  // <list>`, `--markdown`) still work for this release and say their new spelling.
  const matrix = program
    .command('matrix [target]')
    .description('the same campaign on several releases of a target (sdk, or testbed:<language>), one table: (invariant, cause) × release, each violated cell linked to its minimal counterexample')
    .option('--releases <list>', 'the releases, comma-separated, oldest first: exact versions (installed once) or, for sdk, folders (default for a test bed: its pinned releases)', commaListArg)
    .option('--runs <n>', `cases per release: the same cases on each (default: ${DEFAULT_MATRIX_RUNS} in process, 20 in real time)`, wholeNumberArg('--runs'))
    .option('--seed <n>', `campaign seed (default: ${DEFAULT_CAMPAIGN_SEED})`, wholeNumberArg('--seed'));
  addWorkloadOptions(matrix)
    .option('--report <file>', 'also write the table as Markdown, its cells linked (relative paths) to the counterexamples')
    .option('--json <file>', "also write the matrix as JSON (schemas/report.schema.json, kind matrix); '-' writes it to stdout")
    .option('--chart <file.svg>', 'also write a heat map (Vega-Lite spec next to it as <file>.vl.json; the SVG when vega is installed)')
    .option('--out <dir>', `folder for the counterexamples, one subfolder per release (default: ${DEFAULT_MATRIX_DIR})`)
    .option('--transport <transport>', 'a test bed: stdio (default) or http-<mode>')
    .option('--layer <layer>', 'a test bed: low, high or both (default): the SDK API its interpreter is written on')
    .option('--parallel <n>', 'a test bed: processes at once', wholeNumberArg('--parallel'))
    .option('--rate-runs <n>', 'a test bed: re-runs of each minimal case on its release', wholeNumberArg('--rate-runs'));
  for (const [flag, value] of [['--sdk', '<list>'], ['--target', '<language>'], ['--sdk-version', '<list>'], ['--markdown', '<file>']] as const) matrix.addOption(new Option(`${flag} ${value}`).hideHelp());
  matrix.action(async (argument: string | undefined, opts: MatrixFlags) => {
    const target = await releasesTarget('matrix', argument, opts);
    if (target.kind === 'testbed') {
      refuseFor('matrix', 'testbed:<language>', opts, ['json', 'chart', 'out', ...IN_PROCESS_WORKLOAD]);
      code = await (await commands.targetReleases()).matrixTargetCommand(target.spec, target.releases, { ...opts, ...(opts.report !== undefined && { report: opts.report }) });
      return;
    }
    refuseFor('matrix', 'sdk', opts, ['transport', 'layer', 'parallel', 'rateRuns']);
    if (target.releases === undefined) throw new InvalidArgumentError("matrix sdk: give the releases: --releases 1.25.3,1.26.0 (versions or folders).");
    code = await (await commands.matrix()).matrixCommand(target.releases.join(','), matrixCampaignOf(opts), {
      out: opts.out ?? DEFAULT_MATRIX_DIR,
      ...(opts.report !== undefined && { markdown: opts.report }),
      ...(opts.json !== undefined && { json: opts.json }),
      ...(opts.chart !== undefined && { chart: opts.chart }),
    });
  });

  const bisect = program
    .command('bisect [target]')
    .description('the first release of a target (sdk, or testbed:<language>) between a good and a bad one that shows a finding (or, good after bad, that no longer shows it), its minimal case on both sides of the change')
    .requiredOption('--invariant <id>', 'the invariant (or <id>/<clause>) whose finding to search for')
    .option('--cause <cause>', 'sdk: only this cause of it, as matrix prints it: "<variant> <shape>" (e.g. "memory close")')
    .option('--good <release>', 'sdk: a release without the finding (version, or folder with --releases)')
    .option('--bad <release>', 'sdk: a release with it: later than --good (where it appears) or earlier (where it disappears: a fix)')
    .option('--releases <list>', 'the releases to search, oldest first, comma-separated (default: sdk: the published releases, npm view; a test bed: its pinned releases)', commaListArg)
    .option('--runs <n>', `cases per release probed (default: ${DEFAULT_MATRIX_RUNS} in process, 20 in real time)`, wholeNumberArg('--runs'))
    .option('--seed <n>', `campaign seed (default: ${DEFAULT_CAMPAIGN_SEED})`, wholeNumberArg('--seed'));
  addWorkloadOptions(bisect)
    .option('--out <dir>', `folder for the replay files of the answer (default: ${DEFAULT_BISECT_DIR})`)
    .option('--transport <transport>', 'a test bed: stdio (default) or http-<mode>')
    .option('--layer <layer>', 'a test bed: low, high or both (default): the SDK API its interpreter is written on')
    .option('--parallel <n>', 'a test bed: processes at once', wholeNumberArg('--parallel'))
    .option('--rate-runs <n>', 'a test bed: re-runs of the minimal case on each release', wholeNumberArg('--rate-runs'))
    .addHelpText('after', BISECT_EXIT_HELP);
  for (const [flag, value] of [['--target', '<language>'], ['--sdk-version', '<list>']] as const) bisect.addOption(new Option(`${flag} ${value}`).hideHelp());
  bisect.action(async (argument: string | undefined, opts: BisectFlags) => {
    const target = await releasesTarget('bisect', argument, opts);
    if (target.kind === 'testbed') {
      refuseFor('bisect', 'testbed:<language>', opts, ['good', 'bad', 'cause', 'out', ...IN_PROCESS_WORKLOAD]);
      code = await (await commands.targetReleases()).bisectTargetCommand(target.spec, opts.invariant, target.releases, opts);
      return;
    }
    refuseFor('bisect', 'sdk', opts, ['transport', 'layer', 'parallel', 'rateRuns']);
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
        ...(target.releases !== undefined && { releases: [...target.releases] }),
      },
      matrixCampaignOf(opts),
    );
  });

  const rogue = program
    .command('rogue [target]')
    .description('rogue peer: frames the lifecycle model forbids, sent to a target: the installed SDK\'s server and client in process (none, or sdk@<version>), or a server from outside (-- <command>, a URL, testbed:<language>)')
    .option('--side <side>', "in process: only attacks on the SDK's 'client' or 'server'")
    .option('--filter <text>', 'only rogue kinds whose name contains this text')
    .option('--json <file>', "also write the results as JSON (schemas/report.schema.json, kind rogue); '-' writes them to stdout")
    .option('--start <command>', 'a URL: start the server first ({port} is a free loopback port)')
    .option('--cwd <dir>', "a process or --start: the server's working directory")
    .option('--env <K=V>', 'a process or --start: a variable for the server (repeatable)', (v: string, all: string[] = []) => [...all, v])
    .option('--transport <transport>', 'a test bed: stdio (default) or http-<mode>')
    .option('--layer <layer>', 'a test bed: low or high (default: low): the SDK API its interpreter is written on');
  for (const [flag, value] of [['--target', '<side>'], ['--sdk', '<version|path>'], ['--stdio', '<command>'], ['--url', '<url>']] as const) rogue.addOption(new Option(`${flag} ${value}`).hideHelp());
  rogue.action(async (argument: string | undefined, opts: Record<string, unknown>) => {
    code = await (await commands.front()).rogueFront(argument, after, opts);
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

  // `fuzz` is the old spelling of `check` for a module, a stdio command (--stdio) or a URL (--url).
  // Not listed in --help: its flags are check's, and each use says its new spelling.
  const fuzz = program
    .command('fuzz [module]', { hidden: true })
    .description('old spelling of check on your own server: fuzz ./server.ts is check ./server.ts, fuzz --stdio CMD is check -- CMD, fuzz --url URL is check URL (see check --help)');
  for (const f of CHECK_FLAGS) if (f.name !== '--html') fuzz.addOption(optionOf(f).hideHelp());
  for (const [flags, help, parse] of [
    ['--stdio <command>', 'old spelling: check -- <command>'],
    ['--url <url>', 'old spelling: check <url>'],
    ['--replay <file>', 'old spelling: mcp-sim replay <file>'],
    ['--case <n>', 'old spelling: mcp-sim replay <module> --seed S --case N', wholeNumberArg('--case')],
    ['--expect <invariant>', 'with a replay: the finding it must show (exit 3 if it does not)'],
  ] as const) fuzz.addOption((parse ? new Option(flags, help).argParser(parse) : new Option(flags, help)).hideHelp());
  fuzz
    .action(async (module: string | undefined, opts: Record<string, unknown>) => {
      const say = (old: string, now: string) => process.stderr.write(`mcp-sim: "${old}" is now "${now}" (the old spelling works for this release)\n`);
      if (typeof opts.replay === 'string') {
        say('fuzz ... --replay FILE', `replay ${opts.replay}`);
        code = await (await commands.replayTarget()).replayTargetFile(opts.replay, opts);
        return;
      }
      if (typeof opts.case === 'number') {
        if (module === undefined) throw new InvalidArgumentError('fuzz --case: give the module whose case to replay (replay ./server.ts --seed S --case N).');
        // The seed the case is drawn with (--seed, else MCP_SIM_SEED, else the default), named in the new spelling.
        const seed = typeof opts.seed === 'number' ? opts.seed : Number(process.env[ENV_SEED]) || DEFAULT_CAMPAIGN_SEED;
        say(`fuzz ${module}${typeof opts.seed === 'number' ? ` --seed ${opts.seed}` : ''} --case ${opts.case}`, `replay ${module} --seed ${seed} --case ${opts.case}`);
        code = await (await commands.replayTarget()).replayModuleByCase(module, opts);
        return;
      }
      const stdio = typeof opts.stdio === 'string' ? opts.stdio : undefined;
      const argument = stdio !== undefined ? undefined : typeof opts.url === 'string' ? opts.url : module;
      if (stdio === undefined && argument === undefined) throw new InvalidArgumentError('fuzz: give a module (check ./server.ts), a command (check -- python server.py) or a URL (check http://127.0.0.1:8000/mcp).');
      const command = stdio === undefined ? undefined : commandWords(stdio);
      say(`fuzz ${stdio !== undefined ? `--stdio ${JSON.stringify(stdio)}` : typeof opts.url === 'string' ? `--url ${opts.url}` : module}`, `check ${command ? `-- ${command.join(' ')}` : argument}`);
      const { stdio: _s, url: _u, case: _c, expect: _e, replay: _r, ...rest } = opts;
      code = await (await commands.front()).checkFront({ argument, command, opts: rest, given: typed(before, new Map(), 'fuzz') });
    });

  // The trace viewer (issue #23): `view`, and `--html FILE` on the commands that write a JSON report.
  addViewCommand(program, (c) => (code = c));
  for (const name of ['check', 'replay', 'explore', 'fuzz']) addHtmlOption(program.commands.find((c) => c.name() === name)!);

  try {
    await program.parseAsync(argv as string[]);
  } catch (error) {
    const e = error as { code?: string; exitCode?: number; message?: string };
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
    // A usage error an action throws (matrix sdk without --releases, an old spelling that names half a target):
    // commander printed nothing of it (it prints only what its own parsing rejects), so say it here.
    if (error instanceof InvalidArgumentError) {
      process.stderr.write(`mcp-sim ${e.message}\n`);
      return 2;
    }
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
  args?: string;
  config?: string;
  rateRuns?: number;
  hangAfter?: number;
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
interface MatrixFlags extends WorkloadFlags, ReleasesFlags {
  runs?: number;
  seed?: number;
  markdown?: string;
  report?: string;
  json?: string;
  chart?: string;
  out?: string;
  parallel?: number;
  rateRuns?: number;
}

/** The target and releases of `matrix` and `bisect`, and their old spellings. */
interface ReleasesFlags {
  releases?: string[];
  sdk?: string;
  target?: string;
  sdkVersion?: string;
  transport?: string;
  layer?: string;
}

/** What commander parses for `bisect`. */
interface BisectFlags extends WorkloadFlags, ReleasesFlags {
  invariant: string;
  cause?: string;
  good?: string;
  bad?: string;
  rateRuns?: number;
  parallel?: number;
  runs?: number;
  seed?: number;
  out?: string;
}

/**
 * The target `matrix` or `bisect` runs over and its releases, from the argument or the old
 * spellings (`--sdk <list>`, `--target <language> --sdk-version <list>`, `--markdown`), each old
 * one said once on stderr. Only `sdk` and `testbed:<language>` have releases to go over.
 */
async function releasesTarget(command: string, argument: string | undefined, opts: ReleasesFlags & { markdown?: string; report?: string }): Promise<{ kind: 'sdk'; releases: readonly string[] | undefined } | { kind: 'testbed'; spec: SpecOf<'testbed'>; releases: readonly string[] | undefined }> {
  const say = (old: string, now: string) => process.stderr.write(`mcp-sim: "${old}" is now "${now}" (the old spelling works for this release)\n`);
  if (opts.markdown !== undefined) {
    say(`${command} --markdown`, `${command} --report`);
    opts.report ??= opts.markdown;
  }
  let releases: readonly string[] | undefined = opts.releases;
  if (opts.target !== undefined) {
    say(`${command} --target ${opts.target}${opts.sdkVersion ? ` --sdk-version ${opts.sdkVersion}` : ''}`, `${command} testbed:${opts.target}${opts.sdkVersion ? ` --releases ${opts.sdkVersion}` : ''}`);
    argument ??= `testbed:${opts.target}`;
    releases ??= opts.sdkVersion?.split(',').map((v) => v.trim()).filter(Boolean);
  } else if (opts.sdk !== undefined && command === 'matrix') {
    say(`matrix --sdk ${opts.sdk}`, `matrix sdk --releases ${opts.sdk}`);
    argument ??= 'sdk';
    releases ??= opts.sdk.split(',').map((v) => v.trim()).filter(Boolean);
  }
  if (argument === undefined || argument === 'sdk') return { kind: 'sdk', releases };
  const spec = await parseTarget(argument, undefined, { ...(opts.transport !== undefined && { transport: opts.transport }), ...(opts.layer !== undefined && { layer: opts.layer }) });
  if (spec.kind !== 'testbed') throw new InvalidArgumentError(`${command} ${argument}: only sdk and testbed:<language> have releases to go over (a ${spec.kind} target is one server).`);
  if (spec.release !== undefined) throw new InvalidArgumentError(`${command} ${argument}: name the releases with --releases, not @ in the target.`);
  return { kind: 'testbed', spec, releases };
}

/** The workload flags of the in-process campaign (commander's names) that a test bed's real-time campaign has no use for. */
const IN_PROCESS_WORKLOAD = ['profiles', 'actionsMax', 'stepsMax', 'leaveOut'] as const;

/** Refuses, with one line and exit 2, the flags of `names` given to `command` on a target of another kind. */
function refuseFor(command: string, target: string, opts: object, names: readonly string[]): void {
  const given = names.find((n) => (opts as Record<string, unknown>)[n] !== undefined);
  if (given !== undefined) throw new InvalidArgumentError(`${command} ${target}: --${given.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} does not apply to it (it is for ${target === 'sdk' ? 'a test bed: testbed:<language>' : 'an SDK release in process: sdk'}).`);
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

/** A commander option of `check`'s table: its value parsed as the table says. */
function optionOf(f: CheckFlag): Option {
  const option = new Option(`${f.name}${f.value ? ` ${f.value}` : ''}`, f.help);
  if (f.parse === 'whole') return option.argParser(wholeNumberArg(f.name));
  if (f.parse === 'seconds') return option.argParser(secondsArg(f.name));
  if (f.parse === 'list') return option.argParser(commaListArg);
  if (f.parse === 'repeat') return option.argParser((v: string, all: string[] = []) => [...all, v]);
  return option;
}

/** `check`'s old spellings, mapped to the new ones (each said once on stderr): the target argument, the flags, a replay. */
interface LegacyCheck {
  readonly argument: string | undefined;
  readonly opts: Record<string, unknown>;
  /** Old flag → the flag of the table it now is (absent: it became part of the target). */
  readonly renamed: ReadonlyMap<string, string | undefined>;
  /** `--replay FILE`: now `mcp-sim replay FILE`. */
  readonly replay?: string;
}

function legacyCheck(argument: string | undefined, given: Record<string, unknown>): LegacyCheck {
  const opts = { ...given };
  const renamed = new Map<string, string | undefined>();
  const say = (old: string, now: string) => process.stderr.write(`mcp-sim: "${old}" is now "${now}" (the old spelling works for this release)\n`);
  let target = argument;
  const fail = (message: string): never => {
    throw new InvalidArgumentError(message);
  };
  if (opts.target !== undefined) {
    if (target !== undefined) fail(`check: ${JSON.stringify(target)} and --target ${String(opts.target)} name two targets: give one (check testbed:${String(opts.target)}).`);
    const release = opts.sdkVersion === undefined ? '' : `@${String(opts.sdkVersion)}`;
    target = `${opts.client ? 'client' : 'testbed'}:${String(opts.target)}${release}`;
    say(`check --target ${String(opts.target)}${opts.client ? ' --client' : ''}${opts.sdkVersion === undefined ? '' : ` --sdk-version ${String(opts.sdkVersion)}`}`, `check ${target}`);
    for (const flag of ['--target', '--client', '--sdk-version']) renamed.set(flag, undefined);
  } else if (opts.client || opts.sdkVersion !== undefined) {
    fail(`check: ${opts.client ? '--client' : '--sdk-version'} names part of a target: give it as the argument (check client:<language>@<release>, check testbed:<language>@<release>).`);
  }
  if (opts.sdk !== undefined) {
    if (target !== undefined) fail(`check: --sdk ${String(opts.sdk)} and the target ${target}: give the release in the target (check sdk@${String(opts.sdk)}).`);
    target = `sdk@${String(opts.sdk)}`;
    say(`check --sdk ${String(opts.sdk)}`, `check ${target}`);
    renamed.set('--sdk', undefined);
  }
  if (opts.md !== undefined) {
    opts.report = opts.md;
    say('--md', '--report');
    renamed.set('--md', '--report');
  }
  for (const k of ['target', 'client', 'sdk', 'sdkVersion', 'md']) delete opts[k];
  if (opts.replay !== undefined) {
    say(`check ... --replay ${String(opts.replay)}`, `replay ${String(opts.replay)}`);
    return { argument: target, opts, renamed, replay: String(opts.replay) };
  }
  return { argument: target, opts, renamed };
}

/** The flags of `check`'s table typed in `argv` (before `--`), old spellings by their new names. */
function typed(argv: readonly string[], renamed: ReadonlyMap<string, string | undefined>, command = 'check'): string[] {
  const names: string[] = [];
  for (const token of argv.slice(argv.indexOf(command) + 1)) {
    if (!token.startsWith('--')) continue;
    const name = token.split('=')[0]!;
    const now = renamed.has(name) ? renamed.get(name) : name;
    if (now !== undefined && CHECK_FLAGS.some((f) => f.name === now)) names.push(now);
  }
  return names;
}

/**
 * `fuzz --stdio "<command>"`'s shell line as the words of `check -- <command>`: split at spaces
 * when nothing in it needs a shell, else run by `sh -c`.
 */
function commandWords(line: string): string[] {
  return /^[\w./@:=,{}+\s-]+$/.test(line) ? line.trim().split(/\s+/) : ['sh', '-c', line];
}
