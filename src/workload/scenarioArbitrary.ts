import fc from 'fast-check';
import { applyCallerAction, initialCallerState, isLegal, legalCallerActions } from '../model/callerLegality.ts';
import {
  DEFAULT_ACTIONS_MAX,
  DEFAULT_FAULTS,
  DEFAULT_GENERATOR_PROFILES,
  DEFAULT_SERVER_REQUESTS,
  DEFAULT_STEPS_MAX,
} from '../options/defaults.ts';
import type { CallOptions, CallerAction, HandlerProgram, HandlerStep, HttpMode, Profile, RequestMethod, Scenario } from '../sim/scenario.ts';

/**
 * Bounds of generated scenarios, the workload of a campaign; every field optional. Runs of the
 * CLI and the property suite resolve them with `resolveWorkload` (src/options/).
 */
export interface ScenarioConstraints {
  /** Most caller actions (calls, aborts, closes, reconnects). @default DEFAULT_ACTIONS_MAX (6) */
  readonly actionsMax?: number;
  /** Most steps per handler script. @default DEFAULT_STEPS_MAX (4) */
  readonly stepsMax?: number;
  /** Generate server-initiated requests (sampling, elicitation, roots) too. @default DEFAULT_SERVER_REQUESTS (true) */
  readonly serverRequests?: boolean;
  /** Generate connection closes and reconnects. @default DEFAULT_FAULTS (true) */
  readonly faults?: boolean;
  /**
   * Transport profiles to draw from; `http` draws its mode (stateful, JSON/SSE, event store) too.
   * @default DEFAULT_GENERATOR_PROFILES (['memory']); resolved runs use DEFAULT_PROFILES
   */
  readonly profiles?: readonly Profile[];
}

/** Durations that straddle each other (sleep vs timeout) so races between them are common. */
const durationMs = fc.constantFrom(10, 100, 1_000, 5_000, 30_000);

const stepArb = (method: RequestMethod): fc.Arbitrary<HandlerStep> =>
  fc.oneof(
    // Totals are fixed above any reachable sum, so a generated script never breaks progress.total-stable.
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('progress' as const), progress: fc.integer({ min: 1, max: 3 }), total: fc.option(fc.constant(100), { nil: undefined }) }) },
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
    return { ...s, progress: sum };
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
  const {
    actionsMax = DEFAULT_ACTIONS_MAX,
    stepsMax = DEFAULT_STEPS_MAX,
    serverRequests = DEFAULT_SERVER_REQUESTS,
    faults = DEFAULT_FAULTS,
    profiles = DEFAULT_GENERATOR_PROFILES,
  } = constraints;
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
  const ops = fc.array(opArb, { minLength: 1, maxLength: actionsMax }).filter((o) => o.some((x) => x.op === 'call'));
  // Which client performs each op, used only when the http mode has two clients; shrinks to client 0.
  const clientOfOp = fc.array(fc.nat({ max: 1 }), { minLength: actionsMax, maxLength: actionsMax });
  return fc.tuple(ops, transportArb(profiles), clientOfOp).map(([o, transport, owner]) => {
    const clients = transport.http?.clients ?? 1;
    return { ...toScenario(o, clients, (i) => (clients > 1 ? owner[i]! : 0)), ...transport };
  });
}

/** Stateless or stateful, JSON or SSE; a stateful server sometimes has two clients (one session each). */
const httpModeArb: fc.Arbitrary<HttpMode> = fc
  .record({
    stateful: fc.boolean().map((stateless) => !stateless),
    response: fc.constantFrom('sse' as const, 'json' as const),
    eventStore: fc.constant(false),
    clients: fc.constantFrom(1, 2),
  })
  .map(({ clients, ...mode }) => (mode.stateful && clients > 1 ? { ...mode, clients } : mode));

/** The profile, first in the list when shrinking, and the http mode when it is `http`. */
function transportArb(profiles: readonly Profile[]): fc.Arbitrary<Pick<Scenario, 'profile' | 'http'>> {
  if (profiles.length === 0) throw new Error('scenarioArbitrary: constraints.profiles must name at least one profile');
  return fc
    .constantFrom(...profiles)
    .chain((profile): fc.Arbitrary<Pick<Scenario, 'profile' | 'http'>> =>
      profile === 'http' ? httpModeArb.map((http) => ({ profile, http })) : fc.constant({ profile }),
    );
}

/**
 * Turns generated ops into a legal scenario: each op becomes a caller action, kept when the
 * caller legality model (`src/model/callerLegality.ts`) allows it after the actions kept before,
 * dropped otherwise (an abort of a signal no earlier call used, a reconnect of a client that did
 * not close). `clientOf(i)` names the client of op i (0 unless several).
 */
function toScenario(ops: Op[], clients: number, clientOf: (i: number) => number): Omit<Scenario, 'profile'> {
  const handlers: Record<string, HandlerProgram> = {};
  const actions: CallerAction[] = [];
  let state = initialCallerState(clients);
  let n = 0;
  ops.forEach((op, i) => {
    const action = toAction(op, clientOf(i), n + 1);
    if (!isLegal(action, legalCallerActions(state))) return;
    state = applyCallerAction(state, action);
    if (op.op === 'call') handlers[`h${++n}`] = op.program;
    actions.push(action);
  });
  return { handlers, actions };
}

/** The caller action of one op; a call is labelled `c<n>` (tool call) or `s<n>` (server request) and runs handler `h<n>`. */
function toAction(op: Op, client: number, n: number): CallerAction {
  const who = client > 0 ? { client } : {};
  switch (op.op) {
    case 'call':
      return { kind: 'call', call: `${op.method === 'tools/call' ? 'c' : 's'}${n}`, method: op.method, options: op.options, handler: `h${n}`, ...who };
    case 'abort':
      return { kind: 'abort', signal: op.signal };
    case 'close':
      return { kind: 'close', side: op.side, ...who };
    case 'reconnect':
      return { kind: 'reconnect', ...who };
  }
}
