import { SPEC_REVISIONS } from '../model/specRevision.ts';
import { LEAVABLE_PARTS } from '../workload/leavableParts.ts';
import { CAMPAIGN_RUNS_LIMIT } from './campaignOptions.ts';
import {
  AUTO_WORKER_RUNS_MIN,
  DEFAULT_ACTIONS_MAX,
  DEFAULT_FAULTS,
  DEFAULT_PROFILES,
  DEFAULT_SERVER_REQUESTS,
  DEFAULT_SHRINK,
  DEFAULT_STEPS_MAX,
  KNOWN_PROFILES,
  DEFAULT_CAMPAIGN_RUNS,
  DEFAULT_CAMPAIGN_SEED,
  DEFAULT_FAIL_ON,
  DEFAULT_HANG_AFTER_MS,
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_MAX_NOTIFICATION_RATE,
  DEFAULT_MAX_NOTIFICATIONS,
  DEFAULT_PROCESS_RUNS,
  DEFAULT_RATE_RUNS,
  DEFAULT_CLIENT_RATE_RUNS,
  DEFAULT_CLIENT_RUNS,
  DEFAULT_FUZZ_RUNS,
  DEFAULT_FUZZ_FAIL_ON,
  DEFAULT_REPRO_DIR,
  ENV_RUNS,
  SLOW_FACTOR,
  ENV_SEED,
} from './defaults.ts';

/**
 * Every flag of `mcp-sim check`, one name per concept whatever the target: the command line is
 * built from this table, and each kind of target (src/targets/<kind>/kind.ts) lists the ones
 * that apply to it. A flag given for a kind that does not take it is refused with one line
 * saying why (exit 2): nothing is dropped in silence.
 */
export interface CheckFlag {
  /** The flag as typed: `--runs`. */
  readonly name: string;
  /** Its value's placeholder (`<n>`), absent for a switch. */
  readonly value?: string;
  readonly help: string;
  /** How commander turns the text into a value. @default the text itself */
  readonly parse?: 'whole' | 'seconds' | 'list' | 'repeat';
}

/** The flags a report, a verdict and the replay files of any campaign take. */
const COMMON: readonly CheckFlag[] = [
  { name: '--runs', value: '<n>', parse: 'whole', help: `number of generated runs (default: ${DEFAULT_CAMPAIGN_RUNS} on an SDK release, ${DEFAULT_FUZZ_RUNS} on a module, ${DEFAULT_PROCESS_RUNS} in real time, ${DEFAULT_CLIENT_RUNS} generated cases on a client (one pass over its scenarios with --scenario); env ${ENV_RUNS})` },
  { name: '--seed', value: '<n>', parse: 'whole', help: `campaign seed, printed first; the same seed draws the same cases (default: ${DEFAULT_CAMPAIGN_SEED}; env ${ENV_SEED})` },
  { name: '--shrink', help: `shrink each finding to a minimal case (default: ${DEFAULT_SHRINK ? 'on' : 'off'})` },
  { name: '--no-shrink', help: 'report first cases as found, without shrinking' },
  { name: '--fail-on', value: '<level>', help: `lowest severity beyond the baseline that fails: must, should or advice (default: ${DEFAULT_FAIL_ON} on an SDK release, test bed or client; ${DEFAULT_FUZZ_FAIL_ON} on your own server: a module, a process, a URL)` },
  { name: '--json', value: '<file>', help: "also write the report as JSON (schemas/report.schema.json); '-' writes it to stdout and everything else to stderr" },
  { name: '--junit', value: '<file>', help: 'also write the report as JUnit XML' },
  { name: '--report', value: '<file>', help: 'also write a Markdown report (renders on GitHub)' },
  { name: '--out', value: '<dir>', help: `folder for the replay files of findings (default: ${DEFAULT_REPRO_DIR})` },
  { name: '--html', value: '<file>', help: 'also write the report as one self-contained HTML page (the trace viewer)' },
  { name: '--quiet', help: 'print only the verdict line (and errors): no progress, no report' },
  { name: '--dry-run', help: 'print the target and every resolved option as JSON, and run nothing (nothing is installed or started)' },
];

/** The in-process campaign's own: its schedules, workers, shards, kept shrinks, rule set and workload. */
const IN_PROCESS: readonly CheckFlag[] = [
  { name: '--self-check', help: 'run every case twice and compare trace hashes (harness.deterministic)' },
  { name: '--fresh-shrinks', help: "shrink every counterexample again, even one the release's kept shrinks hold" },
  { name: '--record-shrinks', help: "shrink every counterexample afresh and keep each in the release's kept shrinks" },
  { name: '--strict-causes', help: "also fail on a new cause of a known invariant found outside the baseline's own campaign" },
  { name: '--workers', value: '<n>', parse: 'whole', help: `worker threads that run the cases; 1 runs them in process; the report does not depend on it (default: one per core, at most one per ${AUTO_WORKER_RUNS_MIN} runs)` },
  { name: '--shard', value: '<i/n>', help: "run only slice I of N of the campaign; join the shards' --json reports with mcp-sim merge" },
  { name: '--time-limit', value: '<seconds>', parse: 'seconds', help: `stop starting runs after this many seconds and report the runs done (without --runs: run until then, at most ${CAMPAIGN_RUNS_LIMIT} runs)` },
  { name: '--seeds', value: '<a..b>', help: 'a sweep: one campaign per seed from A to B, one combined report' },
  { name: '--spec', value: '<revision>', help: `the spec revision whose rules judge the runs: ${SPEC_REVISIONS.join(' (default) or ')}, opt-in, which runs profile http-2026 on the 2.x packages only` },
  { name: '--profiles', value: '<list>', parse: 'list', help: `transport profiles to draw scenarios from: ${KNOWN_PROFILES.join(', ')} (default: ${DEFAULT_PROFILES.join(',')})` },
  { name: '--actions-max', value: '<n>', parse: 'whole', help: `most caller actions per scenario (default: ${DEFAULT_ACTIONS_MAX})` },
  { name: '--steps-max', value: '<n>', parse: 'whole', help: `most steps per handler script (default: ${DEFAULT_STEPS_MAX})` },
  { name: '--server-requests', help: `server-initiated requests (sampling, elicitation, roots) too (default: ${DEFAULT_SERVER_REQUESTS ? 'on' : 'off'})` },
  { name: '--no-server-requests', help: 'only client→server tool calls' },
  { name: '--faults', help: `connection closes and reconnects (default: ${DEFAULT_FAULTS ? 'on' : 'off'})` },
  { name: '--no-faults', help: 'no connection closes or reconnects' },
  { name: '--leave-out', value: '<list>', parse: 'list', help: `workload parts to leave out: ${LEAVABLE_PARTS.join(', ')} (check leaves out by itself what the release lacks)` },
];

/** An SDK release's text report. */
const SDK_REPORT: readonly CheckFlag[] = [
  { name: '--all-findings', help: "print every finding in full, with its counterexample and replay commands, those the baseline explains too (default: a known one is one line; the --json, --junit, --report and --html reports hold them all)" },
];

/** A user's server's tools: which ones, with which arguments. */
const TOOLS: readonly CheckFlag[] = [
  { name: '--args', value: '<file>', help: 'JSON file of fixed argument sets by tool ({"tool": [{...}, ...]}); other tools get generated arguments' },
  { name: '--tools', value: '<names>', help: 'only these tools (comma-separated)' },
];

/** Real time: how many at once, how long to wait, how often to re-run. */
const REAL_TIME: readonly CheckFlag[] = [
  { name: '--parallel', value: '<n>', parse: 'whole', help: 'server processes (or sessions) at once (default: the number of cores)' },
  { name: '--rate-runs', value: '<n>', parse: 'whole', help: `re-runs of each minimal case for its reproduction rate (default: ${DEFAULT_RATE_RUNS}; ${DEFAULT_CLIENT_RATE_RUNS} on a client)` },
  { name: '--hang-after', value: '<ms>', parse: 'whole', help: `a call silent this long (no progress, no answer), or a POST that never ends, is a finding (default: ${DEFAULT_HANG_AFTER_MS})` },
  { name: '--duplicate-ids', help: 'some calls reuse the id of a call in flight (a client fault; off by default)' },
  { name: '--reuse', help: 'many cases at once on one process (or session), each on its own ids and judged on its own slice; every finding confirmed on a fresh process (the default of a process or URL)' },
  { name: '--fresh', help: 'one process (or session) per case instead of shared ones: no state carries over, every run pays the start-up' },
  { name: '--tool-duration', value: '<tool=ms>', parse: 'repeat', help: `how long a tool is expected to take (repeatable): a call of it is waited for ${SLOW_FACTOR}× that before it counts as stuck (what the tools show is learned as the campaign runs)` },
  { name: '--max-frame-bytes', value: '<n>', parse: 'whole', help: `the largest frame read from the server; a larger one is cut there, not buffered, and is a finding (default: ${DEFAULT_MAX_FRAME_BYTES})` },
  { name: '--max-notifications', value: '<n>', parse: 'whole', help: `the most frames of one stream recorded (a call's progress in all, one method's notifications a minute); past it they are counted, and a flood is a finding (default: ${DEFAULT_MAX_NOTIFICATIONS})` },
  { name: '--max-notification-rate', value: '<n>', parse: 'whole', help: `the most frames of one such stream a second, sustained; past it, as past --max-notifications (default: ${DEFAULT_MAX_NOTIFICATION_RATE})` },
];

/** How a process is started (a stdio server, or a URL's `--start`). */
const PROCESS: readonly CheckFlag[] = [
  { name: '--cwd', value: '<dir>', help: "the server's working directory" },
  { name: '--env', value: '<K=V>', parse: 'repeat', help: 'a variable for the server (repeatable)' },
  { name: '--start', value: '<command>', help: 'with a URL: start the server first ({port} is a free loopback port), stop it at the end' },
];

/** An SDK's test bed: its transport, its baseline, the client's scenarios. */
const TEST_BEDS: readonly CheckFlag[] = [
  { name: '--transport', value: '<transport>', help: 'testbed: stdio (default), http-stateful-sse, http-stateful-json, http-stateless-sse or http-stateless-json; client: stdio or http' },
  { name: '--layer', value: '<layer>', help: "testbed: the SDK API its interpreter is written on: low (the low-level handlers), high (FastMCP/MCPServer, typed AddTool, #[tool], Java's McpServer tool specifications, registerTool) or both (default: each case on one, in turn)" },
  { name: '--update-baseline', help: "write the release's confirmed findings on this transport (and layer) as its baseline" },
  { name: '--scenario', value: '<list>', help: "client: these fixed client scenarios instead of generated cases, comma-separated ('all': every one)" },
];

const MODULE: readonly CheckFlag[] = [{ name: '--config', value: '<json|file>', help: "a module's factory config (a JSON object, or a JSON file)" }];

export const CHECK_FLAGS: readonly CheckFlag[] = [...COMMON, ...IN_PROCESS, ...SDK_REPORT, ...TOOLS, ...MODULE, ...REAL_TIME, ...PROCESS, ...TEST_BEDS];

/** The names of a group of flags, for the kinds' own lists. */
const names = (...groups: (readonly CheckFlag[])[]) => new Set(groups.flat().map((f) => f.name));

/** What every kind takes. */
export const COMMON_FLAGS: ReadonlySet<string> = names(COMMON);
/** The in-process campaign's flags. */
export const IN_PROCESS_FLAGS: ReadonlySet<string> = names(IN_PROCESS);
export const SDK_REPORT_FLAGS: ReadonlySet<string> = names(SDK_REPORT);
export const TOOL_FLAGS: ReadonlySet<string> = names(TOOLS);
export const MODULE_FLAGS: ReadonlySet<string> = names(MODULE);
export const REAL_TIME_FLAGS: ReadonlySet<string> = names(REAL_TIME);
export const PROCESS_FLAGS: ReadonlySet<string> = names(PROCESS);
export const TEST_BED_FLAGS: ReadonlySet<string> = names(TEST_BEDS);

/** The union of several flag sets, for a kind's `flags`. */
export const flagSet = (...sets: (ReadonlySet<string> | readonly string[])[]): ReadonlySet<string> => new Set(sets.flatMap((s) => [...s]));

/** The flag of `check` named `name`, or undefined. */
export const checkFlag = (name: string): CheckFlag | undefined => CHECK_FLAGS.find((f) => f.name === name);

/**
 * The spellings of earlier releases of mcp-sim that still work for this one, each printing its
 * new spelling once on stderr. `check --target go` is `check testbed:go`, `--client` makes it
 * `client:go`, `--sdk 1.26.0` is `sdk@1.26.0`, `--sdk-version V` is `@V`, `--md` is `--report`.
 */
export const LEGACY_CHECK_FLAGS: Readonly<Record<string, string>> = {
  '--target': 'the target as the argument: check testbed:<language>[@<release>] (client:<language> for its client)',
  '--client': 'check client:<language>[@<release>]',
  '--sdk': 'check sdk@<version> (or sdk@<folder>)',
  '--sdk-version': 'the release after @ in the target: testbed:<language>@<release>',
  '--md': '--report <file>',
  '--replay': 'mcp-sim replay <file>',
  '--stdio': 'check -- <command>',
  '--url': 'check <url>',
};
