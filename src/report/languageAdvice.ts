import type { InvariantId } from '../model/invariants.ts';
import { SERVER_LANGUAGES, type ServerLanguage } from '../targets/serverLanguage.ts';

/**
 * What to change, in the language the server is written in, for each finding a user's server
 * can get from outside (a process or a URL: `JUDGED_ON_A_REAL_CLOCK.server` but what only a test
 * bed's side channel shows). One table, so that a language or an id added is added here, and a
 * test checks every (language, id) pair it claims. `any` is the advice when the language is not
 * known (a URL mcp-sim did not start, a binary nothing tells).
 *
 * The fixes name each SDK's own API: Python `mcp` (`MCPServer`, v1's `FastMCP`, and its
 * `Context`), the Go SDK (`mcp.AddTool`, `req.Session`), Rust `rmcp` (`#[tool]`, the request's
 * `CancellationToken`, `Peer`), the Java SDK (`McpSyncServerExchange`, `CallToolRequest`) and
 * the TypeScript SDK (1.x `extra`, 2.x `ctx.mcpReq`).
 */
export type AdviceLanguage = ServerLanguage | 'any';

export const ADVICE_LANGUAGES: readonly AdviceLanguage[] = [...SERVER_LANGUAGES, 'any'];

/** How each language is named in a report. */
export const LANGUAGE_NAMES: Readonly<Record<AdviceLanguage, string>> = { python: 'Python', go: 'Go', rust: 'Rust', java: 'Java', typescript: 'TypeScript', any: 'any language' };

type Fixes = Readonly<Record<AdviceLanguage, string>>;

/** The SDK's own transport frames these: a server on an SDK gets them from the SDK (update it), a hand-written transport from its author. */
const transport = (what: string): Fixes => ({
  python: `${what} The \`mcp\` package's stdio and Streamable HTTP transports do this for you: if the server writes JSON-RPC or serves HTTP by hand, fix that code, else update \`mcp\` and report it to the SDK.`,
  go: `${what} The go-sdk's \`mcp.StdioTransport\` and \`mcp.NewStreamableHTTPHandler\` do this for you: if the server writes JSON-RPC or serves HTTP by hand, fix that code, else update the go-sdk and report it to the SDK.`,
  rust: `${what} rmcp's \`transport::stdio\` and \`StreamableHttpService\` do this for you: if the server writes JSON-RPC or serves HTTP by hand, fix that code, else update rmcp and report it to the SDK.`,
  java: `${what} The Java SDK's \`StdioServerTransportProvider\` and servlet transports do this for you: if the server writes JSON-RPC or serves HTTP by hand (its own transport provider), fix that code, else update the SDK and report it.`,
  typescript: `${what} The SDK's \`StdioServerTransport\` and \`StreamableHTTPServerTransport\` do this for you: if the server writes JSON-RPC or serves HTTP by hand, fix that code, else update the SDK and report it.`,
  any: `${what} An official SDK's transports do this for you: if the server writes JSON-RPC or serves HTTP by hand, fix that code, else update the SDK.`,
});

/** Where each language's logs go so that stdout carries only JSON-RPC: `rpc.well-formed` and the early refusal of a stdio server that logs to stdout. */
export const STDOUT_LOGS: Fixes = {
  python: 'logs belong on stderr: `print(..., file=sys.stderr)` or `logging` (its default handler writes to stderr); Python buffers `print` on a pipe, so the line may reach stdout long after the code that printed it (at exit, or once 8 KB are buffered)',
  go: 'logs belong on stderr: `log.Printf` (the default logger writes to stderr) or `fmt.Fprintln(os.Stderr, ...)`, never `fmt.Println`',
  rust: 'logs belong on stderr: `eprintln!`, or `tracing_subscriber::fmt().with_writer(std::io::stderr)`, never `println!`',
  java: 'logs belong on stderr: `System.err.println`, or a logger whose appender writes to `System.err` (logback\'s `ConsoleAppender` with `<target>System.err</target>`), never `System.out`',
  typescript: 'logs belong on stderr: `console.error` (or a logger writing to `process.stderr`), never `console.log`',
  any: 'logs belong on stderr: stdout carries the JSON-RPC frames and nothing else',
};

export const LANGUAGE_ADVICE: Readonly<Partial<Record<InvariantId, Fixes>>> = {
  'rpc.well-formed': STDOUT_LOGS,
  'rpc.response-matches-request': transport('Answer only requests the client sent, each with its own id.'),
  'rpc.single-response': transport('Answer each request once.'),
  'rpc.error-code': transport('Answer a request you cannot take with the JSON-RPC error code that says why (-32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid params).'),
  'rpc.survives-bad-input': transport('Stay up whatever the client writes: answer a malformed frame with an error, never exit or close the connection on it.'),
  'progress.token-requested': {
    python: 'send progress only through `await ctx.report_progress(done, total)`: the SDK sends it only when the request carried `_meta.progressToken`, with that token; never `ctx.session.send_progress_notification` with a token of your own.',
    go: 'send progress only when `req.Params.GetProgressToken()` is not nil, with that token: `req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: ..., Total: ...})`; never a token of your own.',
    rust: 'send progress only when the request\'s `Meta` has a token (`meta.get_progress_token()`), with that token: `peer.notify_progress(ProgressNotificationParam { progress_token, .. })`; never a `ProgressToken` of your own.',
    java: 'send progress only when the request carried a token (`request.progressToken()` is not null), with that token: `exchange.progressNotification(new ProgressNotification(token, done, total, message))`; never a token of your own.',
    typescript: 'send progress only with `extra._meta?.progressToken` (2.x: `ctx.mcpReq._meta?.progressToken`), and only when the request carried one.',
    any: 'send progress only for a request that carried `_meta.progressToken`, with that token.',
  },
  'progress.increasing': {
    python: 'report a count that grows, `await ctx.report_progress(i, total)` (`i` of `total` items done), not a rounded percentage: `round(i / n * 100)` repeats once there are more than 100 items; skip a report whose value did not grow.',
    go: 'send the count, `Progress: float64(i), Total: float64(n)`, not `int(100*i/n)`: an integer percentage repeats once there are more than 100 items; skip a report whose value did not grow.',
    rust: 'send the count, `progress: i as f64, total: Some(n as f64)`, not `i * 100 / n`: an integer percentage repeats once there are more than 100 items; skip a report whose value did not grow.',
    java: 'send the count, `new ProgressNotification(token, (double) i, (double) n, message)`, not `(int) (i * 100.0 / n)`: an integer percentage repeats once there are more than 100 items; skip a report whose value did not grow.',
    typescript: 'send the count, `progress: i, total: n`, not `Math.floor(i / n * 100)`: an integer percentage repeats once there are more than 100 items; skip a report whose value did not grow.',
    any: 'send a progress value that grows with every notification (the count of items done), not a rounded percentage, which repeats once there are more than 100 items.',
  },
  'progress.total-stable': {
    python: 'count the work first and pass the same `total` to every `ctx.report_progress(i, total)`; when it is not known, leave it out (`ctx.report_progress(i)`) rather than change it.',
    go: 'count the work first and send the same `Total` in every `NotifyProgress`; when it is not known, leave `Total` at 0 (omitted) rather than change it.',
    rust: 'count the work first and send the same `total: Some(n)` in every `notify_progress`; when it is not known, send `total: None` rather than change it.',
    java: 'count the work first and send the same `total` in every `ProgressNotification`; when it is not known, pass `null` rather than change it.',
    typescript: 'count the work first and send the same `total` in every progress notification; when it is not known, leave `total` out rather than change it.',
    any: 'announce one total and keep it; when it is not known, leave it out rather than change it.',
  },
  'progress.after-response': {
    python: 'await every `ctx.report_progress(...)` before the tool returns; no `asyncio.create_task` or background thread that reports after the result.',
    go: 'send every `NotifyProgress` before the handler returns; no goroutine (or `context.WithoutCancel`) that reports after the result.',
    rust: 'await every `notify_progress` before returning `Ok(CallToolResult)`; no detached `tokio::spawn` that reports after the result.',
    java: 'send every `exchange.progressNotification(...)` before the handler returns; no `CompletableFuture.runAsync` or executor task that reports after the result.',
    typescript: 'await every progress notification before returning; no promise or timer left running that reports after the result.',
    any: 'send every progress notification before the result; nothing left running reports after it.',
  },
  'progress.after-cancel': {
    python: 'a plain `def` tool runs in a worker thread the cancel cannot stop: make it `async def` and `await` its work (`await anyio.sleep(...)`, an async HTTP client), so the SDK\'s cancellation raises at the next `await`; never catch `BaseException` or `asyncio.CancelledError` without raising it again. Blocking work that must stay in a thread: end it yourself between steps.',
    go: 'pass the handler\'s `ctx` to the work and `select` on `ctx.Done()` around each wait (`select { case <-ctx.Done(): return nil, nil, ctx.Err(); case <-time.After(d): }`); never `context.Background()` for the call\'s work, and never retry `context.Canceled`.',
    rust: 'take the request\'s `CancellationToken` (`ct`) and race each await against it: `tokio::select! { _ = ct.cancelled() => return Err(...), r = work => r? }`; a `tokio::spawn`ed task needs the token too (`ct.child_token()`).',
    java: 'the Java SDK (2.1.0) ignores `notifications/cancelled`: a handler is never told of a cancel, so on a plain `McpServer` every tool that reports progress gets this finding, and the SDK\'s, not your code\'s, until you wire the cancel yourself (a transport wrapper that reads `notifications/cancelled`, interrupts the handler\'s thread and drops its answer). With that: keep the work interruptible on the handler\'s thread (`Thread.sleep`, `Future.get`) and let `InterruptedException` end it (no `catch (Exception e)` that carries on); with the async API, return a `Mono` that stops when it is cancelled (`Mono.fromCallable(...).doOnCancel(...)`, no `subscribe()` of your own).',
    typescript: 'pass `extra.signal` (2.x: `ctx.mcpReq.signal`) to the work (`fetch(url, { signal })`) and check `signal.throwIfAborted()` between steps.',
    any: 'stop the work when the cancel arrives: pass the request\'s cancellation (signal, context, token) to every wait of the work.',
  },
  'progress.reaches-requester': transport('Send a request\'s progress where its requester reads it (on its own POST stream while that is open).'),
  'cancel.no-response-after': {
    python: 'let the cancellation end the tool: do not catch `BaseException`, `asyncio.CancelledError` or `anyio.get_cancelled_exc_class()` and return a result; raise it again.',
    go: 'once `ctx.Done()` fired, return `nil, nil, ctx.Err()` and stop; do not retry `context.Canceled` or turn it into a result.',
    rust: 'once `ct.is_cancelled()`, return `Err(McpError::...)` and stop; do not swallow the cancel and return `Ok(CallToolResult)`.',
    java: 'the Java SDK (2.1.0) ignores `notifications/cancelled` and writes whatever the handler returns, so on a plain `McpServer` every cancelled call is answered: the SDK\'s gap, not your code\'s, until you wire the cancel yourself (a transport wrapper that reads `notifications/cancelled`, interrupts the handler\'s thread and drops the cancelled id\'s answer). With that: stop when the thread is interrupted and throw; do not catch the `InterruptedException` and return a `CallToolResult`.',
    typescript: 'let the abort end the tool: `catch (e) { if (extra.signal.aborted) throw e; ... }` (2.x: `ctx.mcpReq.signal`) instead of returning a result.',
    any: 'once the cancel arrived, send no answer for the request: let the cancellation end the handler.',
  },
  'lifecycle.close-settles': {
    python: 'when the connection closes, every tool must end: `await` its work (the SDK cancels the handlers then) and write nothing after it.',
    go: 'when the connection closes, every handler must end: select on `ctx.Done()` (the SDK cancels each handler\'s ctx then) and send nothing after it.',
    rust: 'when the connection closes, every tool must end: race its awaits against `ct.cancelled()` and send nothing after it.',
    java: 'when the connection closes, every handler must end and send nothing more: interrupt-aware work, and no executor task that outlives the session.',
    typescript: 'when the connection closes, every handler must end: watch `extra.signal` (2.x: `ctx.mcpReq.signal`) and send nothing after it.',
    any: 'when the connection closes, end every handler and send nothing more on it.',
  },
  'lifecycle.stdio-exit': {
    python: 'exit when stdin closes: return from `main` once `mcp.run()` returns, with no non-daemon thread or executor left (`daemon=True`, `executor.shutdown(wait=False, cancel_futures=True)`), and no traceback on stderr.',
    go: 'exit when stdin closes: return from `main` once `server.Run(ctx, &mcp.StdioTransport{})` returns; do not wait on goroutines that ignore their context.',
    rust: 'exit when stdin closes: end `main` once `service.waiting().await` returns; abort spawned tasks (`JoinHandle::abort`) instead of awaiting them.',
    java: 'exit when stdin closes: `shutdownNow()` every executor you created (or use daemon threads) and call `System.exit(0)` once the transport closes.',
    typescript: 'exit when stdin closes: clear your intervals and close what you opened on `transport.onclose` (or `process.stdin.on(\'end\', ...)`), then let the process end.',
    any: 'exit by yourself, with code 0, soon after stdin closes: nothing of yours may keep the process alive.',
  },
  'liveness.call-settles': {
    python: 'every `await` of a tool must end: bound waits with `anyio.fail_after(...)` or `asyncio.timeout(...)`, never await a future nothing resolves, and report progress while long work goes on.',
    go: 'every wait must end: `select` on `ctx.Done()` next to every channel receive; never receive from a channel nothing sends on, and send progress while long work goes on.',
    rust: 'every await must end: race it against `ct.cancelled()` and a `tokio::time::timeout`; no `std::future::pending()`, and send progress while long work goes on.',
    java: 'every wait must end: no `join()` on a future nothing completes (`join` ignores interrupts); `get(timeout, unit)` and let `InterruptedException` end the call; send progress while long work goes on.',
    typescript: 'every promise a handler awaits must settle: reject it on the signal\'s `abort` event and time it out; send progress while long work goes on.',
    any: 'answer every call, or keep sending its progress while it works: a call silent past the bound looks stuck to its client.',
  },
  'http.exchange-completes': {
    python: 'every POST that carries a request must end, also when the request was cancelled: serve HTTP with `mcp.streamable_http_app()` (its POST ends after the answer or the cancel); a hand-written endpoint must end the response on a cancel too.',
    go: 'every POST that carries a request must end, also when the request was cancelled: serve with `mcp.NewStreamableHTTPHandler`; a hand-written handler that waits per request id must also wake on the cancel (or on `r.Context().Done()`).',
    rust: 'every POST that carries a request must end, also when the request was cancelled: serve with rmcp\'s `StreamableHttpService`; a hand-written axum handler that waits per request id must also wake on the cancel.',
    java: 'every POST that carries a request must end, also when the request was cancelled: use the SDK\'s servlet transports; a hand-written one that parks an `AsyncContext` per request id must also complete it on the cancel.',
    typescript: 'every POST that carries a request must end, also when the request was cancelled: use the SDK\'s `StreamableHTTPServerTransport`; a hand-written handler must also end the response on the cancel.',
    any: 'every POST that carries a request must end (a JSON body, or an SSE stream that closes), also when the request was cancelled.',
  },
  'rpc.frame-size': {
    python: 'keep each frame small: return large data as a resource link (or an `EmbeddedResource` the client fetches) or in pages, not one huge `TextContent`; never build a frame by hand without its newline.',
    go: 'keep each frame small: return large data as a `ResourceLink` or in pages, not one huge `TextContent`; never write to stdout yourself (the frame loses its newline).',
    rust: 'keep each frame small: return large data as a resource link or in pages, not one huge `Content::text`; never write to stdout yourself (the frame loses its newline).',
    java: 'keep each frame small: return large data as a resource link or in pages, not one huge `TextContent`; never write to `System.out` yourself (the frame loses its newline).',
    typescript: 'keep each frame small: return large data as a `resource_link` or in pages, not one huge `text` content; never write to `process.stdout` yourself (the frame loses its newline).',
    any: 'keep each frame under the client\'s bound (--max-frame-bytes): large data as a resource link or in pages; every stdio frame ends with a newline.',
  },
  'progress.rate-limited': {
    python: 'report progress at a human pace: at most every few hundred items or every 100 ms (`if time.monotonic() - last > 0.1: await ctx.report_progress(i, total)`), not once per item of a large loop.',
    go: 'report progress at a human pace: throttle `NotifyProgress` (a `time.Ticker`, or every Nth item), not once per item of a large loop.',
    rust: 'report progress at a human pace: throttle `notify_progress` (a `tokio::time::interval`, or every Nth item), not once per item of a large loop.',
    java: 'report progress at a human pace: throttle `exchange.progressNotification` (every Nth item, or at most every 100 ms), not once per item of a large loop.',
    typescript: 'report progress at a human pace: throttle `extra.sendNotification` for progress (every Nth item, or at most every 100 ms), not once per item of a large loop.',
    any: 'report progress at a human pace (at most about ten a second per call), not once per item of a large loop.',
  },
  'rpc.rate-limited': {
    python: 'log and notify at a human pace: `ctx.info` / `ctx.log` per step, not per item; put per-item detail in the result or on stderr.',
    go: 'log and notify at a human pace: `req.Session.Log` per step, not per item; put per-item detail in the result or on stderr.',
    rust: 'log and notify at a human pace: `peer.notify_logging_message` per step, not per item; put per-item detail in the result or on stderr.',
    java: 'log and notify at a human pace: `exchange.loggingNotification` per step, not per item; put per-item detail in the result or on stderr.',
    typescript: 'log and notify at a human pace: `sendLoggingMessage` per step, not per item; put per-item detail in the result or on stderr.',
    any: 'send notifications at a human pace (--max-notification-rate bounds them), not one per item of a large loop.',
  },
  'http.accepted-202': transport('Answer a POST of notifications or responses with 202 and no body.'),
  'http.related-on-request-stream': transport('Send a request\'s progress on its own POST stream while that is open, not on the GET stream.'),
  'http.session-deleted-404': transport('After a DELETE of a session, answer requests with its Mcp-Session-Id with 404.'),
  'http.session-required-400': transport('With sessions, answer a POST without an Mcp-Session-Id (other than initialize) with 400.'),
};

/** The fix for `invariant` in `language` (the language-neutral one when it is not known); undefined when the table has none. */
export function adviceFor(invariant: InvariantId, language: ServerLanguage | undefined): string | undefined {
  return LANGUAGE_ADVICE[invariant]?.[language ?? 'any'];
}

/** Each language's official SDK, as an author names it. */
const SDK_NAMES: Readonly<Record<AdviceLanguage, string>> = { python: 'the `mcp` package', go: 'the go-sdk', rust: 'rmcp', java: 'the Java SDK', typescript: '`@modelcontextprotocol/sdk`', any: 'the server\'s SDK' };

/**
 * The advice for a finding listed apart as the server SDK's way (`owner: sdk`): it is the SDK's,
 * not the author's code, so nothing in a tool changes it; update the SDK or report it there.
 */
export function sdkAdvice(language: ServerLanguage | undefined): string {
  return `this is ${SDK_NAMES[language ?? 'any']}'s own way, not your code: nothing in your tools changes it; update the SDK, or report it to its maintainers (the replay file shows it).`;
}
