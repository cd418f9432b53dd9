import fc from 'fast-check';
import type { CallOptions, CallerAction, HandlerProgram, HandlerStep, RequestMethod, Scenario } from '../scenario.ts';

/** Bounds of generated scenarios; every field optional. */
export interface ScenarioConstraints {
  /** Most caller actions (calls, aborts, closes, reconnects). @default 6 */
  readonly actionsMax?: number;
  /** Most steps per handler script. @default 4 */
  readonly stepsMax?: number;
  /** Generate server-initiated requests (sampling, elicitation, roots) too. @default true */
  readonly serverRequests?: boolean;
  /** Generate connection closes and reconnects. @default true */
  readonly faults?: boolean;
}

/** Durations that straddle each other (sleep vs timeout) so races between them are common. */
const durationMs = fc.constantFrom(10, 100, 1_000, 5_000, 30_000);

const stepArb = (method: RequestMethod): fc.Arbitrary<HandlerStep> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('progress' as const), progress: fc.integer({ min: 1, max: 3 }), total: fc.option(fc.constant(10), { nil: undefined }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('sleep' as const), ms: durationMs }) },
    // Only tools call back into the client; a client handler calling the server is not generated.
    ...(method === 'tools/call'
      ? [{ weight: 1, arbitrary: fc.record({ kind: fc.constant('call' as const), method: fc.constantFrom<RequestMethod>('sampling/createMessage', 'roots/list') }) }]
      : []),
  );

/** Progress values are generated as increments and summed, so a correct script always increases. */
function accumulateProgress(steps: HandlerStep[]): HandlerStep[] {
  let sum = 0;
  return steps.map((s) => {
    if (s.kind !== 'progress') return s;
    sum += s.progress;
    const { total, ...rest } = s;
    return total === undefined ? { ...rest, progress: sum } : { ...rest, progress: sum, total: Math.max(total, sum) };
  });
}

const programArb = (method: RequestMethod, stepsMax: number): fc.Arbitrary<HandlerProgram> =>
  fc.record({
    steps: fc.array(stepArb(method), { maxLength: stepsMax }).map(accumulateProgress),
    end: fc.oneof(
      { weight: 6, arbitrary: fc.constant({ kind: 'result' as const }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'error' as const, code: -32000 }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'hang' as const }) },
    ),
    onAbort: fc.constantFrom('honour' as const, 'ignore' as const, 'swallow' as const),
  });

const optionsArb: fc.Arbitrary<CallOptions> = fc
  .record(
    {
      timeoutMs: durationMs,
      resetTimeoutOnProgress: fc.boolean(),
      maxTotalTimeoutMs: durationMs,
      onprogress: fc.boolean(),
      meta: fc.constant({ traceparent: 'sim' }),
      signal: fc.constantFrom('a', 'b'),
    },
    { requiredKeys: [] },
  );

type Op =
  | { op: 'call'; method: RequestMethod; options: CallOptions; program: HandlerProgram }
  | { op: 'abort'; signal: 'a' | 'b' }
  | { op: 'close'; side: 'client' | 'server' }
  | { op: 'reconnect' };

/**
 * Scenarios a correct peer could produce: calls in both directions with per-request options,
 * scripted handlers, aborts of signals in use, closes and reconnects. Shrinks toward fewer
 * actions, fewer steps and plainer options.
 */
export function scenarioArbitrary(constraints: ScenarioConstraints = {}): fc.Arbitrary<Scenario> {
  const { actionsMax = 6, stepsMax = 4, serverRequests = true, faults = true } = constraints;
  const methods: RequestMethod[] = serverRequests
    ? ['tools/call', 'tools/call', 'sampling/createMessage', 'elicitation/create', 'roots/list']
    : ['tools/call'];
  const callArb: fc.Arbitrary<Op> = fc
    .constantFrom(...methods)
    .chain((method) =>
      fc.record({ op: fc.constant('call' as const), method: fc.constant(method), options: optionsArb, program: programArb(method, stepsMax) }),
    );
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { weight: 4, arbitrary: callArb },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('abort' as const), signal: fc.constantFrom('a' as const, 'b' as const) }) },
    ...(faults
      ? [
          { weight: 1, arbitrary: fc.record({ op: fc.constant('close' as const), side: fc.constantFrom('client' as const, 'server' as const) }) },
          { weight: 1, arbitrary: fc.constant({ op: 'reconnect' as const }) },
        ]
      : []),
  );
  // Any op may be removed while shrinking (a minimal race has no removable request), as long as
  // one call remains.
  return fc
    .array(opArb, { minLength: 1, maxLength: actionsMax })
    .filter((ops) => ops.some((o) => o.op === 'call'))
    .map(toScenario);
}

/** Turns generated ops into a valid scenario: drops aborts of unused signals and reconnects without a close. */
function toScenario(ops: Op[]): Scenario {
  const handlers: Record<string, HandlerProgram> = {};
  const actions: CallerAction[] = [];
  const signals = new Set<string>();
  let closed = false;
  let n = 0;
  for (const op of ops) {
    switch (op.op) {
      case 'call': {
        const call = `${op.method === 'tools/call' ? 'c' : 's'}${++n}`;
        handlers[`h${n}`] = op.program;
        if (op.options.signal) signals.add(op.options.signal);
        actions.push({ kind: 'call', call, method: op.method, options: op.options, handler: `h${n}` });
        break;
      }
      case 'abort':
        if (signals.has(op.signal)) actions.push({ kind: 'abort', signal: op.signal });
        break;
      case 'close':
        closed = true;
        actions.push({ kind: 'close', side: op.side });
        break;
      case 'reconnect':
        if (closed) actions.push({ kind: 'reconnect' });
        closed = false;
        break;
    }
  }
  return { profile: 'memory', handlers, actions };
}
