import type { ClientScenario } from './clientScenarios.ts';
import { callsOf, type ClientAction } from './clientScript.ts';
import type { ClientEvent, ClientRun } from './runClientScenario.ts';

/**
 * The client-side invariants (testbeds/CLIENT.md), each with the spec text it rests on. They are
 * judged from two records that share no clock: the client's side channel (what the SDK told the
 * caller) and the scripted server's wire log (what the SDK put on the wire). So a check compares
 * times only within one record.
 */
export const CLIENT_INVARIANTS = {
  'client.call-settles': { level: 'MUST', text: 'every call the caller makes returns exactly once (a result, an error, a timeout, the abort, or the close)' },
  'client.outcome': { level: 'MUST', text: "each call settles the way the scenario's server and caller make it settle (the result, the timeout, the abort, the close)" },
  'client.cancel-on-abort': { level: 'SHOULD', text: 'a party that wants to cancel an in-progress request sends notifications/cancelled (spec: cancellation)' },
  'client.cancel-on-timeout': { level: 'SHOULD', text: 'when a request times out, the sender SHOULD issue a cancellation notification for it and stop waiting (spec: lifecycle, timeouts)' },
  'client.cancel-known-request': { level: 'MUST', text: 'cancellation notifications MUST only reference requests previously issued in the same direction; the initialize request MUST NOT be cancelled (spec: cancellation)' },
  'client.late-response-ignored': { level: 'SHOULD', text: 'the sender of the cancellation notification SHOULD ignore any response to the request that arrives afterward (spec: cancellation)' },
  'client.progress-routed': { level: 'MUST', text: "a call's progress callback is given only progress the server sent with that call's token, and none after the call settled" },
  'client.progress-token-unique': { level: 'MUST', text: 'progress tokens MUST be unique across all active requests (spec: progress)' },
  'client.server-cancel-no-response': { level: 'SHOULD', text: 'the receiver of a cancellation notification SHOULD not send a response for the cancelled request (spec: cancellation)' },
  'client.server-cancel-handler-told': { level: 'SHOULD', text: 'the receiver of a cancellation notification SHOULD stop processing the request: its handler is told (spec: cancellation)' },
  'client.close-settles': { level: 'MUST', text: 'closing the client settles every call still in flight, and the client ends' },
  'client.close-ends-server': { level: 'SHOULD', text: "over stdio the client shuts down by closing the server's input stream (or SIGTERM) (spec: lifecycle, shutdown)" },
  'client.close-deletes-session': { level: 'SHOULD', text: 'a client that no longer needs a session SHOULD send an HTTP DELETE with its session id (spec: Streamable HTTP, session management)' },
} as const;
export type ClientInvariantId = keyof typeof CLIENT_INVARIANTS;

/** One broken invariant in one run, with what was seen. */
export interface ClientViolation {
  readonly invariant: ClientInvariantId;
  readonly call?: string;
  readonly detail: string;
}

/** What the client did in one run, in words a table can hold (the SDK side by side). */
export interface ClientBehaviour {
  /** Each call's outcome as the caller saw it (`never` when it did not settle). */
  readonly outcomes: Readonly<Record<string, string>>;
  /** The calls whose request a notifications/cancelled named. */
  readonly cancelled: readonly string[];
  /** How the client ended: `exit 0`, `exit 1`, `killed at the deadline`. */
  readonly exit: string;
}

export interface ClientJudgement {
  readonly violations: readonly ClientViolation[];
  readonly behaviour: ClientBehaviour;
  /** Checks the scenario could not make here, each with why (the SDK lacks the caller option). */
  readonly notJudged: readonly string[];
}

/** Caller options a client may lack (testbed.json's `client.options`). */
export type CallerOption = 'resetTimeoutOnProgress' | 'maxTotalTimeout';

/** How long a test-bed client waits after `closed` before it exits (testbeds/CLIENT.md). */
export const LINGER_MS = 300;

type Frame = Record<string, unknown> & { id?: string | number; method?: string; params?: Record<string, unknown> };
type Logged = { readonly t: number; readonly frame: Frame };
const key = (id: unknown): string => JSON.stringify(id);

/** Records one violation. */
type Fire = (invariant: ClientInvariantId, detail: string, call?: string) => void;

/**
 * One run as the rules read it, worked out once: the wire in each direction, each call's request
 * as the server received it, its progress token and the client's cancel of it, each call's ends.
 */
interface RunView {
  readonly scenario: ClientScenario;
  readonly run: ClientRun;
  /** What the client sent (the server's wire log, `in`) and what the server sent it (`out`). */
  readonly wireIn: readonly Logged[];
  readonly wireOut: readonly Logged[];
  readonly calls: ReturnType<typeof callsOf>;
  /** Each call label's request, as the server received it. */
  readonly requestOf: ReadonlyMap<string, Logged>;
  readonly clientCancels: readonly Logged[];
  /** Each call label's `call-end` events (more than one is a finding). */
  readonly ends: ReadonlyMap<string, readonly ClientEvent[]>;
  readonly closeAction: ClientEvent | undefined;
  tokenOf(label: string): unknown;
  cancelOf(label: string): Logged | undefined;
}

function viewOf(scenario: ClientScenario, run: ClientRun): RunView {
  const logged = (dir: 'in' | 'out') => run.wire.filter((w) => w.dir === dir && w.frame).map((w) => ({ t: w.t, frame: w.frame as Frame }));
  const wireIn = logged('in');
  const requestOf = new Map<string, Logged>();
  for (const entry of wireIn) {
    const label = (entry.frame.params?.['arguments'] as Record<string, unknown> | undefined)?.['call'];
    if (entry.frame.method === 'tools/call' && typeof label === 'string' && !requestOf.has(label)) requestOf.set(label, entry);
  }
  const clientCancels = wireIn.filter((w) => w.frame.method === 'notifications/cancelled');
  const ends = new Map<string, ClientEvent[]>();
  for (const e of run.events) if (e.event === 'call-end' && e.call) ends.set(e.call, [...(ends.get(e.call) ?? []), e]);
  return {
    scenario,
    run,
    wireIn,
    wireOut: logged('out'),
    calls: callsOf(scenario.script),
    requestOf,
    clientCancels,
    ends,
    closeAction: run.events.find((e) => e.event === 'close'),
    tokenOf: (label) => progressTokenOf(requestOf.get(label)?.frame),
    cancelOf(label) {
      const id = requestOf.get(label)?.frame.id;
      return id === undefined ? undefined : clientCancels.find((c) => key(c.frame.params?.['requestId']) === key(id));
    },
  };
}

const progressTokenOf = (request: Frame | undefined): unknown => (request?.params?.['_meta'] as Record<string, unknown> | undefined)?.['progressToken'];

/** Judges one run of `scenario` against every client invariant. `options`: the caller options the SDK has. */
export function judgeClientRun(scenario: ClientScenario, run: ClientRun, options: readonly CallerOption[]): ClientJudgement {
  const violations: ClientViolation[] = [];
  const notJudged: string[] = [];
  const fire: Fire = (invariant, detail, call) => violations.push({ invariant, detail, ...(call ? { call } : {}) });
  const view = viewOf(scenario, run);
  const outcomes: Record<string, string> = {};
  for (const [label, action] of view.calls) {
    outcomes[label] = view.ends.get(label)?.[0]?.outcome ?? 'never';
    judgeCall(view, label, action, options, fire, notJudged);
  }
  judgeClientCancels(view, fire);
  judgeProgressTokens(view, fire);
  judgeServerCancels(view, fire);
  judgeClose(view, fire);
  const exit = run.exit.killed ? 'killed at the deadline' : `exit ${run.exit.code ?? run.exit.signal}`;
  const cancelled = [...view.calls.keys()].filter((label) => view.cancelOf(label) !== undefined);
  return { violations, behaviour: { outcomes, cancelled, exit }, notJudged };
}

/** One call: it settles once, as the scenario makes it; its abort and timeout send a cancel; late answers and foreign progress do not reach the caller. */
function judgeCall(view: RunView, label: string, action: Extract<ClientAction, { kind: 'call' }>, options: readonly CallerOption[], fire: Fire, notJudged: string[]): void {
  const { scenario, run, requestOf } = view;
  const settled = view.ends.get(label) ?? [];
  if (settled.length === 0 && !view.closeAction) fire('client.call-settles', `${label} never returned to the caller`, label);
  if (settled.length > 1) fire('client.call-settles', `${label} returned ${settled.length} times (${settled.map((s) => s.outcome).join(', ')})`, label);
  const end = settled[0];

  // The outcome the scenario makes, where the SDK has the option it needs.
  const expected = scenario.expect?.[label];
  const lacking = scenario.option && !options.includes(scenario.option);
  if (expected && lacking) notJudged.push(`${label}: ${scenario.option} (the SDK has no such caller option)`);
  else if (expected && end && end.outcome !== expected) fire('client.outcome', `${label} settled ${describe(end)} where the scenario makes it ${expected}`, label);

  // A cancel on the caller's abort and on the SDK's timeout.
  const cancel = view.cancelOf(label);
  const aborted = run.events.some((e) => e.event === 'abort' && e.call === label);
  if (aborted && requestOf.has(label) && !cancel) fire('client.cancel-on-abort', `the caller aborted ${label} (request ${key(requestOf.get(label)!.frame.id)}) and no notifications/cancelled reached the server`, label);
  if (end?.outcome === 'timeout' && requestOf.has(label) && !cancel) fire('client.cancel-on-timeout', `${label} timed out after ${action.timeoutMs ?? '?'} ms and no notifications/cancelled reached the server`, label);

  // A response after the cancel must not reach the caller.
  if (cancel && end && (end.outcome === 'result' || end.outcome === 'error')) {
    const answer = view.wireOut.find((w) => key(w.frame.id) === key(requestOf.get(label)!.frame.id) && !('method' in w.frame));
    if (answer && answer.t > cancel.t) fire('client.late-response-ignored', `${label}: the server's answer came after the client's cancel and the caller got it as ${describe(end)}`, label);
  }

  // Progress: only the call's own, only before it settled.
  const token = view.tokenOf(label);
  const sent = view.wireOut.filter((w) => w.frame.method === 'notifications/progress');
  for (const p of run.events.filter((e) => e.event === 'progress' && e.call === label)) {
    const own = sent.some((w) => key(w.frame.params?.['progressToken']) === key(token) && w.frame.params?.['progress'] === p.progress);
    if (!own) fire('client.progress-routed', `${label}'s progress callback got progress ${p.progress}, which the server did not send with ${label}'s token ${key(token)}`, label);
    else if (end && p.t > end.t) fire('client.progress-routed', `${label}'s progress callback got progress ${p.progress} after the call returned`, label);
  }
}

/** Cancels only of the client's own requests, never of initialize. */
function judgeClientCancels(view: RunView, fire: Fire): void {
  const requestsIn = new Map(view.wireIn.filter((w) => w.frame.method !== undefined && w.frame.id !== undefined).map((w) => [key(w.frame.id), w.frame.method!]));
  for (const c of view.clientCancels) {
    const id = key(c.frame.params?.['requestId']);
    const method = requestsIn.get(id);
    if (method === undefined) fire('client.cancel-known-request', `notifications/cancelled names request ${id}, which the client never sent`);
    else if (method === 'initialize') fire('client.cancel-known-request', `notifications/cancelled names the initialize request ${id}`);
  }
}

/** Progress tokens of calls open at the same time. */
function judgeProgressTokens(view: RunView, fire: Fire): void {
  const seen = new Set<string>();
  for (const r of view.requestOf.values()) {
    const t = progressTokenOf(r.frame);
    if (t === undefined) continue;
    if (seen.has(key(t))) fire('client.progress-token-unique', `two calls carried the progress token ${key(t)}`);
    seen.add(key(t));
  }
}

/** The server's cancel of its own request to the client: no answer after it, and the client's handler is told. */
function judgeServerCancels(view: RunView, fire: Fire): void {
  const { run, scenario } = view;
  // Told by the cancel, not by the close that ends every handler anyway.
  const closing = run.events.find((e) => e.event === 'close')?.t ?? Infinity;
  for (const c of view.wireOut.filter((w) => w.frame.method === 'notifications/cancelled')) {
    const id = key(c.frame.params?.['requestId']);
    const request = view.wireOut.find((w) => key(w.frame.id) === id && typeof w.frame.method === 'string');
    const answer = view.wireIn.find((w) => key(w.frame.id) === id && w.frame.method === undefined && w.t > c.t);
    const method = request?.frame.method ?? 'request';
    if (answer) fire('client.server-cancel-no-response', `the server cancelled its ${method} ${id}, and the client answered it ${Math.round(answer.t - c.t)} ms later`);
    const handled = run.events.some((e) => e.event === 'server-request' && e.method === method);
    const told = run.events.some((e) => e.event === 'server-request-cancelled' && e.method === method && e.t < closing);
    if (handled && !told && scenario.script.serverRequests.hang) fire('client.server-cancel-handler-told', `the server cancelled its ${method} ${id}, and the client's handler was never told`);
  }
}

/** The close: every call settles, the client ends, and it ends its server or session. */
function judgeClose(view: RunView, fire: Fire): void {
  const { run } = view;
  if (view.closeAction) {
    const open = [...view.calls.keys()].filter((label) => (view.ends.get(label) ?? []).length === 0);
    if (open.length > 0) fire('client.close-settles', `after the close ${open.join(', ')} never returned to the caller`);
  }
  if (run.exit.killed) fire('client.close-settles', 'the client did not end by itself: killed 5 s after the deadline');
  if (run.transport === 'stdio') {
    // The client waits LINGER_MS after `closed` before it exits (CLIENT.md): a server its close
    // left running shows as an end (EOF at the client's exit) well after `closed`, or none.
    const end = run.wire.find((w) => w.event === 'eof' || w.event === 'exit');
    const closed = run.events.find((e) => e.event === 'closed');
    const late = end && closed && run.clockOffsetMs !== undefined ? end.t - (closed.t + run.clockOffsetMs) : undefined;
    // A close that never returned (no `closed`) is client.close-settles' finding: the server then
    // ends with the client's process, whichever way the race of its exit goes.
    if (closed && !end) fire('client.close-ends-server', "the client ended without closing its stdio server's input or signalling it (the server was left to its fuse or killed with the client)");
    else if (closed && late !== undefined && late > LINGER_MS / 2) fire('client.close-ends-server', `the client's close left its stdio server running: its input ended ${Math.round(late)} ms after the close returned, when the client process exited`);
  } else if (!run.wire.some((w) => w.event === 'session-deleted')) {
    fire('client.close-deletes-session', 'the client ended without an HTTP DELETE of its session');
  }
}

function describe(end: ClientEvent): string {
  if (end.outcome === 'error' && end.code !== undefined) return `error ${end.code}`;
  return end.outcome ?? 'unknown';
}
