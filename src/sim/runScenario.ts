import { defaultSdk } from '../sdk/load.ts';
import type { SdkFacts } from '../sdk/facts.ts';
import type { SdkAdapter } from '../sdk/SdkAdapter.ts';
import { describeError } from '../util/errors.ts';
import { describeAction } from './actions.ts';
import { footprintOf, type Footprint } from './footprint.ts';
import { DEFAULT_MAX_STEPS, DEFAULT_MAX_VIRTUAL_MS, DEFAULT_SEED } from './defaults.ts';
import { quiesce } from './realGlobals.ts';
import type { Scenario } from './scenario.ts';
import { Tape } from './tape.ts';
import { traceHash, type RunOutcome, type TraceEvent } from './trace.ts';
import { validateScenario, validateTape, ScenarioError } from './validate.ts';
import { withTrace } from './withSandbox.ts';
import { World } from './World.ts';
import { HostedRun, type ServerSource } from './hosted/hostedServer.ts';

export interface RunOptions {
  /** Scheduler choices; past its end the natural choice is taken. @default [] */
  readonly tape?: readonly number[];
  /** Seed of `Math.random` and `crypto.randomUUID` during the run. @default 0 */
  readonly seed?: number;
  /** @default DEFAULT_MAX_STEPS */
  readonly maxSteps?: number;
  /** @default DEFAULT_MAX_VIRTUAL_MS */
  readonly maxVirtualMs?: number;
  /**
   * Called at the end of the run, inside the sandbox and before teardown, with the world still
   * in its final state: where the oracle probes correlation maps and timers.
   */
  readonly atEnd?: (world: World) => void;
  /** The SDK release under test. @default the one installed next to mcp-sim (`defaultSdk()`) */
  readonly sdk?: SdkAdapter;
  /**
   * A scheduler that replaces the tape (`mcp-sim explore`): given each enabled action's
   * footprint, in natural order, it returns the index to take, or throws to stop the run. The
   * indices it took are `taken`, so the tape replays the run. @default the tape's choices
   */
  readonly choose?: (enabled: readonly Footprint[]) => number;
  /**
   * A user's server for a scenario with `server: 'hosted'`: built afresh inside the run, behind a
   * virtual network and an I/O guard. `sdk` must be the release it is built on.
   */
  readonly server?: ServerSource;
  /**
   * Told at the end of each step (step 0: setup) what the scheduler chose among which enabled
   * actions, with the world in its state after the step (the HTML viewer reads the SDK's maps
   * there). It only reads: the trace, and so the run's hash, is the same with or without it.
   * The enabled list is not in the trace (its `action` events carry the count) to keep traces small.
   */
  readonly observe?: (step: StepObservation) => void;
}

/** What `RunOptions.observe` is told after each step. */
export interface StepObservation {
  readonly step: number;
  /** The choice, as an index into `enabled` (-1 at step 0). */
  readonly choice: number;
  /** Every action enabled when the choice was made, by meaning, in natural order (empty at step 0). */
  readonly enabled: readonly string[];
  readonly world: World;
}

export interface RunResult {
  readonly trace: readonly TraceEvent[];
  /** SHA-256 of the trace's JSON, first 16 hex digits; computed on first read. */
  readonly hash: string;
  readonly outcome: RunOutcome;
  readonly steps: number;
  readonly virtualMs: number;
  /** Index chosen at each step: replaying this tape gives the same run. */
  readonly taken: readonly number[];
  /** Every caller action of the workload ran. */
  readonly workloadDone: boolean;
  /** The SDK release the run drove, and what the oracle must know of it. */
  readonly sdk: { readonly name: string; readonly version: string; readonly facts: SdkFacts };
}

/**
 * Runs one scenario under one schedule tape against the real SDK, in virtual time, and returns
 * its trace. A pure function of (scenario, tape, seed, SDK build): same inputs, same hash.
 */
export async function runScenario(scenario: Scenario, options: RunOptions = {}): Promise<RunResult> {
  validateScenario(scenario);
  const tapeChoices = options.tape ?? [];
  validateTape(tapeChoices);
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const maxVirtualMs = options.maxVirtualMs ?? DEFAULT_MAX_VIRTUAL_MS;
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) throw new ScenarioError('options.maxSteps', `must be an integer ≥ 1, got ${maxSteps}`);
  if (!(maxVirtualMs >= 0)) throw new ScenarioError('options.maxVirtualMs', `must be ≥ 0, got ${maxVirtualMs}`);

  if ((scenario.server === 'hosted') !== (options.server !== undefined)) {
    throw new ScenarioError('scenario.server', scenario.server === 'hosted' ? "is 'hosted': pass the user's server as options.server" : "must be 'hosted' when options.server is given");
  }
  const sdk = options.sdk ?? (await defaultSdk());
  const tape = new Tape(tapeChoices);
  let world: World | undefined;
  let hosted: HostedRun | undefined;
  let outcome: RunOutcome = { kind: 'quiescent' };
  const trace = await withTrace(
    options.seed ?? DEFAULT_SEED,
    async (trace, sandbox) => {
      if (options.server) {
        hosted = new HostedRun(sdk, (e) => trace.record(e), () => world?.currentConn ?? 1);
        hosted.enter(scenario.network);
        const server = await options.server.create();
        world = new World(scenario, trace, sandbox.clock, sdk, { server, run: hosted });
      } else {
        world = new World(scenario, trace, sandbox.clock, sdk);
      }
      world.start();
      await quiesce();
      options.observe?.({ step: 0, choice: -1, enabled: [], world });
      for (;;) {
        const enabled = world.enabledActions();
        // The next timer, if any, is the one last action (`World.enabledActions`); past the budget it is not enabled.
        const last = enabled[enabled.length - 1];
        if (last?.kind === 'timer' && last.timer.atMs > maxVirtualMs) enabled.pop();
        if (enabled.length === 0) {
          if (sandbox.clock.nextTimer()) outcome = { kind: 'time-budget', virtualMs: maxVirtualMs };
          break;
        }
        if (trace.step >= maxSteps) {
          outcome = { kind: 'step-budget', steps: maxSteps };
          break;
        }
        const choice = options.choose ? tape.take(chosen(options.choose(enabled.map((a) => footprintOf(a, world!))), enabled.length)) : tape.next(enabled.length);
        const action = enabled[choice]!;
        const described = options.observe && enabled.map(describeAction);
        trace.step++;
        trace.record({ kind: 'action', action: described?.[choice] ?? describeAction(action), choice, enabled: enabled.length });
        try {
          world.perform(action);
        } catch (error) {
          trace.record({ kind: 'escape', source: 'action', error: describeError(error) });
        }
        await quiesce();
        if (described) options.observe!({ step: trace.step, choice, enabled: described, world });
      }
      trace.record({ kind: 'end', outcome: outcome.kind });
      options.atEnd?.(world);
      return trace;
    },
    () => {
      world?.teardown();
      hosted?.exit();
    },
  );
  let hash: string | undefined;
  return {
    trace: trace.events,
    // Hashing costs about a tenth of a short run; campaigns that never compare hashes skip it.
    get hash() {
      return (hash ??= traceHash(trace.events));
    },
    outcome,
    steps: trace.step,
    virtualMs: trace.events.at(-1)?.t ?? 0,
    taken: tape.taken,
    workloadDone: world!.workloadDone,
    sdk: { name: sdk.name, version: sdk.version, facts: sdk.facts },
  };
}

/** A `choose` answer, refused unless it is the index of an enabled action. */
function chosen(index: number, enabled: number): number {
  if (Number.isSafeInteger(index) && index >= 0 && index < enabled) return index;
  throw new ScenarioError('options.choose', `must return the index of an enabled action (0 to ${enabled - 1}), got ${index}`);
}
