import fc from 'fast-check';
import type { HandlerProgram } from '../../sim/scenario.ts';
import type { JsonValue } from '../../util/json.ts';
import { programArb, toolProgramOf } from '../../workload/index.ts';
import type { TimingPalette } from '../../workload/timingPalette.ts';
import type { Plan, PlannedCall } from '../../real/plan.ts';
import { planArbitrary } from '../../workload/planArbitrary.ts';
import type { TestbedLayer } from './languages.ts';
import { TESTBED_TOOL } from './programCall.ts';

/**
 * A test-bed case: the plan mcp-sim's client plays, and the layer whose interpreter serves it
 * (PROGRAM.md, "Layers"). A replay file keeps both.
 */
export type TestbedCase = Plan & { readonly layer: TestbedLayer };

/** The layer of a case; a case written before beds had layers (no `layer`) ran on the low one. */
export const layerOfCase = (c: Plan & { readonly layer?: TestbedLayer }): TestbedLayer => c.layer ?? 'low';

/**
 * The real ms a test-bed program's sleeps are drawn from (a palette, as the simulator's are).
 * Four of the longest plus four late server-request answers stay under the 3 s `--hang-after`
 * bound, so a program that ends is never taken for a call that hangs.
 */
export const TESTBED_PALETTE: TimingPalette = [5, 20, 60, 150, 400];

/** Most steps of a generated test-bed program (the simulator's default). */
const STEPS_MAX = 4;

/** The handler programs the simulator's scripted campaign draws, sleeps in real ms. */
export const testbedProgramArbitrary: fc.Arbitrary<HandlerProgram> = programArb('tools/call', STEPS_MAX).map((draft) => toolProgramOf(draft, TESTBED_PALETTE));

export interface TestbedCaseConstraints {
  /** The bed is reached over Streamable HTTP: POST streams are also dropped. @default false */
  readonly http?: boolean;
  /** Sometimes reuse the id of a call in flight. @default false */
  readonly duplicateIds?: boolean;
}

/**
 * Test-bed cases: the process campaign's plans (`planArbitrary`: concurrent calls, progress tokens
 * or none, cancels after the k-th progress or N ms after written, timeouts reset on progress or
 * not, server requests answered, late or errored, a close with calls in flight) whose every call
 * is `run {program, call}` with a generated program: the SDK runs mcp-sim's own script.
 */
export function testbedPlanArbitrary(constraints: TestbedCaseConstraints = {}): fc.Arbitrary<Plan> {
  return planArbitrary({
    tools: [{ name: TESTBED_TOOL, arguments: testbedProgramArbitrary.map((program) => ({ program: program as unknown as JsonValue })) }],
    http: constraints.http === true,
    duplicateIds: constraints.duplicateIds === true,
    closes: true,
    labelled: labelledCall,
  });
}

/** `call` names the call on the side channel (programCall.ts): a renumbered call carries its new label. */
export const labelledCall = (args: { readonly [key: string]: JsonValue }, label: string): { readonly [key: string]: JsonValue } => ({ ...args, call: label });

/** Case `k` of `seed`: always the same plan. */
export function testbedCases(seed: number, runs: number, constraints: TestbedCaseConstraints = {}): Plan[] {
  return runs === 0 ? [] : fc.sample(testbedPlanArbitrary(constraints), { seed, numRuns: runs });
}

/**
 * Case `k` of `seed` on `layers`: on one layer, plan `k`; on two, plan `⌊k/2⌋` on each in turn
 * (low, then high), so every plan that runs on one layer runs on the other too and a finding of
 * one layer has its case's twin on the other. The same `runs` either way: both layers halve
 * the plans, never double the time.
 */
export function layeredCases(seed: number, runs: number, layers: readonly TestbedLayer[], constraints: TestbedCaseConstraints = {}): TestbedCase[] {
  const plans = testbedCases(seed, Math.ceil(runs / layers.length), constraints);
  return plans.flatMap((plan) => layers.map((layer) => ({ ...plan, layer }))).slice(0, runs);
}

/** The program a planned call carries to the test bed (undefined: not a call of `run`). */
export function programOf(call: PlannedCall): HandlerProgram | undefined {
  return call.tool === TESTBED_TOOL && typeof call.arguments.program === 'object' ? (call.arguments.program as unknown as HandlerProgram) : undefined;
}

/** The plan with call `k`'s program replaced. */
function withProgram(plan: Plan, k: number, program: HandlerProgram): Plan {
  return { ...plan, calls: plan.calls.map((c, j) => (j === k ? { ...c, arguments: { ...c.arguments, program: program as unknown as JsonValue } } : c)) };
}

/**
 * Smaller programs, simplest first: one step fewer, an end that answers, an abort honoured. The
 * process campaign's own candidates would drop the `program` argument, which the bed rejects.
 */
export function programShrinks(plan: Plan): Plan[] {
  const out: Plan[] = [];
  plan.calls.forEach((c, k) => {
    const p = programOf(c);
    if (!p) return;
    p.steps.forEach((_, i) => out.push(withProgram(plan, k, { ...p, steps: p.steps.filter((__, j) => j !== i) })));
    if (p.end.kind !== 'result') out.push(withProgram(plan, k, { ...p, end: { kind: 'result' } }));
    if (p.onAbort !== 'honour') out.push(withProgram(plan, k, { ...p, onAbort: 'honour' }));
  });
  return out;
}
