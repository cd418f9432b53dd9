import fc from 'fast-check';
import type { JsonValue } from '../util/json.ts';
import type { FuzzTool } from './index.ts';
import type { Anchor, Plan, PlannedCall } from '../real/plan.ts';

export interface PlanConstraints {
  readonly tools: readonly FuzzTool[];
  /** Most calls per case. @default 3 */
  readonly callsMax?: number;
  /** Generate drops of POST streams (HTTP targets only). @default false */
  readonly http?: boolean;
  /**
   * Reuse the id of a call still in flight (the seed's second bug). A correct client never does,
   * so it is opt-in (`--duplicate-ids`): what a server does with it is a rogue question. @default false
   */
  readonly duplicateIds?: boolean;
  /** Sometimes close the connection (stdin EOF, DELETE) with calls in flight, at a point relative to what was observed. @default false */
  readonly closes?: boolean;
  /** The calls' arguments depend on their label (`call` of a test bed's `run`): given the drawn arguments and the label. */
  readonly labelled?: (args: { readonly [key: string]: JsonValue }, label: string) => { readonly [key: string]: JsonValue };
}

/**
 * Real-time cases: up to `callsMax` calls of the listed tools (arguments from their input
 * schemas), with and without progress tokens (numbers, strings and 0), each maybe cancelled at
 * a point relative to what was observed (right after it was written, N ms after, after its n-th
 * progress), maybe with a client timeout (reset on progress or not), concurrent or chained; on
 * HTTP also dropped POST streams (and, opt-in, a duplicate in-flight id); server→client requests answered,
 * answered late or errored.
 */
export function planArbitrary(constraints: PlanConstraints): fc.Arbitrary<Plan> {
  const { tools, callsMax = 3, http = false, duplicateIds = false, closes = false, labelled } = constraints;
  const token = fc.oneof(fc.constant(undefined), fc.constant(0), fc.integer({ min: 1, max: 1_000 }), fc.string({ minLength: 1, maxLength: 6 }));
  const call = (k: number): fc.Arbitrary<PlannedCall> => {
    const label = `c${k + 1}`;
    const earlier = Array.from({ length: k }, (_, j) => `c${j + 1}`);
    const at: fc.Arbitrary<Anchor> =
      k === 0
        ? fc.constant({ kind: 'start', ms: 0 })
        : fc.oneof(fc.record({ kind: fc.constant('start' as const), ms: fc.integer({ min: 0, max: 40 }) }), fc.record({ kind: fc.constant('written' as const), call: fc.constantFrom(...earlier), ms: fc.integer({ min: 0, max: 20 }) }));
    const cancel: fc.Arbitrary<Anchor | undefined> = fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('written' as const), call: fc.constant(label), ms: fc.integer({ min: 0, max: 80 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('progress' as const), call: fc.constant(label), n: fc.integer({ min: 1, max: 3 }), ms: fc.integer({ min: 0, max: 5 }) }) },
    );
    return fc
      .record({
        tool: fc.nat({ max: tools.length - 1 }).chain((i) => fc.tuple(fc.constant(tools[i]!.name), tools[i]!.arguments)),
        progressToken: token,
        at,
        cancel,
        cancelHow: http ? fc.constantFrom('notify' as const, 'notify' as const, 'drop' as const, 'both' as const) : fc.constant('notify' as const),
        timeout: fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.record({ ms: fc.integer({ min: 30, max: 200 }), resetOnProgress: fc.boolean() }) }),
        sameIdAs: duplicateIds && k > 0 ? fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...earlier) }) : fc.constant(undefined),
      })
      .map(({ tool: [name, args], progressToken, at: a, cancel: c, cancelHow, timeout, sameIdAs }) => ({
        label,
        tool: name,
        arguments: labelled ? labelled(args, label) : args,
        ...(progressToken !== undefined && { progressToken: typeof progressToken === 'number' ? progressToken : `${progressToken}-${label}` }),
        at: a,
        ...(c !== undefined && { cancel: c, cancelHow }),
        ...(timeout !== undefined && { timeout }),
        ...(sameIdAs !== undefined && { sameIdAs }),
      }));
  };
  const plans = fc.integer({ min: 1, max: callsMax }).chain((n) =>
    fc.record({
      calls: fc.tuple(...Array.from({ length: n }, (_, k) => call(k))).map((calls) => distinctTokens(calls)),
      serverRequests: fc.constantFrom('answer' as const, 'answer' as const, 'late' as const, 'error' as const),
    }),
  );
  if (!closes) return plans;
  // The close comes relative to the first call: so long after it was written, or after its n-th progress.
  const close: fc.Arbitrary<Anchor | undefined> = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('written' as const), call: fc.constant('c1'), ms: fc.integer({ min: 0, max: 120 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('progress' as const), call: fc.constant('c1'), n: fc.integer({ min: 1, max: 2 }), ms: fc.integer({ min: 0, max: 5 }) }) },
  );
  return fc.tuple(plans, close).map(([plan, at]) => (at === undefined ? plan : { ...plan, close: at }));
}

/** A correct requester's active progress tokens are distinct: a repeated number becomes another. */
function distinctTokens(calls: PlannedCall[]): PlannedCall[] {
  const seen = new Set<string>();
  return calls.map((c) => {
    if (c.progressToken === undefined) return c;
    let t = c.progressToken;
    while (seen.has(JSON.stringify(t))) t = typeof t === 'number' ? t + 1 : `${t}'`;
    seen.add(JSON.stringify(t));
    return { ...c, progressToken: t };
  });
}
