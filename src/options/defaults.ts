/**
 * Every default of a campaign, a replay, a baseline build and the property suite, named and
 * documented in one place. The resolvers in this folder fill them in; the CLI's help text, the
 * generator and the printed replay commands read them from here, so they cannot drift apart.
 * (Defaults of a single run, such as its step budget, live in `src/sim/defaults.ts`.)
 */
import type { SpecRevision } from '../model/specRevision.ts';
import type { Profile } from '../sim/scenario.ts';

/** Every transport profile the simulator has, in the order help and errors list them (`http-2026` needs the 2.x packages). */
export const KNOWN_PROFILES: readonly Profile[] = Object.freeze(['memory', 'http', 'http-2026'] as const);

/**
 * Seed of a campaign, a baseline build and the property suite: fixed, so `mcp-sim check` on two
 * machines (and CI) runs the same cases. `MCP_SIM_SEED` overrides it for check and properties.
 * @default 20_261_130
 */
export const DEFAULT_CAMPAIGN_SEED = 20_261_130;

/**
 * Runs of `mcp-sim check`: under ten seconds on one core, enough to meet rare races (a progress
 * exactly at a maximum total timeout) and for the rate check to see a known cause firing a few
 * times more often than its baseline rate. @default 2_000
 */
export const DEFAULT_CAMPAIGN_RUNS = 2_000;

/**
 * Runs of the baseline campaign (same seed): five times the default campaign, so that the causes
 * a campaign of another seed meets are known, and each cause's rate is measured on many runs.
 * @default 10_000
 */
export const DEFAULT_BASELINE_RUNS = 10_000;

/** Runs per property of the property suite: a CI budget; `MCP_SIM_RUNS` raises it for nightly runs. @default 150 */
export const DEFAULT_PROPERTY_RUNS = 150;

/** Most caller actions (calls, aborts, closes, reconnects) per generated scenario. @default 6 */
export const DEFAULT_ACTIONS_MAX = 6;

/** Most steps per generated handler script. @default 4 */
export const DEFAULT_STEPS_MAX = 4;

/** Generate server-initiated requests (sampling, elicitation, roots) besides tool calls. @default true */
export const DEFAULT_SERVER_REQUESTS = true;

/** Generate connection closes and reconnects. @default true */
export const DEFAULT_FAULTS = true;

/**
 * Profiles a campaign, a replay by seed, a baseline build and the property suite draw from:
 * every profile of the session era, so one run of `check` meets the races of both transports
 * (`http-2026` is opt-in: `--spec 2026-07-28` or `--profiles http-2026`, on the 2.x packages).
 * @default ['memory', 'http']
 */
export const DEFAULT_PROFILES: readonly Profile[] = Object.freeze(['memory', 'http'] as const);

/**
 * Profiles the bare generator (`scenarioArbitrary({})`) draws from when its caller names none:
 * only `memory`, so a unit test of the simulator needs no HTTP stack. Runs of the CLI and the
 * property suite always resolve `DEFAULT_PROFILES` instead.
 * @default ['memory']
 */
export const DEFAULT_GENERATOR_PROFILES: readonly Profile[] = Object.freeze(['memory'] as const);

/** Longest generated schedule tape. @default 48 */
export const DEFAULT_TAPE_LENGTH_MAX = 48;

/** Largest generated tape choice; choices wrap modulo the number of enabled actions. @default 7 */
export const DEFAULT_TAPE_CHOICE_MAX = 7;

/** Shrink the first counterexample of each invariant a campaign finds. @default true */
export const DEFAULT_SHRINK = true;

/** Wall-clock budget for fast-check's shrinking of one campaign counterexample. @default 20_000 */
export const DEFAULT_SHRINK_TIME_MS_MAX = 20_000;

/**
 * Wall-clock budget for shrinking one baseline counterexample: longer than a campaign's, since
 * a baseline entry is written once and kept. @default 30_000
 */
export const DEFAULT_BASELINE_SHRINK_TIME_MS_MAX = 30_000;

/** Wall-clock budget of one property (fast-check's `interruptAfterTimeLimit`). @default 120_000 */
export const DEFAULT_PROPERTY_TIME_MS_MAX = 120_000;

/**
 * Fail a campaign on a new cause of a known invariant also outside the baseline's own campaign
 * (another seed, more runs, another workload), where the baseline never ran the case and an
 * unseen cause of a known SDK bug is likelier than a regression. Inside it a new cause always
 * fails. @default false
 */
export const DEFAULT_STRICT_CAUSES = false;

/** Run every case twice and compare trace hashes (`harness.deterministic`). @default false */
export const DEFAULT_SELF_CHECK = false;

/** `replay` prints the whole trace, sends included, rather than the scheduler's choices and their effects. @default false */
export const DEFAULT_REPLAY_FULL = false;

/** `replay` prints a Mermaid sequence diagram. @default false */
export const DEFAULT_REPLAY_MERMAID = false;

/** `baseline` writes its file (otherwise a dry run that prints what it found). @default false */
export const DEFAULT_BASELINE_UPDATE = false;

/** `baseline` only prints the existing file as a Markdown table. @default false */
export const DEFAULT_BASELINE_TABLE = false;

/** Folder `check` writes the replay files of its counterexamples to. @default '.mcp-sim/repro' */
export const DEFAULT_REPRO_DIR = '.mcp-sim/repro';

/** Folder `matrix` writes each cell's minimal counterexample to, a subfolder per release. @default '.mcp-sim/matrix' */
export const DEFAULT_MATRIX_DIR = '.mcp-sim/matrix';

/** Folder `bisect` writes the first bad release's counterexample to (and the same case for the release before). @default '.mcp-sim/bisect' */
export const DEFAULT_BISECT_DIR = '.mcp-sim/bisect';

/** Runs per release of `matrix` and of each release `bisect` probes. @default 500 */
export const DEFAULT_MATRIX_RUNS = 500;

/** Environment variable that overrides the runs of `check` and of each property. */
export const ENV_RUNS = 'MCP_SIM_RUNS';

/** Environment variable that overrides the seed of `check` and of the property suite. */
export const ENV_SEED = 'MCP_SIM_SEED';

/**
 * Largest seed: case seeds mix the campaign seed as a 32-bit integer (`caseSeed`), so two seeds
 * that differ above bit 31 would run the same campaign. @default 0xffff_ffff
 */
export const SEED_MAX = 0xffff_ffff;

/**
 * Worker threads of a campaign when none is asked for: one per core
 * (`os.availableParallelism()`), but at most one per `AUTO_WORKER_RUNS_MIN` runs, so that a
 * short campaign (such as the default 2,000 runs) stays in process rather than pay for starting
 * workers. `--workers N` is taken as given; `--workers 1` runs in process.
 * @default 'cores'
 */
export const DEFAULT_WORKERS = 'cores' as const;

/**
 * Fewest runs per worker thread that a campaign starts on its own (`DEFAULT_WORKERS`). A worker
 * pays about half a second to load the harness and the SDK, then warms its own JIT; measured on
 * a 2-vCPU machine, 2 workers were slower than 1 up to a few thousand runs (3,000: 0.7×) and
 * 1.15× faster at 20,000, so only long campaigns split on their own. @default 5_000
 */
export const AUTO_WORKER_RUNS_MIN = 5_000;

/** Most worker threads a campaign may ask for. @default 256 */
export const WORKERS_MAX = 256;

/** Wall-clock budget of a campaign's runs, in seconds: none, every run is done. @default undefined */
export const DEFAULT_TIME_LIMIT_SECONDS: number | undefined = undefined;

/** Longest time limit (`--time-limit`): a week, in seconds. @default 604_800 */
export const TIME_LIMIT_SECONDS_MAX = 604_800;

/** Most seeds one `check --seeds A..B` sweep may run. @default 1_000 */
export const SEEDS_SWEEP_MAX = 1_000;

/**
 * The lowest severity of a finding beyond the baseline that fails `check`: `must` fails on
 * violations (MUST and DERIVED) only, `should` on warnings (SHOULD) too, `advice` on notes
 * (ADVICE) too. Findings that judge a scripted handler's own conduct never fail it.
 * @default 'should'
 */
export const DEFAULT_FAIL_ON = 'should' as const;

/** The levels `--fail-on` takes, strictest last. */
export const FAIL_ON_LEVELS = ['must', 'should', 'advice'] as const;

/**
 * The spec revision whose rules judge a run (`--spec`): the session era every SDK speaks. The
 * opt-in `2026-07-28` needs the 2.x packages and runs the `http-2026` profile.
 * @default '2025-11-25'
 */
export const DEFAULT_SPEC: SpecRevision = '2025-11-25';

/** The one profile a `--spec 2026-07-28` campaign runs: the per-request Streamable HTTP of that revision. */
export const SPEC_2026_PROFILES: readonly Profile[] = Object.freeze(['http-2026'] as const);

/** `explore`: most runs (judged or sleep-blocked) before the enumeration stops and says what it left out. */
export const DEFAULT_EXPLORE_RUNS_MAX = 20_000;

/** `explore`: the depth bound, in scheduler steps per run; a run that reaches it is cut there and reported. */
export const DEFAULT_EXPLORE_DEPTH_MAX = 200;

/** `explore`: dynamic partial-order reduction is on unless `--no-reduction` asks for every schedule. */
export const DEFAULT_EXPLORE_REDUCE = true;

/** Runs of `mcp-sim fuzz` and `fuzzServer()`: a few seconds on the examples, enough to flag each pitfall example. @default 500 */
export const DEFAULT_FUZZ_RUNS = 500;

/** Most tool calls per generated fuzz run (they run concurrently, same tool or not). @default 3 */
export const DEFAULT_FUZZ_CALLS_MAX = 3;

/**
 * Wall-clock budget for shrinking one fuzz finding, in ms: a safety valve against slow servers.
 * Checked between runs, never by cutting one short. When it binds, the counterexample says so
 * (`cutShort: 'time'`): the only input of a report that depends on the machine. @default 5_000
 */
export const DEFAULT_FUZZ_SHRINK_MS_MAX = 5_000;

/**
 * Scheduler steps, summed over its runs, that shrinking one fuzz finding may take (fast-check's
 * shrinking, then the greedy pass): the budget that normally binds, counted in simulated work,
 * so the same command gives the same minimal case on every machine. About 1,000 runs of a
 * typical tool, 20 of a server whose every run meets the step budget. @default 20_000
 */
export const DEFAULT_FUZZ_SHRINK_STEPS_MAX = 20_000;

/**
 * Step budget of one fuzz run: generated runs take tens of steps; a handler whose work never ends
 * meets this bound instead of the simulator's 5,000 and is reported (`liveness.quiescent`) sooner. @default 1_000
 */
export const DEFAULT_FUZZ_MAX_STEPS = 1_000;

/** Virtual-time budget of one fuzz run: ten times the SDK's default request timeout. @default 600_000 */
export const DEFAULT_FUZZ_MAX_VIRTUAL_MS = 600_000;

/** `mcp-sim fuzz --fail-on`: every pitfall is the author's to fix, notes included. @default 'advice' */
export const DEFAULT_FUZZ_FAIL_ON = 'advice' as const;

/**
 * Process and URL targets (`fuzz --stdio`, `fuzz --url`, `fuzzProcess()`): the grace period of
 * each shutdown step of a server process. A stdio server gets stdin EOF and this long to exit (or
 * `lifecycle.stdio-exit`), then SIGTERM to its process group and this long again, then SIGKILL.
 * Three seconds: a Python server on a loaded 2-core machine took over two to exit. @default 3_000
 */
export const DEFAULT_PROCESS_GRACE_MS = 3_000;

/** How long a started server has to answer `initialize` before it is a bad target (exit 2). @default 20_000 */
export const DEFAULT_PROCESS_START_MS = 20_000;

/**
 * `--hang-after`: the bound, in real ms, after which a call that is neither answered nor
 * cancelled (`liveness.call-settles`) or a POST that never ends (`http.exchange-completes`) is a
 * finding. Ten times the slowest `work` call of the test beds (8 steps of 40 ms). @default 3_000
 */
export const DEFAULT_HANG_AFTER_MS = 3_000;

/**
 * The in-flight bound, in real ms: a frame the server wrote within this time after a cancel was
 * written may have crossed the cancel on the wire (not a finding); one written later was sent
 * after the server had the cancel. @default 150
 */
export const DEFAULT_IN_FLIGHT_MS = 150;

/**
 * Runs of a process or URL fuzz campaign: one server process per run, so a Python stdio server
 * (about 0.6 s to start and initialize) ends in about a minute on 2 cores. @default 60
 */
export const DEFAULT_PROCESS_RUNS = 60;

/** How many times a finding's minimal case is run again to measure its reproduction rate. @default 10 */
export const DEFAULT_RATE_RUNS = 10;

/**
 * Generated cases of an SDK client's campaign (`check client:<language>`): each runs a fresh
 * client process against a fresh scripted server in real time, up to about 4 s, so the campaign
 * takes two minutes or so over one transport and finds what the fixed scenarios find and more
 * (docs/sdk-clients.md). @default 24
 */
export const DEFAULT_CLIENT_RUNS = 24;

/** The real-time budget of shrinking one cause of a generated client case: a minute (a campaign's causes share its one client at a time). @default 60000 */
export const DEFAULT_CLIENT_SHRINK_MS_MAX = 60_000;

/** Re-runs of an SDK client's finding for its rate: a scenario has no schedule to vary, and a first check of a release finds tens of them. @default 3 */
export const DEFAULT_CLIENT_RATE_RUNS = 3;

/** Shrinking in real time: a candidate is kept when it fails in any of this many tries. @default 3 */
export const DEFAULT_SHRINK_TRIES = 3;

/** Real-time budget of shrinking one black-box finding, in ms (each candidate is a server process or more). @default 30_000 */
export const DEFAULT_PROCESS_SHRINK_MS_MAX = 30_000;

/**
 * Process and URL targets share connections by default: many cases at once on one process (stdio)
 * or session (HTTP), each on its own request ids and progress tokens and judged on its own slice
 * of the trace; every finding a shared connection shows is confirmed on a fresh process before it
 * fails the run. `--fresh` runs one process (or session) per case instead. @default true
 */
export const DEFAULT_SHARED = true;

/**
 * Slow is not stuck: a call nobody cancelled is left as stuck only when it was silent (no
 * progress, no answer) for this many times the longest its tool has shown it takes (calls of it
 * that were answered, the progress of calls the client stopped waiting for, a call of it still
 * working ahead of it on its connection, `--tool-duration`), and never before `--hang-after`.
 * @default 2
 */
export const SLOW_FACTOR = 2;

/**
 * Cases in flight on one shared connection when it opens; the campaign then widens or narrows the
 * allowance by the server's answer times (`CASES_AT_ONCE_MAX` at most). @default 4
 */
export const CASES_AT_ONCE_START = 4;

/** Most cases in flight on one shared connection. @default 32 */
export const CASES_AT_ONCE_MAX = 32;

/**
 * The in-flight bound of a cancel is this many times the slowest ping round trip the server showed
 * under load (its 95th percentile), and never under `DEFAULT_IN_FLIGHT_MS`: a loaded server gets
 * the allowance its own answer times ask for. A frame the server wrote before it read the cancel
 * can trail the cancel's acknowledgement by at most one delivery, which a round trip (two
 * deliveries and the server's turn) already bounds; 3 is that with room to spare. At 10 the bound
 * grew to 350–770 ms on 2 loaded cores, longer than the work of most cancelled calls, and the
 * full fuzz:languages pass missed `progress.after-cancel` over HTTP on five cancel examples
 * (Python, Rust, Java) that 3 finds (5/5). @default 3
 */
export const IN_FLIGHT_PER_ROUND_TRIP = 3;

/**
 * A shared connection narrows its cases in flight when a ping takes longer than this share of the
 * in-flight bound (the server or the machine is saturated, and frames would cross the bound), and
 * widens it when pings stay under a quarter of it. @default 0.5
 */
export const SATURATED_SHARE = 0.5;

/**
 * Rate re-runs stop as soon as the rate is decided: every one of the first this many reproduced
 * ("reproduced 5/5, stopped early"), or it both reproduced and did not ("2/4: timing-dependent,
 * stopped early"); a case that never reproduces is run the full `--rate-runs`. @default 5
 */
export const RATE_DECIDED_RUNS = 5;

/**
 * Spare server processes (or sessions) started ahead of need, so that a fresh run does not wait
 * for one to start: per parallel slot. @default 1
 */
export const WARM_SPARES = 1;

/**
 * A case waits, once its calls are done, until its own frames were quiet for this many times the
 * longest progress interval its tools showed (never under twice the in-flight bound, never over
 * `--hang-after`): what comes after a cancel of a tool that reports every second is seen. @default 2
 */
export const QUIET_PER_PROGRESS_GAP = 2;

/**
 * `--max-frame-bytes`: the largest frame mcp-sim reads from a server (a stdio line, an SSE
 * event, a JSON body). A larger one is not buffered: its first bytes are kept for the report,
 * the rest is read and thrown away (stdio, up to its newline) or its stream is dropped (HTTP),
 * and it is a finding (`rpc.frame-size`). 16 MiB: far above any tool result a client shows, far
 * below what would make mcp-sim a memory sink. @default 16_777_216
 */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * `--max-notifications`: the most frames mcp-sim records of one stream of a server's messages on
 * one connection: one call's progress (by its token) in all, one method's other notifications or
 * requests a minute. Past it they are counted in one trace event, not recorded one by one, and
 * the flood is a finding (`progress.rate-limited`, `rpc.rate-limited`). A thousand: a progress bar
 * moved once a tenth of a second for over a minute and a half; and what bounds mcp-sim's memory,
 * since a campaign keeps every run's trace (each call in flight may hold this many frames).
 * @default 1_000
 */
export const DEFAULT_MAX_NOTIFICATIONS = 1_000;

/**
 * `--max-notification-rate`: the most frames of one such stream per second, sustained (a bucket
 * of a tenth of a second of it, refilled this many a second: a burst of that many at once is fine). Past it,
 * as past `--max-notifications`: counted, and a finding. The spec's "both parties SHOULD
 * implement rate limiting to prevent flooding" (progress) and "servers SHOULD rate limit log
 * messages" (logging), read with a stated bound: a thousand a second, a hundred at once. @default 1_000
 */
export const DEFAULT_MAX_NOTIFICATION_RATE = 1_000;

/**
 * The most of a server's stderr one connection keeps in the trace (stderr is the author's, shown
 * beside a finding, never judged beyond a crash's stack trace): past it, one line says how much
 * more there was. @default 1_048_576
 */
export const DEFAULT_STDERR_BYTES_KEPT = 1024 * 1024;
