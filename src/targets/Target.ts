import type { InvariantId } from '../model/invariants.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { HandlerProgram } from '../sim/scenario.ts';
import type { SdkFacts } from '../sdk/facts.ts';
import type { Endpoint } from '../real/connection.ts';
import type { CommandSpec } from '../real/startProcess.ts';
import type { WireBounds } from '../real/wireBounds.ts';
import type { OpenConnection } from '../real/openConnection.ts';
import type { JsonValue } from '../util/json.ts';
import type { ServerLanguage } from './serverLanguage.ts';

/**
 * The seam between mcp-sim and what it tests. Every kind of target lives in its own folder of
 * src/targets/ and is described by a `TargetKindDefinition` (its `kind.ts`): how `check TARGET`
 * names it, which flags apply to it, what it can see, and how it is opened. The campaign, the
 * oracle, the replay file and the reports are the same for every kind; a kind brings none of its
 * own. A new kind is a new folder with a `kind.ts`: the registry (`kinds.ts`) finds it there.
 */

/**
 * Every kind of target by its name, and its spec: the target as data, what `check TARGET` names
 * and what a replay file and a report store to open it again (plain JSON, written and read back).
 * A new kind adds its own entry from its own folder, by declaration merging:
 *
 * ```ts
 * declare module '../Target.ts' {
 *   interface TargetSpecs { container: { readonly kind: 'container'; readonly image: string } }
 * }
 * ```
 */
export interface TargetSpecs {
  /** An SDK release in process. `release`: a version or a folder; absent: the installed SDK. */
  sdk: { readonly kind: 'sdk'; readonly release?: string };
  /** A user's TypeScript server module in process; `config` is its factory's (`--config`). */
  module: { readonly kind: 'module'; readonly module: string; readonly config?: { readonly [key: string]: JsonValue } };
  /** A stdio server process: the command (a shell line, or argv words), its folder and environment. */
  process: { readonly kind: 'process' } & CommandSpec;
  /** A Streamable HTTP endpoint, already running or started by `start` (`{port}` filled in both). */
  url: { readonly kind: 'url'; readonly url: string; readonly start?: CommandSpec };
  /**
   * An SDK's test-bed server (testbeds/<language>/); `release` absent: the bed's default;
   * `transport` absent: stdio; `layer` (`low` or `high`) absent: every layer the release offers.
   */
  testbed: { readonly kind: 'testbed'; readonly language: string; readonly release?: string; readonly transport?: string; readonly layer?: string };
  /** An SDK's test-bed client, mcp-sim being the server; `transport` absent: every one the client offers. */
  client: { readonly kind: 'client'; readonly language: string; readonly release?: string; readonly transport?: string };
}

/** The kinds of target (six built in: sdk, module, process, url, testbed, client). */
export type TargetKind = keyof TargetSpecs & string;

/**
 * Virtual: mcp-sim schedules everything in one process (fake timers, a schedule tape); a case
 * replays byte for byte. Real: a process or a URL runs on its own clock; a finding carries its
 * reproduction rate, never "deterministic".
 */
export type Clock = 'virtual' | 'real';

/** A target as data, of any kind. */
export type TargetSpec = TargetSpecs[TargetKind];

/** The spec of one kind. */
export type SpecOf<K extends TargetKind> = TargetSpecs[K];

/**
 * What a target can see, and what it cannot: the report prints both, so that "clean" is never
 * read as more than was judged. `notJudged` names the invariants a run on it cannot show, and why.
 */
export interface Visibility {
  readonly sees: readonly string[];
  readonly cannotSee: readonly string[];
  readonly notJudged: readonly { readonly invariants: readonly InvariantId[] | 'family'; readonly family?: string; readonly why: string }[];
}

/** How a target names itself once opened: in reports, in replay files, in printed commands. */
export interface TargetDescription {
  readonly kind: TargetKind;
  readonly clock: Clock;
  /** A line a person reads: `the installed @modelcontextprotocol/sdk@1.32.2`, `python server.py (stdio)`. */
  readonly label: string;
  /** The words `mcp-sim check` takes to name it again: `['sdk@1.26.0']`, `['--', 'python', 'server.py']`. */
  readonly argument: readonly string[];
  /** The target as data (`TargetSpec`), with what opening it resolved (the release actually loaded). */
  readonly spec: TargetSpec;
  /** The software under test, where known: an SDK release, or the server's `serverInfo`. */
  readonly system?: { readonly name: string; readonly version: string };
  /** On the real clock, what one run opens, in words (`process`, `session`): a report says `one process per run`. */
  readonly runsOn?: string;
  /** The language the server under test is written in, where the command or the target tells (advice speaks it). */
  readonly language?: ServerLanguage;
  /** Whose code is under test (the kind's `author`): a user's server gets advice in its language, an SDK's test bed its findings. */
  readonly author?: 'user' | 'sdk';
}

/**
 * One kind of target, as the front door and the registry know it: the light part, loaded for
 * every command (`--help` lists the argument forms). Opening a target loads its heavy parts.
 */
export interface TargetKindDefinition<K extends TargetKind = TargetKind> {
  readonly kind: K;
  readonly clock: Clock;
  /**
   * Whose code is under test: a server an author wrote (`user`: every pitfall fails it by default,
   * `--fail-on advice`, and what the SDK beneath it does is listed apart), or an SDK's own (`sdk`:
   * it fails from `should` up).
   */
  readonly author: 'user' | 'sdk';
  /** The argument forms, one line each, for `check --help`. */
  readonly forms: readonly string[];
  /**
   * The spec `argument` names, when it is this kind's form: `command` holds the words after `--`
   * (absent without them), `flags` the flags that say more of the target (`--start`, `--cwd`,
   * `--env`, `--transport`, `--config`). Undefined: not this kind's. A form of this kind with a
   * mistake in it throws `TargetArgumentError` (one line: what is wrong and the fix).
   */
  parse(argument: string | undefined, command: readonly string[] | undefined, flags: TargetFlags): SpecOf<K> | undefined;
  /** The words that name `spec` on the command line (`parse` of them gives `spec` back). */
  argumentOf(spec: SpecOf<K>): string[];
  /**
   * The flags of `check` that apply to this kind, by name (`--runs`, `--transport`, …). Every other
   * flag is refused for it, with `refusal` saying why in one line.
   */
  readonly flags: ReadonlySet<string>;
  /** Why a flag this kind does not take is refused, in one line (`the in-process campaign draws its own schedules`). */
  refusal(flag: string): string;
  /**
   * Why flags this kind takes are refused together, in one line, when they are (an SDK's client:
   * `--seed` draws generated cases, which `--scenario` replaces by fixed ones); undefined when
   * `given` (the flags typed, by name) go together.
   */
  clash?(given: readonly string[]): string | undefined;
  /** A real-time kind: opens the target for the one campaign (loads its heavy parts on demand). */
  openReal?(spec: SpecOf<K>, settings: RealOpenSettings): Promise<RealTarget>;
  /**
   * A real-time kind's own defaults where they are not the real clock's (`--runs`, `--parallel`,
   * `--rate-runs`), from the spec and the scenarios `--scenario` names: an SDK's client runs its
   * generated cases (or one pass over the fixed scenarios named), one at a time, and re-runs a
   * finding three times.
   */
  realDefaults?(spec: SpecOf<K>, scenarios: readonly string[] | undefined): { readonly runs?: number; readonly parallel?: number; readonly rateRuns?: number };
}

/**
 * How the one oracle reads a real-time target's runs (src/campaign/real/judgeCase.ts). The target
 * says what it is; the model judges it.
 */
export interface RealJudging {
  /** The side whose conduct the runs show: a server (mcp-sim is the client), or an SDK's client (mcp-sim is the server). */
  readonly underTest: 'server' | 'client';
  /**
   * Whose an SDK's way is: `beneath` for a user's server, where the SDK under the author's code
   * answers a cancelled request its own way (listed apart, never the author's finding); `under
   * test` for an SDK's own test bed or client, where it is the finding.
   */
  readonly sdk: 'beneath' | 'under test';
  /** What the walker must know of the side under test's SDK (how its caller words a timeout), when not mcp-sim's own client. */
  readonly facts?: SdkFacts;
}

/** What a case's script says of one handler: the program mcp-sim gave it, and what its run showed. */
export interface ScriptedHandler {
  /** The call's label (`c1`): findings name their request by it. */
  readonly label: string;
  readonly program: HandlerProgram;
  /** The client cancelled the call (or timed it out). */
  readonly cancelled: boolean;
}

/**
 * A case whose handlers run mcp-sim's own scripts (an SDK test bed's `run` tool): each call's
 * program, and the handlers still running when the client closed the connection.
 */
export interface CaseScript {
  readonly handler: (label: string) => ScriptedHandler | undefined;
  readonly openAtClose: readonly ScriptedHandler[];
  /** The run's `--hang-after`: a program that sleeps this long is slow by its script. */
  readonly hangAfterMs: number;
}

/** What opening a real-time target may need from the command line. */
export interface RealOpenSettings {
  /** The grace period of each shutdown step. */
  readonly graceMs: number;
  /** Only these tools (`--tools`). */
  readonly tools?: readonly string[];
  /** Fixed argument sets by tool (`--args`). */
  readonly args?: { readonly [tool: string]: readonly { readonly [key: string]: JsonValue }[] };
  /** Some calls reuse the id of a call in flight (`--duplicate-ids`). */
  readonly duplicateIds?: boolean;
  /** What a connection keeps of what the server sends (`--max-frame-bytes`, `--max-notifications`, `--max-notification-rate`). @default DEFAULT_WIRE_BOUNDS */
  readonly wire?: WireBounds;
  /** Only these scenarios (`--scenario`, an SDK's client). */
  readonly scenarios?: readonly string[];
  /** Where a target tells what it does before the campaign (an install). */
  readonly say?: (line: string) => void;
}

/** A known cause of a real-time target's baseline: an invariant, where it ran, the features of its minimal case. */
export interface KnownRealCause {
  readonly invariant: InvariantId;
  readonly variant: string;
  /** `shapeKey` of its minimal case: its features joined by `+`, or `plain`. */
  readonly shape: string;
}

/** A real-time target's baseline: its known causes, and how to write a new one from a campaign's confirmed findings. */
export interface RealBaseline {
  readonly known: readonly KnownRealCause[];
  /** A line saying how many are known and where they come from. */
  readonly summary: string;
  /** Writes the baseline of these confirmed findings (for the target's variant); returns the file written. */
  write(findings: readonly { readonly invariant: InvariantId; readonly message: string; readonly minimal: unknown; readonly rate: { readonly hits: number; readonly runs: number } }[], command: string): string;
}

/** The flags of `check` that say more of the target than its argument. */
export interface TargetFlags {
  readonly start?: string;
  readonly cwd?: string;
  readonly env?: readonly string[];
  readonly transport?: string;
  /** An SDK test bed's interpreter: `low`, `high` or `both`. */
  readonly layer?: string;
  readonly config?: string;
}

/** A TARGET argument with a mistake in it: one line for the user, exit 2. */
export class TargetArgumentError extends Error {
  override name = 'TargetArgumentError';
}

/** One run of a case on a real-time target: its trace, in the one trace format, with real ms. */
export interface RealRun {
  readonly trace: TraceEvent[];
  /** Spawn (or session open) to the end of the handshake; none when the case ran on an open connection. */
  readonly startupMs: number | undefined;
  /** Frames of an earlier case on a shared connection left out of this one's trace. */
  readonly lateFrames?: number;
  /** `performance.now()` at the trace's time 0 (its connection's open): every run of a campaign on one clock. */
  readonly t0?: number;
  /** On a shared connection: the cases in flight on it, this one included, when it started. */
  readonly atOnce?: number;
}

/** What a real-time target told of itself before the campaign: its tools, the server's hello. */
export interface RealPreparation {
  /** The tools the campaign calls, and those it cannot (with why). */
  readonly tools: readonly string[];
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
  /** The server's `serverInfo` and protocol revision, when a handshake told them. */
  readonly server?: { readonly info: JsonValue; readonly protocolVersion: string | undefined };
  readonly startupMs?: number;
}

/**
 * The bounds of a real-time run: stated in every report, parameters of the oracle. What a
 * connection keeps of what the server sends (`WireBounds`: the largest frame, the most
 * notifications of one stream and their rate) is `DEFAULT_WIRE_BOUNDS` where not given
 * (`wireBoundsOf`); a campaign's options always give it.
 */
export interface RealBounds extends Partial<WireBounds> {
  /** A call silent this long, or a POST that never ends, is left and judged (`--hang-after`). */
  readonly hangAfterMs: number;
  /** A frame written within this many ms of a cancel may have crossed it. */
  readonly inFlightMs: number;
  /** The grace period of each shutdown step (stdin EOF, SIGTERM). */
  readonly graceMs: number;
  /**
   * How long a silent call of each tool is waited for before it is stuck, ms: twice what the tool
   * has shown it takes, or is stated to take (`--tool-duration`); `--hang-after` at least (`silenceBoundMs`).
   */
  readonly toolSilenceMs?: Readonly<Record<string, number>>;
}

/**
 * A target on the real clock, as the one campaign drives it (src/campaign/real/). It names and
 * runs cases; it never judges them (the model does) and never loops over them (the campaign does).
 */
export interface RealTarget<Case = unknown> {
  readonly kind: TargetKind;
  readonly clock: 'real';
  describe(): TargetDescription;
  readonly sees: Visibility;
  /** Opens what the campaign needs first (tools listed, a run tool found, a test bed installed): throws `TargetArgumentError`-like one-liners. */
  prepare(): Promise<RealPreparation>;
  /**
   * The connection `prepare` opened and left open (it listed the tools): the campaign's first
   * shared connection, so start-up is paid once. Given once; the campaign closes it.
   */
  takeOpen?(): OpenConnection | undefined;
  /** Case `k` of `seed`, for k < runs: the same cases for the same seed and target. */
  cases(seed: number, runs: number): Case[];
  /** One run of `c` on a fresh process or session, recorded. */
  run(c: Case, bounds: RealBounds): Promise<RealRun>;
  /**
   * The endpoint its cases open connections to, when its cases are plans of client actions: such
   * a target can run many cases at once on one connection (shared, the default of a process or
   * URL), or each on a fresh one started ahead of need.
   */
  readonly endpoint?: Endpoint;
  /** The same case without its cancels, drops, timeouts and close: the counterfactual that tells how long each call takes. */
  withoutCancels?(c: Case): Case;
  /** Smaller cases than `c`, simplest first (a candidate that no longer fails is dropped). */
  shrinks(c: Case): Case[];
  /**
   * How it shrinks where its cases need other than the campaign's defaults: `tries`, runs of a
   * candidate before it counts as no longer failing (`DEFAULT_SHRINK_TRIES`); `msMax`, the
   * real-time budget of one cause (`DEFAULT_PROCESS_SHRINK_MS_MAX`); `candidates`, the most
   * candidates run for one cause (40). An SDK's client's generated cases keep 100 ms between what
   * the two sides do (one try is enough), have some 30 candidates a round, and run one at a time
   * (its causes share one client at a time, so each needs longer).
   */
  readonly shrinking?: { readonly tries?: number; readonly msMax?: number; readonly candidates?: number };
  /** How a finding of case `c` is told apart by cause: where it ran (variant) and what the case did (shape). */
  causeOf(c: Case, trace?: readonly TraceEvent[]): { readonly variant: string; readonly shape: ReadonlySet<string> };
  /** One line per action of `c`, for reports. */
  describeCase(c: Case): string[];
  /**
   * Most causes of one invariant the campaign tells apart before it counts the rest under the
   * last (each is shrunk and re-run for its rate). @default 3. An SDK's client: every scenario on
   * every transport, since they are fixed and its baseline must know each.
   */
  readonly causesPerInvariant?: number;
  /** How the oracle reads its runs: which side is under test, and whose an SDK's answer is. */
  readonly judging: RealJudging;
  /**
   * What the case's own script says of its handlers (an SDK test bed's programs), read from the
   * case and its observed run: a finding the script explains is the script's, reported apart.
   */
  script?(c: Case, observed: readonly TraceEvent[], bounds: RealBounds): CaseScript;
  /** Its known findings (an SDK release's test bed or client), when it has a baseline. */
  readonly baseline?: RealBaseline;
  /** What the target lacks or does differently, one sentence each (an SDK release's test bed). */
  readonly lacks?: readonly string[];
}
