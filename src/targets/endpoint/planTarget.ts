import fc from 'fast-check';
import { DEFAULT_PROCESS_START_MS } from '../../options/defaults.ts';
import type { Endpoint } from '../../real/connection.ts';
import { describePlan, withoutCancels, type Plan } from '../../real/plan.ts';
import { openConnection, type OpenConnection } from '../../real/openConnection.ts';
import { fixedPace, runPlan, type RealtimeRun } from '../../real/runPlan.ts';
import { planArbitrary } from '../../workload/planArbitrary.ts';
import { planShape } from '../../workload/planShape.ts';
import { planShrinks, type DeclaredArguments } from '../../workload/planShrinks.ts';
import { declaredArguments, planTools, type FixedArguments } from '../../workload/toolArguments.ts';
import { BadTargetError } from '../../real/connection.ts';
import { httpVariantOf } from './httpVariant.ts';
import type { RealJudging, RealPreparation, RealTarget, TargetDescription, Visibility } from '../Target.ts';

/** A user's server: the server is under test, the SDK beneath the author's code is not. */
export const USER_SERVER_JUDGING: RealJudging = { underTest: 'server', sdk: 'beneath' };

/** What a server's tools are called with: only some tools (`--tools`), fixed argument sets (`--args`). */
export interface ToolChoice {
  readonly tools?: readonly string[];
  readonly args?: FixedArguments;
  /** Some calls reuse the id of a call in flight (`--duplicate-ids`). */
  readonly duplicateIds?: boolean;
}

/**
 * A real-time target whose cases are plans of client actions on connections to `endpoint`: a
 * stdio process or a URL. Before the campaign, one connection lists the server's tools and the
 * plans call those the arguments can be made for.
 */
export function planTarget(
  endpoint: Endpoint,
  parts: { readonly kind: 'process' | 'url'; readonly describe: (server?: RealPreparation['server']) => TargetDescription; readonly sees: Visibility; readonly variant: string; readonly choice: ToolChoice },
): RealTarget<Plan> {
  let arbitrary: fc.Arbitrary<Plan> | undefined;
  let server: RealPreparation['server'];
  let declared: DeclaredArguments = new Map();
  let open: OpenConnection | undefined;
  const fixed = new Set(Object.keys(parts.choice.args ?? {}));
  /** The tools the server listed that the plans can call (`--tools`, arguments from their schemas or `--args`). */
  const fuzzableOf = (discovery: RealtimeRun, startupMs: number): RealPreparation => {
    const named = parts.choice.tools;
    const listed = discovery.tools.filter((t) => !named || named.includes(t.name));
    if (listed.length === 0) {
      throw new BadTargetError('no-tools', `mcp-sim: ${endpoint.label} lists ${discovery.tools.length === 0 ? 'no tools' : `no tool named ${named!.join(', ')} (it lists ${discovery.tools.map((t) => t.name).join(', ')})`}: nothing to call.`);
    }
    const { fuzzable, skipped } = planTools(listed, parts.choice.args);
    declared = new Map(listed.map((t) => [t.name, declaredArguments(t.inputSchema)]));
    if (fuzzable.length === 0) throw new BadTargetError('no-tools', `mcp-sim: no tool of ${endpoint.label} can be called with generated arguments: ${skipped.map((s) => `${s.name}: ${s.reason}`).join('; ')}.`);
    arbitrary = planArbitrary({ tools: fuzzable, http: parts.kind === 'url', duplicateIds: parts.choice.duplicateIds === true });
    return { tools: fuzzable.map((t) => t.name), skipped, ...(server && { server }), startupMs };
  };
  return {
    kind: parts.kind,
    clock: 'real',
    endpoint,
    judging: USER_SERVER_JUDGING,
    sees: parts.sees,
    describe: () => parts.describe(server),
    async prepare() {
      // The connection that lists the tools stays open: the campaign's first (start-up paid once).
      open = await openConnection(endpoint, { shared: true }, DEFAULT_PROCESS_START_MS);
      const { conn, inbox, recorder, t0, hello, startupMs } = open;
      server = { info: hello.serverInfo, protocolVersion: hello.protocolVersion };
      try {
        return fuzzableOf(await runPlan(undefined, { calls: [], serverRequests: 'answer' }, { tailMs: 0, reuse: { conn, inbox, recorder, t0, hello, startupMs, firstId: 1 } }), startupMs);
      } catch (error) {
        open = undefined;
        await conn.close().catch(() => undefined);
        await endpoint.release?.();
        throw error;
      }
    },
    takeOpen() {
      const given = open;
      open = undefined;
      return given;
    },
    cases(seed, runs) {
      if (!arbitrary) throw new Error('planTarget: cases() before prepare()');
      return runs === 0 ? [] : fc.sample(arbitrary, { seed, numRuns: runs });
    },
    run: (plan, bounds) => runPlan(endpoint, plan, { hangAfterMs: bounds.hangAfterMs, tailMs: 2 * bounds.inFlightMs, ...(bounds.toolSilenceMs && { pace: fixedPace(bounds.toolSilenceMs) }) }),
    withoutCancels,
    shrinks: (plan) => planShrinks(plan, { fixed, declared }),
    // A URL's variant as its run showed it (http/<stateful|stateless>/<sse|json>); a process is stdio.
    causeOf: (plan, trace) => ({ variant: trace && parts.kind === 'url' ? httpVariantOf(trace) : parts.variant, shape: planShape(plan) }),
    describeCase: describePlan,
  };
}
