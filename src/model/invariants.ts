/**
 * The invariant catalogue (`docs/invariants.md`) as data: ids are stable names used by findings,
 * baselines and reports. Spec sections are pages of revision 2025-11-25.
 */

export type Level = 'MUST' | 'SHOULD' | 'ADVICE' | 'DERIVED';

export interface Invariant {
  readonly id: string;
  readonly level: Level;
  /** Spec page under https://modelcontextprotocol.io/specification/2025-11-25/ */
  readonly section: string;
  readonly property: string;
  /**
   * The invariant blames an interleaving: its findings say that a race (a response and a cancel
   * crossing, say) caused a symptom. Such a finding is confirmed by a counterfactual run without
   * the race (`src/check/confirmBlame.ts`, judged by `blame.ts`); when the symptom stays, the
   * finding is reported as what it is instead.
   */
  readonly blamesInterleaving?: true;
  /**
   * Not judged by a rule on one trace: reported only in place of a blame that a counterfactual
   * run refuted (`blame.ts`).
   */
  readonly fromCounterfactual?: true;
}

type Flags = { readonly blamesInterleaving?: true; readonly fromCounterfactual?: true };

const table = [
  ['rpc.well-formed', 'MUST', 'basic/index', 'every frame is a valid JSON-RPC 2.0 request, notification, result or error'],
  ['rpc.request-id-type', 'MUST', 'basic/index', 'request ids are strings or integers, never null'],
  ['rpc.request-id-unique', 'MUST', 'basic/index', 'a sender never reuses a request id within a session'],
  ['rpc.request-id-outstanding', 'MUST', 'basic/index', 'revision 2026-07-28 only (no sessions): a sender never reuses the id of one of its requests still outstanding (sent, unanswered, its stream not closed by the sender); reuse after it settled is fine'],
  ['rpc.response-matches-request', 'MUST', 'basic/index', 'every response answers a request that the responder received from its peer'],
  ['rpc.single-response', 'DERIVED', 'basic/index', 'at most one response per request'],
  ['rpc.no-reply-to-notification', 'MUST', 'basic/index', 'no response is ever caused by a notification (cancel/progress included, malformed too)'],
  ['rpc.routing', 'DERIVED', 'basic/index', 'responses and notifications for a request leave on the connection/session that carried it (one server, several clients)'],
  ['rpc.method-defined', 'MUST', 'basic/index', 'every request and notification names a method the negotiated protocol revision defines for its sender, and a cancellation or progress notification has its shape (requestId; progressToken and numeric progress)'],
  ['rpc.params-preserved', 'DERIVED', 'basic/index', 'the request on the wire carries the caller\'s params and _meta unchanged, plus the progress token when one was asked for'],
  ['rpc.error-code', 'SHOULD', 'basic/index', 'a request a side cannot take is answered with the JSON-RPC 2.0 error code that says why: -32700 parse error (a line that is not JSON), -32600 invalid request (not a request object: no jsonrpc "2.0", no string method, not an object; id null when it has none), -32601 method not found (a method no revision defines as a request of its sender), -32602 invalid params (tools/call without a name; params that are no object may be -32600 or -32602)'],
  ['rpc.survives-bad-input', 'DERIVED', 'basic/utilities/ping', 'whatever frames its peer wrote, well-formed or not, a side stays usable: it answers a ping on the same connection (or session), neither closes that connection by itself nor exits, nor hangs'],
  ['rpc.frame-size', 'DERIVED', 'basic/transports', 'black box: every frame a server writes fits the bound a client reads (--max-frame-bytes): a larger one (a stdio line, an SSE event, a JSON body) is cut at the bound, never buffered whole, and lost to its request'],
  ['rpc.rate-limited', 'SHOULD', 'server/utilities/logging', 'black box: a server rate-limits the messages it sends outside a request\'s progress ("servers SHOULD rate limit log messages"): no stream of them (one method\'s notifications or requests, lines that are not JSON-RPC) goes past --max-notification-rate a second, sustained, nor --max-notifications a minute'],
  ['progress.token-requested', 'MUST', 'basic/utilities/progress', 'progress only names a token that came in a request the sender received and is still processing; never a self-made token, never a token of another request'],
  ['progress.after-response', 'MUST', 'basic/utilities/progress', 'no progress for a request after its response was sent'],
  ['progress.increasing', 'MUST', 'basic/utilities/progress', 'per token, progress strictly increases (equal values are a violation)'],
  ['progress.token-unique', 'MUST', 'basic/utilities/progress', 'a requester\'s active progress tokens are pairwise distinct'],
  ['progress.total-stable', 'ADVICE', 'basic/utilities/progress', 'once announced, total does not change (a client\'s bar jumps back otherwise)'],
  ['progress.delivered', 'DERIVED', 'basic/utilities/progress', 'every progress notification the requester received before the response reaches the caller\'s onprogress; none reaches it after the call settled, and a call\'s onprogress gets only progress its own request\'s token carried'],
  ['progress.reaches-requester', 'DERIVED', 'basic/utilities/progress', 'a progress a handler emits for an open request with a token reaches the requester by quiescence, unless the connection closed or the requester gave the request up first (memory link; Streamable HTTP states its own drops)'],
  ['progress.after-cancel', 'SHOULD', 'basic/utilities/cancellation', 'black box: once the cancel reached the receiver, it sends no more progress for the request beyond what was in flight (one right after the cancel\'s receipt may be caught between its check and its send; over stdio a second one, or one later than the in-flight bound after the receipt, counts); what reached the wire, also where a test bed shows the handler (its steps after the abort are cancel.zombie-work)'],
  ['progress.rate-limited', 'SHOULD', 'basic/utilities/progress', 'black box: a sender rate-limits its progress notifications ("both parties SHOULD implement rate limiting to prevent flooding"), read with the bound a client keeps: one request\'s progress never goes past --max-notification-rate a second, sustained, nor --max-notifications in all (past it mcp-sim counts them, records none one by one)'],
  ['progress.race-silent', 'SHOULD', 'basic/utilities/progress', 'a late progress (after response, cancel or timeout) is dropped without an error callback'],
  ['cancel.in-flight-only', 'MUST', 'basic/utilities/cancellation', 'a cancellation names a request the canceller issued and still believes in progress (never one whose response it has, never twice)'],
  ['cancel.not-initialize', 'MUST', 'basic/utilities/cancellation', 'the client never cancels initialize (also not on timeout or an aborted connect)'],
  ['cancel.well-formed', 'MUST', 'basic/utilities/cancellation', 'method is notifications/cancelled, params.requestId present for non-task requests'],
  ['cancel.no-response-after', 'SHOULD', 'basic/utilities/cancellation', 'a receiver that got the cancel while the request was open sends no response for it'],
  ['cancel.handler-aborted', 'SHOULD', 'basic/utilities/cancellation', 'delivering the cancel aborts the receiving handler\'s signal, for every id value'],
  ['cancel.zombie-work', 'SHOULD', 'basic/utilities/cancellation', 'after the abort, the handler stops within bounded virtual time: no more downstream calls, progress attempts or new timers'],
  ['cancel.reaches-work', 'ADVICE', 'basic/utilities/cancellation', 'a fetch a handler has under way when its signal aborts is aborted with it (the handler passed its signal on), so the cancellation stops the real work'],
  ['cancel.abort-swallowed', 'ADVICE', 'basic/utilities/cancellation', 'the handler does not return a normal result after its signal aborted (a swallowed AbortError); on a hosted server, its tool callback does not return (a result or an isError one) after an abort reached it: a signal-aware call rejected with the abort, throwIfAborted() threw, or an abort listener it registered ran'],
  ['cancel.never-ends', 'SHOULD', 'basic/utilities/cancellation', 'a handler whose signal aborted (its request cancelled, timed out, or its connection closed) ends, throwing or returning, by quiescence: one still running then awaits what nothing will settle and holds its request forever (judged on hosted servers, `mcp-sim fuzz`)'],
  ['cancel.late-response-silent', 'SHOULD', 'basic/utilities/cancellation', 'a response arriving after the caller cancelled neither resolves the call nor raises an error callback'],
  ['cancel.abort-sends-cancel', 'SHOULD', 'basic/utilities/cancellation', 'a caller aborting the signal of a request in flight (sent, unanswered, connection open, not initialize) makes the requester send its cancellation in that same step'],
  ['cancel.race-graceful', 'MUST', 'basic/utilities/cancellation', 'every order of {response, cancel} leaves the session usable: no crash, no duplicate response, the next request succeeds', { blamesInterleaving: true }],
  ['cancel.same-session', 'DERIVED', 'basic/utilities/cancellation', 'a cancellation reaches only a request its sender issued on that connection (session): a cancel arriving on one session never aborts the handler of another session\'s request, even one with the same id'],
  ['timeout.settles', 'SHOULD', 'basic/lifecycle#timeouts', 'every call settles at the caller within its timeout bound of virtual time, whatever the peer does'],
  ['timeout.sends-cancel', 'SHOULD', 'basic/lifecycle#timeouts', 'a timed-out request is followed promptly by its cancellation (except initialize)'],
  ['timeout.reset-on-progress', 'DERIVED', 'basic/lifecycle#timeouts', 'with reset-on-progress on, each progress moves the deadline to progress time + timeout; with it off, progress changes nothing'],
  ['timeout.max-total', 'SHOULD', 'basic/lifecycle#timeouts', 'with a maximum total timeout set, the call settles by send time + maximum, progress or not, and the cancel goes out then'],
  ['timeout.quiet-after-settle', 'DERIVED', 'basic/lifecycle#timeouts', 'after a call settled, none of its callbacks (onprogress, resolve/reject) run again'],
  ['lifecycle.close-settles', 'DERIVED', 'basic/lifecycle', 'on close every pending call rejects, every in-flight handler is aborted, nothing more is sent on the closed connection'],
  ['lifecycle.reconnect-isolation', 'DERIVED', 'basic/lifecycle', 'after close and reconnect, nothing of the old connection (timers, cancels, responses, handlers) reaches the new one'],
  ['lifecycle.close-once', 'DERIVED', 'basic/lifecycle', 'each side observes its close exactly once (a transport that closed without its side ever observing it is zero times)'],
  ['lifecycle.stdio-exit', 'SHOULD', 'basic/transports#stdio', 'black box: after stdin EOF a stdio server exits by itself within the grace period, with exit code 0 and no crash or stack trace on stderr'],
  ['lifecycle.stdio-close-ends-server', 'SHOULD', 'basic/lifecycle#shutdown', 'black box, a client under test: over stdio a client that closes shuts its server down: the server\'s stdin ends (or it is signalled) by the in-flight bound after the close returned, not only when the client process exits'],
  ['lifecycle.init-first', 'MUST', 'basic/lifecycle', 'initialization is the first interaction of every connection: the client\'s first request on each (re)connection is initialize, and it sends no other request but pings before notifications/initialized'],
  ['lifecycle.session-usable', 'DERIVED', 'basic/lifecycle', 'a session no caller closed stays usable without any race: in the natural order no call fails because the connection is gone and no side closes by itself (reported where a race was blamed for it and the natural order shows it too)', { fromCounterfactual: true }],
  ['http.exchange-completes', 'MUST', 'basic/transports#streamable-http', 'every POST carrying a request ends: a JSON body, or an SSE stream that closes; also when the request was cancelled (the case of the seed issue)'],
  ['http.accepted-202', 'MUST', 'basic/transports#streamable-http', 'a POST of notifications or responses gets 202 with no body (or an HTTP error)'],
  ['http.single-stream', 'MUST', 'basic/transports#streamable-http', 'each server message goes out on exactly one stream (no broadcast; replays on resumption excepted)'],
  ['http.duplicate-inflight-id', 'DERIVED', 'basic/transports#streamable-http', 'two in-flight requests that share an id never leave a POST orphaned: the server rejects the second or answers both'],
  ['http.disconnect-not-cancel', 'SHOULD', 'basic/transports#streamable-http', 'a client dropping an SSE stream is not by itself a cancellation (revision 2025-11-25; inverted in 2026-07-28)'],
  ['http.stream-loss-fails-call', 'DERIVED', 'basic/transports#streamable-http', 'revision 2026-07-28 only (no resumability): a call whose request\'s response stream ended or broke at the client before its response fails in that step, not at its timeout (nothing else can bring the response)'],
  ['http.disconnect-cancels', 'MUST', 'basic/patterns/cancellation', 'revision 2026-07-28 only: a client closing a request\'s response stream is its cancellation: when the disconnect reaches the server, the handler of that request still running has its signal aborted in that step, with no notifications/cancelled needed'],
  ['http.stateless-server-request', 'ADVICE', 'basic/transports#streamable-http', 'a stateless Streamable HTTP server has no stream to the client outside a POST: a server-initiated request sent there fails with the connection-gone error, race or no race (reported where a race was blamed for it)', { fromCounterfactual: true }],
  ['http.close-ends-streams', 'DERIVED', 'basic/transports#session-management', 'closing the server transport of a session ends every SSE stream it holds open (POST streams and the GET stream), in the step of the close: a client must not wait on a stream of a session that is gone'],
  ['http.get-stream', 'MUST', 'basic/transports#listening-for-messages-from-the-server', 'a session\'s valid GET gets an SSE stream (or 405 when the server offers none); a 409 conflict only while another GET stream of that session is open'],
  ['http.error-fails-call', 'DERIVED', 'basic/transports#sending-messages-to-the-server', 'a POST carrying a request that is answered with an HTTP error status makes that call reject in the same step, not at its timeout'],
  ['http.related-on-request-stream', 'SHOULD', 'basic/transports#listening-for-messages-from-the-server', 'a progress notification for a request whose POST is still open goes on that POST\'s stream, not on the standalone GET stream or another request\'s (GET stream messages SHOULD be unrelated to running requests)'],
  ['http.rejects-bad-input', 'MUST', 'basic/transports#streamable-http', 'an HTTP request the server cannot accept (a method it does not serve, an Accept or Content-Type the transport excludes, a body that is no JSON-RPC message, an unsupported MCP-Protocol-Version, a session it never gave, a second initialize) gets an HTTP error status (4xx), never a 2xx, a 5xx or no answer'],
  ['http.session-deleted-404', 'MUST', 'basic/transports#session-management', 'black box: once the server accepted the client\'s DELETE of its session, a request with that Mcp-Session-Id gets 404 Not Found'],
  ['http.close-deletes-session', 'SHOULD', 'basic/transports#session-management', 'black box, a client under test: a Streamable HTTP client that closes its session sends an HTTP DELETE with its Mcp-Session-Id, by the in-flight bound after the close returned'],
  ['http.session-required-400', 'SHOULD', 'basic/transports#session-management', 'black box: a server that runs sessions answers a POST without an Mcp-Session-Id header (other than initialize) with 400 Bad Request'],
  ['leak.correlation-maps', 'DERIVED', '(harness: quiescence)', 'with nothing in flight, every correlation map is empty: response handlers, progress handlers, timeout records, handler abort controllers, HTTP request→stream maps'],
  ['leak.timers', 'DERIVED', '(harness: quiescence)', 'no virtual timers remain except ones the scenario owns by design'],
  ['leak.abort-listeners', 'DERIVED', '(harness: quiescence)', 'listeners the SDK added to a caller\'s AbortSignal are removed once the call settled'],
  ['liveness.quiescent', 'DERIVED', '(harness: quiescence)', 'the run reaches quiescence within its step and virtual-time budgets'],
  ['liveness.call-settles', 'DERIVED', 'basic/lifecycle#timeouts', 'black box: slow is not stuck: a call the client neither cancelled nor timed out is never silent (no progress, no answer) for the real-time bound (--hang-after), and does not outlive the client\'s close'],
  ['liveness.handler-ends', 'DERIVED', '(harness: quiescence)', 'at quiescence every request handler has ended or was aborted'],
  ['harness.deterministic', 'MUST', '(harness)', 'the same seed gives the same trace hash'],
  ['harness.as-scripted', 'MUST', '(harness)', 'every scripted program runs as written on the SDK release: its calls\' methods and options, and each request reaching its scripted handler; what the release cannot do is reported, never passed over'],
  ['harness.unhandled', 'MUST', '(harness)', 'no exception or unhandled rejection escapes the system under test unnoticed: each one is reported with the step that caused it'],
  ['harness.offline', 'SHOULD', '(harness)', 'a hosted server reaches no real process, socket or file during a run: each attempt is stopped and reported, so the run stays offline and deterministic'],
  ['harness.globals-restored', 'MUST', '(harness)', 'after a run, timers, Date, random sources are the real ones again'],
] as const;

export type InvariantId = (typeof table)[number][0];

export const invariants: ReadonlyMap<InvariantId, Invariant> = new Map(
  table.map((row) => {
    const [id, level, section, property] = row;
    const flags: Flags = row.length > 4 ? (row as readonly unknown[])[4] as Flags : {};
    return [id, { id, level, section, property, ...flags }];
  }),
);

/** True when findings of `id` blame an interleaving and need a counterfactual to stand (`blamesInterleaving`). */
export function blamesInterleaving(id: InvariantId): boolean {
  return invariants.get(id)?.blamesInterleaving === true;
}

export function invariant(id: InvariantId): Invariant {
  return invariants.get(id)!;
}
