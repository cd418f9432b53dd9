import fc from 'fast-check';
import { applyCallerAction, initialCallerState, isLegal, legalCallerActions } from '../model/callerLegality.ts';
import {
  DEFAULT_ACTIONS_MAX,
  DEFAULT_FAULTS,
  DEFAULT_GENERATOR_PROFILES,
  DEFAULT_SERVER_REQUESTS,
  DEFAULT_STEPS_MAX,
} from '../options/defaults.ts';
import type { CallerAction, HandlerProgram, HttpMode, Profile, RequestMethod, Scenario } from '../sim/scenario.ts';
import type { DraftOp, DraftOption, DraftOptions, DraftProgram, DraftStep } from './draftOps.ts';
import type { LeavablePart } from './leavableParts.ts';
import { restrictOp, type RestrictedOp } from './restrictOp.ts';
import { SWARM_FEATURES, swarmFeaturesArbitrary, type SwarmFeature, type SwarmFeatures } from './swarmFeatures.ts';
import { durationIndexArbitrary, timingPaletteArbitrary } from './timingPalette.ts';

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
  /** Generate connection closes, reconnects and (http) broken SSE streams. @default DEFAULT_FAULTS (true) */
  readonly faults?: boolean;
  /**
   * Transport profiles to draw from; `http` draws its mode (stateful, JSON/SSE, event store) too.
   * @default DEFAULT_GENERATOR_PROFILES (['memory']); resolved runs use DEFAULT_PROFILES
   */
  readonly profiles?: readonly Profile[];
  /** Parts a release lacks, stripped after the draw (`leavableParts.ts`). @default none */
  readonly leaveOut?: readonly LeavablePart[];
}

/** Step of a handler drawn for a request of `method`; a sleep's duration is a palette index. */
const stepArb = (method: RequestMethod): fc.Arbitrary<DraftStep> =>
  fc.oneof(
    // Totals are fixed above any reachable sum, so a generated script never breaks progress.total-stable.
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('progress' as const), progress: fc.integer({ min: 1, max: 3 }), total: fc.option(fc.constant(100), { nil: undefined }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('sleep' as const), duration: durationIndexArbitrary }) },
    // Only tools call back into the client; a client handler calling the server is not generated.
    ...(method === 'tools/call'
      ? [{ weight: 1, arbitrary: fc.record({ kind: fc.constant('call' as const), method: fc.constantFrom<RequestMethod>('sampling/createMessage', 'roots/list') }) }]
      : []),
  );

/** A drawn handler program for a request of `method` (durations are palette indices; `restrictOp` resolves them). */
export const programArb = (method: RequestMethod, stepsMax: number): fc.Arbitrary<DraftProgram> =>
  fc.record({
    steps: fc.array(stepArb(method), { maxLength: stepsMax }),
    end: fc.oneof(
      { weight: 6, arbitrary: fc.constant({ kind: 'result' as const }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'error' as const, code: -32000 }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'hang' as const }) },
    ),
    onAbort: fc.constantFrom('honour' as const, 'ignore' as const, 'swallow' as const),
  });

/**
 * An option a plain case sets 5 times in 6 (as fast-check's optional record keys are); shrinks
 * to unset.
 */
const optionArb = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<DraftOption<T>> =>
  fc.record({ set: fc.integer({ min: 0, max: 5 }).map((n) => n > 0), value });

const optionsArb: fc.Arbitrary<DraftOptions> = fc.record({
  timeout: optionArb(durationIndexArbitrary),
  resetTimeoutOnProgress: optionArb(fc.boolean()),
  maxTotal: optionArb(durationIndexArbitrary),
  onprogress: optionArb(fc.boolean()),
  signal: optionArb(fc.constantFrom('a' as const, 'b' as const)),
});

/** The swarm feature of each call option a workload can leave out. */
const optionFeatureOf: Partial<Record<LeavablePart, SwarmFeature>> = { 'reset-on-progress': 'resetOnProgress', 'max-total-timeout': 'maxTotal' };

/** The swarm features a workload permits: its flags turn theirs off for good, and so do the options it leaves out. */
function allowedFeatures(serverRequests: boolean, faults: boolean, leaveOut: readonly LeavablePart[]): ReadonlySet<SwarmFeature> {
  const off = new Set<SwarmFeature>([
    ...(serverRequests ? [] : ['serverRequests' as const]),
    ...(faults ? [] : ['closes' as const, 'reconnects' as const, 'drops' as const]),
    ...leaveOut.flatMap((part) => optionFeatureOf[part] ?? []),
  ]);
  return new Set(SWARM_FEATURES.filter((f) => !off.has(f)));
}

/**
 * Scenarios a correct peer could produce: calls in both directions with per-request options,
 * scripted handlers, aborts of signals in use, closes, reconnects and (http) broken streams.
 * Swarm testing: each case draws which features it uses (`swarmFeatures.ts`) and the durations
 * it times them with (`timingPalette.ts`), then everything else, and drops what its features
 * turn off (`restrictOp.ts`). Shrinks toward fewer features, fewer actions, fewer steps and
 * plainer options.
 */
export function scenarioArbitrary(constraints: ScenarioConstraints = {}): fc.Arbitrary<Scenario> {
  const {
    actionsMax = DEFAULT_ACTIONS_MAX,
    stepsMax = DEFAULT_STEPS_MAX,
    serverRequests = DEFAULT_SERVER_REQUESTS,
    faults = DEFAULT_FAULTS,
    profiles = DEFAULT_GENERATOR_PROFILES,
    leaveOut = [],
  } = constraints;
  const methods: RequestMethod[] = serverRequests
    ? ['tools/call', 'tools/call', 'sampling/createMessage', 'elicitation/create', 'roots/list']
    : ['tools/call'];
  const callArb: fc.Arbitrary<DraftOp> = fc
    .constantFrom(...methods)
    .chain((method) =>
      fc.record({ op: fc.constant('call' as const), method: fc.constant(method), options: optionsArb, program: programArb(method, stepsMax) }),
    );
  const opArb: fc.Arbitrary<DraftOp> = fc.oneof(
    { weight: 4, arbitrary: callArb },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('abort' as const), signal: fc.constantFrom('a' as const, 'b' as const) }) },
    ...(faults
      ? [
          { weight: 1, arbitrary: fc.record({ op: fc.constant('close' as const), side: fc.constantFrom('client' as const, 'server' as const) }) },
          // Half of them with a fresh `Client` (ids from 0 again, as a restarted client process); shrinks to the same one.
          { weight: 1, arbitrary: fc.record({ op: fc.constant('reconnect' as const), fresh: fc.boolean() }) },
          // Kept on http only (restrictOp); a memory case loses it, as it loses an op its features turn off.
          { weight: 1, arbitrary: fc.constant({ op: 'drop' as const }) },
        ]
      : []),
  );
  // Any op may be removed while shrinking (a minimal race has no removable request), as long as
  // one call remains.
  const ops = fc.array(opArb, { minLength: 1, maxLength: actionsMax }).filter((o) => o.some((x) => x.op === 'call'));
  // Which client performs each op, used only when the http mode has two clients; shrinks to client 0.
  const clientOfOp = fc.array(fc.nat({ max: 1 }), { minLength: actionsMax, maxLength: actionsMax });
  // Calls that take the place of ops whose feature is off, so a case with few features piles
  // its actions onto them instead of losing them; shrinks to none (such ops are then removed).
  const spares = fc.array(callArb, { maxLength: actionsMax });
  const features = swarmFeaturesArbitrary(allowedFeatures(serverRequests, faults, leaveOut));
  const withoutElicitation = leaveOut.includes('elicitation');
  return fc.tuple(features, timingPaletteArbitrary, ops, spares, transportArb(profiles), clientOfOp).map(([f, palette, drafts, spare, drawn, owner]) => {
    const transport = drawn.http === undefined ? { profile: drawn.profile } : { profile: drawn.profile, http: restrictHttpMode(drawn.http, f) };
    const clients = transport.http?.clients ?? 1;
    const r = { features: f, palette, profile: transport.profile, withoutElicitation };
    let nextSpare = 0;
    const restricted = drafts.map((op) => {
      const kept = restrictOp(op, r);
      const call = kept === undefined ? spare[nextSpare++] : undefined;
      return call === undefined ? kept : restrictOp(call, r);
    });
    return { ...toScenario(restricted, clients, (i) => (clients > 1 ? owner[i]! : 0), actionsMax), ...transport };
  });
}

/** An http mode as drawn, before the case's features apply. */
type DraftHttpMode = Required<Omit<HttpMode, 'keepAliveMs'>>;

/** What the transport draw gives: the profile, and the drawn mode on `http`. */
interface DraftTransport {
  readonly profile: Profile;
  readonly http?: DraftHttpMode;
}

/** Stateless or stateful, JSON or SSE, with an event store or not, one client or two (stateful only). */
const httpModeArb: fc.Arbitrary<DraftHttpMode> = fc.record({
  stateful: fc.boolean().map((stateless) => !stateless),
  response: fc.constantFrom('sse' as const, 'json' as const),
  eventStore: fc.boolean(),
  clients: fc.constantFrom(1, 2),
});

/** The drawn mode with what the case's features (or statelessness) rule out made plain. */
function restrictHttpMode({ clients, ...mode }: DraftHttpMode, f: SwarmFeatures): HttpMode {
  const plain = { ...mode, eventStore: mode.stateful && f.eventStore && mode.eventStore };
  return mode.stateful && f.severalClients && clients > 1 ? { ...plain, clients } : plain;
}

/** The profile, first in the list when shrinking, and the http mode when it is `http`. */
function transportArb(profiles: readonly Profile[]): fc.Arbitrary<DraftTransport> {
  if (profiles.length === 0) throw new Error('scenarioArbitrary: constraints.profiles must name at least one profile');
  return fc
    .constantFrom(...profiles)
    .chain((profile): fc.Arbitrary<DraftTransport> => (profile === 'http' ? httpModeArb.map((http) => ({ profile, http })) : fc.constant({ profile })));
}

/**
 * Turns generated ops into a legal scenario: each op becomes a caller action, kept when the
 * caller legality model (`src/model/callerLegality.ts`) allows it after the actions kept before,
 * dropped otherwise (an abort of a signal no earlier call used, a reconnect of a client that did
 * not close), except a fresh reconnect, which closes the client first when it is open (a client
 * restart) while `actionsMax` leaves room. `clientOf(i)` names the client of op i (0 unless several).
 */
function toScenario(ops: readonly (RestrictedOp | undefined)[], clients: number, clientOf: (i: number) => number, actionsMax: number): Omit<Scenario, 'profile'> {
  const handlers: Record<string, HandlerProgram> = {};
  const actions: CallerAction[] = [];
  let state = initialCallerState(clients);
  // Closes a client restart may add, within the case's bound on actions.
  let room = actionsMax - ops.filter((op) => op !== undefined).length;
  let n = 0;
  ops.forEach((op, i) => {
    if (op === undefined) return;
    const action = toAction(op, clientOf(i), n + 1);
    // A fresh reconnect of a client still connected is a client restart: its process ends (its
    // side closes) and a new one connects. Without it a fresh `Client` would need a close drawn
    // before it, and would hardly ever meet a handler the old connection left running.
    if (action.kind === 'reconnect' && action.fresh && room > 0 && !isLegal(action, legalCallerActions(state))) {
      room--;
      const close: CallerAction = { kind: 'close', side: 'client', ...(action.client !== undefined && { client: action.client }) };
      state = applyCallerAction(state, close);
      actions.push(close);
    }
    // A broken stream is a network fault, which the caller model does not govern: always legal.
    if (action.kind !== 'http-drop' && !isLegal(action, legalCallerActions(state))) return;
    state = applyCallerAction(state, action);
    if (op.op === 'call') handlers[`h${++n}`] = op.program;
    actions.push(action);
  });
  return { handlers, actions };
}

/** The caller action of one op; a call is labelled `c<n>` (tool call) or `s<n>` (server request) and runs handler `h<n>`. */
function toAction(op: RestrictedOp, client: number, n: number): CallerAction {
  const who = client > 0 ? { client } : {};
  switch (op.op) {
    case 'call':
      return { kind: 'call', call: `${op.method === 'tools/call' ? 'c' : 's'}${n}`, method: op.method, options: op.options, handler: `h${n}`, ...who };
    case 'abort':
      return { kind: 'abort', signal: op.signal };
    case 'close':
      return { kind: 'close', side: op.side, ...who };
    case 'reconnect':
      return { kind: 'reconnect', ...who, ...(op.fresh && { fresh: true }) };
    case 'drop':
      return { kind: 'http-drop', ...who };
  }
}
