import type { InvariantId } from '../model/invariants.ts';
import type { JsonValue } from '../util/json.ts';
import type { Side } from '../sim/scenario.ts';
import type { WireId } from '../sim/trace.ts';
import { HANG_TOOL, PENDING_CALL_ID, type RogueRunOptions } from './runRogue.ts';

/**
 * The model's invariants that judge the attacked side's reaction to a kind's frames: where its
 * findings, if any, come from (`judge()` with the rogue's side left out). Each kind names its
 * own; every kind is also judged by `ALWAYS_JUDGED`. A kind expects none of them to fire; the
 * table shows what the model found.
 */
export type RogueExpectation = readonly InvariantId[];

/**
 * What every rogue run judges, whatever its frames: the ping after them is answered, nothing
 * escapes, and the rogue's closing the connection at the end (quiescent) aborts every handler
 * still running.
 */
export const ALWAYS_JUDGED: RogueExpectation = ['rpc.survives-bad-input', 'harness.unhandled', 'lifecycle.close-settles', 'liveness.handler-ends'];

/** `ids` and `ALWAYS_JUDGED`: a kind's expectation. */
const judgedBy = (...ids: InvariantId[]): RogueExpectation => [...ids, ...ALWAYS_JUDGED];

/** One kind of forbidden (or racy) traffic a rogue peer writes toward a real SDK endpoint. */
export interface RogueKind {
  /** Stable kebab-case name, unique per target. */
  readonly name: string;
  /** The real SDK endpoint attacked; the rogue plays the other side. */
  readonly target: Side;
  readonly description: string;
  /** Written after the handshake and setup, each delivered on its own step. */
  readonly frames: readonly JsonValue[];
  /**
   * Invariants the frames break or exercise on the rogue's side: what makes them rogue. Never
   * findings: the model leaves the rogue's own breaches out.
   */
  readonly invariants: readonly InvariantId[];
  /** Setup of the run: open work for the frames to hit. */
  readonly options?: Pick<RogueRunOptions, 'setup' | 'initializeId' | 'pendingCall' | 'abortPendingCall'>;
  /** The invariants that judge the attacked side's reaction. */
  readonly expectation: RogueExpectation;
}

const V = '2.0';
const TOOL = (name: string): JsonValue => ({ name, arguments: {} });

/** A request frame. */
export const request = (id: JsonValue, method: string, params?: JsonValue): JsonValue => ({ jsonrpc: V, id, method, ...(params !== undefined && { params }) });
/** A notification frame. */
export const notification = (method: string, params?: JsonValue): JsonValue => ({ jsonrpc: V, method, ...(params !== undefined && { params }) });
export const cancel = (requestId: JsonValue, reason = 'rogue'): JsonValue => notification('notifications/cancelled', { requestId, reason });
export const progress = (progressToken: JsonValue, value: JsonValue, total?: number): JsonValue =>
  notification('notifications/progress', { progressToken, progress: value, ...(total !== undefined && { total }) });
export const result = (id: JsonValue, value: JsonValue = { content: [{ type: 'text', text: 'rogue' }] }): JsonValue => ({ jsonrpc: V, id, result: value });
/** A `tools/call` of the SDK server's hanging tool: open work a cancel can hit. */
export const hangCall = (id: WireId): JsonValue => request(id, 'tools/call', TOOL(HANG_TOOL));
export const echoCall = (id: JsonValue): JsonValue => request(id, 'tools/call', TOOL('echo'));
/** A `sampling/createMessage` the SDK client's handler holds until aborted. */
export const samplingCall = (id: WireId): JsonValue =>
  request(id, 'sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'rogue' } }], maxTokens: 16 });

/** Size of the oversized payloads, in characters. */
export const OVERSIZED_CHARS = 1_000_000;
const big = (): string => 'x'.repeat(OVERSIZED_CHARS);

const HANG_ID = 100;
const withHang = { setup: [hangCall(HANG_ID)] };
const pending = { pendingCall: true };
const P = PENDING_CALL_ID;

/** Attacks on the real SDK `Server` (the rogue is a client). */
const serverKinds: Omit<RogueKind, 'target'>[] = [
  { name: 'id-null', description: 'request with id null', frames: [request(null, 'tools/call', TOOL('echo'))], invariants: ['rpc.request-id-type', 'rpc.well-formed'], expectation: judgedBy() },
  { name: 'id-float', description: 'request with id 1.5', frames: [request(1.5, 'tools/call', TOOL('echo'))], invariants: ['rpc.request-id-type'], expectation: judgedBy() },
  { name: 'id-object', description: 'request with an object id', frames: [request({ n: 1 }, 'tools/call', TOOL('echo'))], invariants: ['rpc.request-id-type'], expectation: judgedBy() },
  { name: 'id-boolean', description: 'request with id true', frames: [request(true, 'tools/call', TOOL('echo'))], invariants: ['rpc.request-id-type'], expectation: judgedBy() },
  { name: 'id-unsafe-integer', description: 'request with id 2^53+1 (not exact in JSON numbers)', frames: [request(9007199254740993, 'tools/call', TOOL('echo'))], invariants: ['rpc.request-id-type'], expectation: judgedBy() },
  {
    name: 'id-reused-in-flight',
    description: 'second request reusing the id of an in-flight (hanging) one, then a cancel of that id',
    frames: [echoCall(HANG_ID), cancel(HANG_ID)],
    invariants: ['rpc.request-id-unique', 'rpc.single-response', 'cancel.handler-aborted'],
    options: withHang,
    expectation: judgedBy('rpc.single-response', 'cancel.handler-aborted', 'cancel.no-response-after'),
  },
  { name: 'missing-jsonrpc', description: 'request without the jsonrpc member', frames: [{ id: 1, method: 'tools/call', params: TOOL('echo') }], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'wrong-jsonrpc-version', description: 'request with jsonrpc "1.0"', frames: [{ jsonrpc: '1.0', id: 1, method: 'tools/call', params: TOOL('echo') }], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'missing-method', description: 'id and params but no method', frames: [{ jsonrpc: V, id: 1, params: TOOL('echo') }], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'method-not-string', description: 'method is a number', frames: [{ jsonrpc: V, id: 1, method: 42 }], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'response-unknown-id', description: 'a result for an id the server never sent', frames: [result(999)], invariants: ['rpc.response-matches-request'], expectation: judgedBy('rpc.response-matches-request') },
  { name: 'error-without-code', description: 'error response whose error has no code', frames: [{ jsonrpc: V, id: 999, error: { message: 'rogue' } }], invariants: ['rpc.well-formed', 'rpc.response-matches-request'], expectation: judgedBy('rpc.response-matches-request') },
  { name: 'result-and-error', description: 'response carrying both result and error', frames: [{ jsonrpc: V, id: 999, result: {}, error: { code: -1, message: 'rogue' } }], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.response-matches-request') },
  { name: 'batch-array', description: 'a JSON-RPC batch (array), removed from MCP', frames: [[echoCall(1), notification('notifications/rogue')]], invariants: ['rpc.well-formed', 'rpc.no-reply-to-notification'], expectation: judgedBy('rpc.response-matches-request') },
  { name: 'empty-batch', description: 'an empty array', frames: [[]], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.response-matches-request') },
  { name: 'empty-object', description: '{}', frames: [{}], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'non-object-number', description: 'the number 42 as a frame', frames: [42], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'non-object-string', description: 'a JSON string as a frame', frames: ['hello'], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'non-object-null', description: 'JSON null as a frame', frames: [null], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'unknown-method-request', description: 'request for a method nobody handles', frames: [request(1, 'rogue/no-such-method')], invariants: ['rpc.response-matches-request'], expectation: judgedBy('rpc.error-code') },
  { name: 'unknown-notification', description: 'notification nobody handles', frames: [notification('notifications/rogue', { x: 1 })], invariants: ['rpc.no-reply-to-notification'], expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'notification-missing-jsonrpc', description: 'notification without the jsonrpc member', frames: [{ method: 'notifications/rogue' }], invariants: ['rpc.well-formed', 'rpc.no-reply-to-notification'], expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'notification-with-id', description: 'notifications/initialized carrying an id (so a request)', frames: [request(7, 'notifications/initialized')], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'cancel-with-id', description: 'notifications/cancelled sent as a request (with an id) for the hanging call', frames: [request(7, 'notifications/cancelled', { requestId: HANG_ID })], invariants: ['cancel.well-formed'], options: withHang, expectation: judgedBy('rpc.error-code') },
  { name: 'params-number', description: 'tools/call with params 42', frames: [request(1, 'tools/call', 42)], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'params-array', description: 'tools/call with params as an array (by-position)', frames: [request(1, 'tools/call', ['echo'])], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'tools-call-without-name', description: 'tools/call whose params lack name', frames: [request(1, 'tools/call', {})], invariants: ['rpc.response-matches-request'], expectation: judgedBy('rpc.error-code') },
  { name: 'initialize-again', description: 'a second initialize in the same session', frames: [request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'again', version: '0' } })], invariants: ['rpc.response-matches-request'], expectation: judgedBy('rpc.single-response') },
  { name: 'oversized-request', description: `tools/call with a ${OVERSIZED_CHARS}-character argument`, frames: [request(1, 'tools/call', { name: 'echo', arguments: { blob: big() } })], invariants: ['harness.unhandled'], expectation: judgedBy('rpc.single-response') },
  { name: 'oversized-notification', description: `unknown notification with a ${OVERSIZED_CHARS}-character param`, frames: [notification('notifications/rogue', { blob: big() })], invariants: ['rpc.no-reply-to-notification'], expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'cancel-unknown-id', description: 'cancel naming an id never sent', frames: [cancel(12345)], invariants: ['cancel.in-flight-only', 'rpc.no-reply-to-notification'], expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'cancel-completed', description: 'cancel for a request already answered', frames: [echoCall(7), cancel(7)], invariants: ['cancel.in-flight-only', 'rpc.no-reply-to-notification'], expectation: judgedBy('rpc.no-reply-to-notification', 'rpc.single-response') },
  { name: 'cancel-in-flight', description: 'well-formed cancel of the hanging call (control case)', frames: [cancel(HANG_ID)], invariants: ['cancel.handler-aborted', 'cancel.no-response-after'], options: withHang, expectation: judgedBy('cancel.handler-aborted', 'cancel.no-response-after') },
  { name: 'cancel-twice', description: 'two cancels for the same in-flight request', frames: [cancel(HANG_ID), cancel(HANG_ID)], invariants: ['cancel.in-flight-only', 'cancel.no-response-after'], options: withHang, expectation: judgedBy('cancel.handler-aborted', 'cancel.no-response-after') },
  { name: 'cancel-id-0', description: 'cancel of an in-flight request whose id is 0 (initialize used id "init")', frames: [cancel(0)], invariants: ['cancel.handler-aborted'], options: { initializeId: 'init', setup: [hangCall(0)] }, expectation: judgedBy('cancel.handler-aborted', 'cancel.no-response-after') },
  { name: 'cancel-empty-string-id', description: 'cancel of an in-flight request whose id is ""', frames: [cancel('')], invariants: ['cancel.handler-aborted'], options: { setup: [hangCall('')] }, expectation: judgedBy('cancel.handler-aborted', 'cancel.no-response-after') },
  { name: 'cancel-initialize-id', description: "cancel naming initialize's id (0, long answered)", frames: [cancel(0)], invariants: ['cancel.not-initialize', 'cancel.in-flight-only'], expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'cancel-id-type-mismatch', description: 'cancel naming "100" while the in-flight request is 100', frames: [cancel(String(HANG_ID))], invariants: ['cancel.in-flight-only'], options: withHang, expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'cancel-without-params', description: 'notifications/cancelled with no params', frames: [notification('notifications/cancelled')], invariants: ['cancel.well-formed', 'rpc.no-reply-to-notification'], options: withHang, expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'cancel-without-request-id', description: 'notifications/cancelled with params but no requestId', frames: [notification('notifications/cancelled', { reason: 'rogue' })], invariants: ['cancel.well-formed', 'rpc.no-reply-to-notification'], options: withHang, expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'cancel-request-id-null', description: 'cancel with requestId null', frames: [cancel(null)], invariants: ['cancel.well-formed', 'rpc.no-reply-to-notification'], options: withHang, expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'progress-unknown-token', description: 'progress for a token the server never issued', frames: [progress('nope', 1)], invariants: ['progress.token-requested', 'rpc.no-reply-to-notification'], expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'progress-for-incoming-request', description: "progress naming the token of the server's own in-flight handler (wrong direction)", frames: [progress(HANG_ID, 1)], invariants: ['progress.token-requested', 'rpc.no-reply-to-notification'], options: withHang, expectation: judgedBy('rpc.no-reply-to-notification') },
];

/** Attacks on the real SDK `Client` (the rogue is a server). The pending call has id and token `PENDING_CALL_ID`. */
const clientKinds: Omit<RogueKind, 'target'>[] = [
  { name: 'progress-unknown-token', description: 'progress for a token the client never issued', frames: [progress(777, 1)], invariants: ['progress.token-requested', 'rpc.no-reply-to-notification'], options: pending, expectation: judgedBy('rpc.no-reply-to-notification', 'progress.delivered') },
  { name: 'progress-token-type-mismatch', description: `progress naming token "${P}" (string) while the client issued ${P} (number)`, frames: [progress(String(P), 1)], invariants: ['progress.token-requested'], options: pending, expectation: judgedBy('progress.delivered') },
  { name: 'progress-nan-string', description: 'progress value "NaN" (JSON has no NaN)', frames: [progress(P, 'NaN')], invariants: ['rpc.well-formed', 'progress.increasing'], options: pending, expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'progress-null', description: 'progress value null', frames: [progress(P, null)], invariants: ['rpc.well-formed', 'progress.increasing'], options: pending, expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'progress-missing-value', description: 'progress without a progress member', frames: [notification('notifications/progress', { progressToken: P })], invariants: ['rpc.well-formed'], options: pending, expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'progress-negative', description: 'progress -5', frames: [progress(P, -5)], invariants: ['progress.increasing'], options: pending, expectation: judgedBy('progress.delivered') },
  { name: 'progress-decreasing', description: 'progress 5 then 3', frames: [progress(P, 5, 10), progress(P, 3, 10)], invariants: ['progress.increasing'], options: pending, expectation: judgedBy('progress.delivered') },
  { name: 'progress-equal', description: 'progress 2 then 2', frames: [progress(P, 2, 10), progress(P, 2, 10)], invariants: ['progress.increasing'], options: pending, expectation: judgedBy('progress.delivered') },
  { name: 'progress-total-changes', description: 'total 10 then 5', frames: [progress(P, 1, 10), progress(P, 2, 5)], invariants: ['progress.total-stable'], options: pending, expectation: judgedBy('progress.delivered') },
  { name: 'progress-after-response', description: 'progress for the pending call after its result', frames: [result(P), progress(P, 1)], invariants: ['progress.after-response', 'progress.race-silent'], options: pending, expectation: judgedBy('progress.race-silent', 'timeout.quiet-after-settle') },
  { name: 'progress-oversized-message', description: `progress with a ${OVERSIZED_CHARS}-character message`, frames: [notification('notifications/progress', { progressToken: P, progress: 1, message: big() })], invariants: ['harness.unhandled'], options: pending, expectation: judgedBy('progress.delivered') },
  { name: 'response-unknown-id', description: 'a result for an id the client never sent', frames: [result(42)], invariants: ['rpc.response-matches-request'], options: pending, expectation: judgedBy('rpc.response-matches-request') },
  { name: 'response-id-type-mismatch', description: `a result with id "${P}" (string) for the pending call ${P} (number)`, frames: [result(String(P))], invariants: ['rpc.response-matches-request'], options: pending, expectation: judgedBy('rpc.response-matches-request') },
  { name: 'second-response', description: 'two results for the pending call', frames: [result(P), result(P)], invariants: ['rpc.single-response'], options: pending, expectation: judgedBy('timeout.quiet-after-settle') },
  { name: 'late-response-after-cancel', description: 'the result arrives after the client cancelled the call (a legal race)', frames: [result(P)], invariants: ['cancel.late-response-silent'], options: { pendingCall: true, abortPendingCall: true }, expectation: judgedBy('cancel.late-response-silent') },
  { name: 'error-without-code', description: 'error response for the pending call without a code', frames: [{ jsonrpc: V, id: P, error: { message: 'rogue' } }], invariants: ['rpc.well-formed'], options: pending, expectation: judgedBy('rpc.response-matches-request') },
  { name: 'error-float-code', description: 'error response with code 1.5', frames: [{ jsonrpc: V, id: P, error: { code: 1.5, message: 'rogue' } }], invariants: ['rpc.well-formed'], options: pending, expectation: judgedBy('rpc.response-matches-request') },
  { name: 'error-id-null', description: 'error response with id null (parse-error style)', frames: [{ jsonrpc: V, id: null, error: { code: -32700, message: 'rogue' } }], invariants: ['rpc.response-matches-request'], options: pending, expectation: judgedBy('rpc.response-matches-request') },
  { name: 'error-without-id', description: 'error response with no id member', frames: [{ jsonrpc: V, error: { code: -32600, message: 'rogue' } }], invariants: ['rpc.response-matches-request'], options: pending, expectation: judgedBy('rpc.response-matches-request') },
  { name: 'result-not-object', description: 'result 42 for the pending call', frames: [result(P, 42)], invariants: ['rpc.well-formed'], options: pending, expectation: judgedBy('timeout.quiet-after-settle') },
  { name: 'result-wrong-shape', description: 'result {} (no content) for the pending tools/call', frames: [result(P, { content: 'not-an-array' })], invariants: ['rpc.well-formed'], options: pending, expectation: judgedBy('timeout.quiet-after-settle') },
  { name: 'request-id-null', description: 'roots/list with id null', frames: [request(null, 'roots/list')], invariants: ['rpc.request-id-type'], expectation: judgedBy() },
  { name: 'request-id-float', description: 'roots/list with id 2.5', frames: [request(2.5, 'roots/list')], invariants: ['rpc.request-id-type'], expectation: judgedBy() },
  { name: 'unknown-method-request', description: 'request for a method the client does not handle', frames: [request(1, 'rogue/no-such-method')], invariants: ['rpc.response-matches-request'], expectation: judgedBy('rpc.error-code') },
  { name: 'unknown-notification', description: 'notification nobody handles', frames: [notification('notifications/rogue')], invariants: ['rpc.no-reply-to-notification'], expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'notification-with-id', description: 'notifications/progress carrying an id (so a request)', frames: [request(9, 'notifications/progress', { progressToken: P, progress: 1 })], invariants: ['rpc.well-formed'], options: pending, expectation: judgedBy('rpc.error-code') },
  { name: 'params-not-object', description: 'roots/list with params "x"', frames: [request(1, 'roots/list', 'x')], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'batch-array', description: 'a JSON-RPC batch (array)', frames: [[request(1, 'roots/list'), notification('notifications/rogue')]], invariants: ['rpc.well-formed', 'rpc.no-reply-to-notification'], expectation: judgedBy('rpc.response-matches-request') },
  { name: 'empty-object', description: '{}', frames: [{}], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'non-object-number', description: 'the number 42 as a frame', frames: [42], invariants: ['rpc.well-formed'], expectation: judgedBy('rpc.error-code') },
  { name: 'cancel-unknown-id', description: 'cancel naming an id the server never sent', frames: [cancel(12345)], invariants: ['cancel.in-flight-only', 'rpc.no-reply-to-notification'], expectation: judgedBy('rpc.no-reply-to-notification') },
  { name: 'cancel-in-flight', description: 'well-formed cancel of a hanging sampling request (control case)', frames: [cancel('s1')], invariants: ['cancel.handler-aborted'], options: { setup: [samplingCall('s1')] }, expectation: judgedBy('cancel.handler-aborted', 'cancel.no-response-after') },
  { name: 'cancel-id-0', description: 'cancel of an in-flight sampling request whose id is 0', frames: [cancel(0)], invariants: ['cancel.handler-aborted'], options: { setup: [samplingCall(0)] }, expectation: judgedBy('cancel.handler-aborted', 'cancel.no-response-after') },
  { name: 'cancel-without-request-id', description: 'notifications/cancelled with no requestId', frames: [notification('notifications/cancelled', {})], invariants: ['cancel.well-formed', 'rpc.no-reply-to-notification'], options: { setup: [samplingCall('s1')] }, expectation: judgedBy('rpc.no-reply-to-notification') },
];

/** Every rogue kind, server attacks first. */
export const rogueKinds: readonly RogueKind[] = [
  ...serverKinds.map((k) => ({ ...k, target: 'server' as const })),
  ...clientKinds.map((k) => ({ ...k, target: 'client' as const })),
];
