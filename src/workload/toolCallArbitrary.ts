import fc from 'fast-check';
import { DEFAULT_FUZZ_CALLS_MAX } from '../options/defaults.ts';
import type { CallOptions, CallerAction, Scenario, VirtualResponse } from '../sim/scenario.ts';
import type { JsonValue } from '../util/json.ts';
import { tapeArbitrary } from './tapeArbitrary.ts';

/** Arguments of a tool call: a JSON object. */
export type ToolArguments = { readonly [key: string]: JsonValue };

/** A tool of a user's server and the arguments to call it with (generated from its input schema, or fixed). */
export interface FuzzTool {
  readonly name: string;
  readonly arguments: fc.Arbitrary<ToolArguments>;
}

/** One generated run against a user's server: the scenario (hosted), the schedule tape, the seed of chance. */
export interface FuzzCase {
  readonly scenario: Scenario;
  readonly tape: number[];
  readonly seed: number;
}

export interface ToolCallConstraints {
  readonly tools: readonly FuzzTool[];
  /** Most concurrent calls per run. @default DEFAULT_FUZZ_CALLS_MAX */
  readonly callsMax?: number;
}

/** Per-call timeouts: none (the SDK's 60 s), shorter than most virtual latencies, or between them. */
const TIMEOUTS_MS = [50, 500, 5_000] as const;

/** Statuses and bodies the virtual network answers with: mostly success, some failures and junk. */
const responseArbitrary: fc.Arbitrary<VirtualResponse> = fc.record({
  status: fc.oneof({ weight: 4, arbitrary: fc.constant(200) }, { weight: 1, arbitrary: fc.constantFrom(201, 204, 404, 429, 500, 503) }),
  body: fc.constantFrom('{}', '{"ok":true,"items":[1,2,3]}', '[]', 'not json'),
  latencyMs: fc.constantFrom(0, 5, 50, 500, 5_000),
});

/** One call: a tool and its arguments, how the caller makes it, and whether the caller cancels it (and when). */
function callArbitrary(tools: readonly FuzzTool[]) {
  const tool = fc.oneof(...tools.map((t) => fc.record({ name: fc.constant(t.name), arguments: t.arguments })));
  return fc.record({
    tool,
    onprogress: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    timeoutMs: fc.option(fc.constantFrom(...TIMEOUTS_MS), { freq: 2 }),
    resetTimeoutOnProgress: fc.boolean(),
    cancel: fc.constantFrom('never', 'never', 'at-once', 'later'),
  });
}

/**
 * Runs against a user's server: concurrent calls of its tools (the same tool or different ones),
 * with and without progress tokens and timeouts (resetting on progress or not), each maybe
 * cancelled by its caller right after it or after the last call (the tape places the cancel at
 * any point of the call's life), maybe a close of either side, a virtual network and a tape.
 * Shrinks toward one call, no cancel, no timeout, the natural order.
 */
export function toolCallArbitrary(constraints: ToolCallConstraints): fc.Arbitrary<FuzzCase> {
  const { tools, callsMax = DEFAULT_FUZZ_CALLS_MAX } = constraints;
  if (tools.length === 0) throw new Error('toolCallArbitrary: needs at least one tool.');
  const scenario = fc
    .record({
      calls: fc.array(callArbitrary(tools), { minLength: 1, maxLength: callsMax }),
      close: fc.option(fc.constantFrom('client', 'server') as fc.Arbitrary<'client' | 'server'>, { freq: 8 }),
      responses: fc.array(responseArbitrary, { minLength: 1, maxLength: 3 }),
    })
    .map(({ calls, close, responses }): Scenario => {
      const actions: CallerAction[] = [];
      const later: CallerAction[] = [];
      calls.forEach((c, i) => {
        const signal = `s${i + 1}`;
        const options: CallOptions = {
          ...(c.onprogress && { onprogress: true }),
          ...(c.timeoutMs !== null && { timeoutMs: c.timeoutMs, resetTimeoutOnProgress: c.resetTimeoutOnProgress }),
          signal,
        };
        actions.push({ kind: 'call', call: `c${i + 1}`, method: 'tools/call', handler: c.tool.name, arguments: c.tool.arguments, options });
        if (c.cancel === 'at-once') actions.push({ kind: 'abort', signal });
        if (c.cancel === 'later') later.push({ kind: 'abort', signal });
      });
      actions.push(...later);
      if (close !== null) actions.push({ kind: 'close', side: close });
      return { profile: 'memory', server: 'hosted', handlers: {}, actions, network: { responses } };
    });
  return fc.record({ scenario, tape: tapeArbitrary(), seed: fc.nat({ max: 0xffff }) });
}
