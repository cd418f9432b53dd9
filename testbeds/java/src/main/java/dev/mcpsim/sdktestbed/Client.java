package dev.mcpsim.sdktestbed;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * mcp-sim's Java SDK test-bed client (testbeds/CLIENT.md): runs one client script with the SDK's
 * ordinary async client ({@code McpClient.async}) against mcp-sim's scripted server, over the
 * SDK's stdio client transport ({@code StdioClientTransport}, spawning {@code server.stdio}) or
 * its Streamable HTTP client transport ({@code HttpClientStreamableHttpTransport}, to
 * {@code server.url}).
 *
 * <pre>
 * java -cp testbed.jar dev.mcpsim.sdktestbed.Client script.json
 * </pre>
 *
 * What the SDK offers a caller, and so what this client does:
 * <ul>
 * <li>abort: the {@code callTool} Mono's subscription is disposed (Reactor's cancel); the SDK
 * has no other cancellation, and this is all it sees;</li>
 * <li>timeout: the client's {@code requestTimeout}, one for every request of the client (the SDK
 * has no per-request timeout): the smallest {@code timeoutMs} of the script's calls, else 60 s;
 * no reset-on-progress, no maximum total;</li>
 * <li>progress: the builder's one progress consumer, for every call; a call asks for progress
 * with {@code _meta.progressToken} = its label (the SDK picks no token), and a progress event is
 * labelled by the notification's token;</li>
 * <li>sampling and elicitation: the builder's handlers (a Mono: {@code delayMs}, or never for
 * {@code hang}); the SDK gives a handler no request id and never cancels it;</li>
 * <li>roots: declared, answered by the SDK itself from the client's (empty) roots list: it has no
 * roots handler, so no delay, no hang and no server-request event for roots/list;</li>
 * <li>close: {@code closeGracefully()}.</li>
 * </ul>
 * Idle non-daemon threads (the stdio transport's executors, the HTTP client's) keep a JVM alive,
 * so the client ends with {@code System.exit}, 300 ms after {@code closed} is written.
 */
public final class Client {
    private static final long DEFAULT_TIMEOUT_MS = 60_000;
    private static final String NAME = "mcp-sim-client";

    private final McpJsonMapper json;
    private final Events events;
    private final long delayMs;
    private final boolean hang;
    private final Map<String, Call> calls = new ConcurrentHashMap<>();
    private final Object settled = new Object();
    private McpAsyncClient client;
    private CountDownLatch closing;

    /** One call of the script: its subscription (disposed by an abort) and its one call-end. */
    private static final class Call {
        final String label;
        final AtomicBoolean ended = new AtomicBoolean();
        volatile Disposable subscription;

        Call(String label) {
            this.label = label;
        }
    }

    /** One action of the script, as read (CLIENT.md, "The client script"). */
    private record Action(int index, String kind, String call, long atMs, boolean progress, Long timeoutMs) {
    }

    private Client(McpJsonMapper json, Events events, long delayMs, boolean hang) {
        this.json = json;
        this.events = events;
        this.delayMs = delayMs;
        this.hang = hang;
    }

    public static void main(String[] argv) {
        // Before any logger exists: the SDK logs to stderr, warnings only (kept as text by mcp-sim).
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        if (argv.length != 1) fail("usage: java -cp testbed.jar dev.mcpsim.sdktestbed.Client <script.json>", null);
        McpJsonMapper json = McpJsonDefaults.getMapper();
        Map<String, Object> script;
        try {
            script = asMap(json.readValue(Files.readString(Path.of(argv[0])), Map.class));
        } catch (Exception e) {
            fail("cannot read the client script " + argv[0], e);
            return;
        }
        int code;
        try {
            code = run(json, script);
        } catch (Exception e) {
            fail("the client failed", e);
            return;
        }
        System.exit(code);
    }

    private static int run(McpJsonMapper json, Map<String, Object> script) throws Exception {
        Map<String, Object> server = asMap(script.get("server"));
        Map<String, Object> policy = script.get("serverRequests") == null ? Map.of() : asMap(script.get("serverRequests"));
        long deadlineMs = number(script.get("deadlineMs"), 30_000L);
        List<Action> actions = new ArrayList<>();
        List<?> raw = script.get("actions") instanceof List<?> list ? list : List.of();
        for (int i = 0; i < raw.size(); i++) {
            Map<String, Object> a = asMap(raw.get(i));
            String kind = String.valueOf(a.get("kind"));
            if (!List.of("call", "abort", "close").contains(kind)) throw new IllegalArgumentException("action " + i + ": unknown kind " + kind);
            if (!"close".equals(kind) && !(a.get("call") instanceof String)) throw new IllegalArgumentException("action " + i + ": no call label");
            Long timeout = a.get("timeoutMs") == null ? null : number(a.get("timeoutMs"), 0L);
            actions.add(new Action(i, kind, (String) a.get("call"), number(a.get("atMs"), 0L), Boolean.TRUE.equals(a.get("progress")), timeout));
        }
        // In order of atMs, equal times in list order (List.sort is stable).
        actions.sort(Comparator.comparingLong(Action::atMs));

        Client self = new Client(json, new Events(json, System.err), number(policy.get("delayMs"), 0L), Boolean.TRUE.equals(policy.get("hang")));
        return self.play(server, actions, deadlineMs);
    }

    private int play(Map<String, Object> server, List<Action> actions, long deadlineMs) throws Exception {
        long timeoutMs = requestTimeout(actions);
        warmUp();
        McpClientTransport transport = transport(server);
        client = McpClient.async(transport)
            .clientInfo(new Implementation(NAME, version()))
            .requestTimeout(Duration.ofMillis(timeoutMs))
            .capabilities(ClientCapabilities.builder().roots(false).sampling().elicitation().build())
            .sampling(request -> serve(McpSchema.METHOD_SAMPLING_CREATE_MESSAGE,
                new CreateMessageResult(McpSchema.Role.ASSISTANT, new McpSchema.TextContent("ok"), "mcp-sim", CreateMessageResult.StopReason.END_TURN)))
            .elicitation(request -> serve(McpSchema.METHOD_ELICITATION_CREATE, new ElicitResult(ElicitResult.Action.ACCEPT, Map.of())))
            .progressConsumer(this::progress)
            .build();
        try {
            client.initialize().block(Duration.ofSeconds(30));
        } catch (Exception e) {
            note("cannot connect and initialize: " + describe(e));
            client.close();
            return 1;
        }
        long ready = System.nanoTime();
        emit("ready", Map.of());

        for (Action action : actions) {
            long wait = action.atMs() - elapsedMs(ready);
            if (wait > 0) Thread.sleep(wait);
            switch (action.kind()) {
                case "call" -> call(action, timeoutMs);
                case "abort" -> abort(action.call());
                case "close" -> close();
                default -> throw new IllegalStateException(action.kind());
            }
        }
        // Every call settled, or the deadline; then the client is closed (if no action closed it),
        // 200 ms later (CLIENT.md: a cancel the SDK sends in the background gets out first).
        long deadline = ready + TimeUnit.MILLISECONDS.toNanos(deadlineMs);
        awaitSettled(deadline);
        if (closing == null) {
            Thread.sleep(200);
            close();
        }
        // A close that does not return by deadlineMs + 1 s: exit 0 without `closed` (the finding).
        long closeDeadline = deadline + TimeUnit.SECONDS.toNanos(1);
        if (!closing.await(Math.max(0, closeDeadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            note("closeGracefully did not return by deadlineMs + 1 s");
            return 0;
        }
        // The close settles every pending call at once (the session errors its pending responses).
        awaitSettled(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200));
        for (Call call : calls.values()) {
            if (!call.ended.get()) note("call " + call.label + " did not settle by the close");
        }
        emit("closed", Map.of());
        // A stdio server the close left running shows it now: its input ends only at the exit.
        Thread.sleep(300);
        return 0;
    }

    /**
     * The SDK's timeout is the client's requestTimeout, one for all its requests: the smallest
     * timeoutMs of the script's calls (a call with another gets this one: noted), else 60 s.
     */
    private long requestTimeout(List<Action> actions) {
        Long smallest = null;
        for (Action a : actions) {
            if ("call".equals(a.kind()) && a.timeoutMs() != null && (smallest == null || a.timeoutMs() < smallest)) smallest = a.timeoutMs();
        }
        long chosen = smallest == null ? DEFAULT_TIMEOUT_MS : Math.max(1, smallest);
        for (Action a : actions) {
            if ("call".equals(a.kind()) && (a.timeoutMs() == null ? chosen != DEFAULT_TIMEOUT_MS : a.timeoutMs() != chosen)) {
                note("call " + a.call() + ": timeoutMs " + (a.timeoutMs() == null ? "absent" : a.timeoutMs()) + ", but the SDK's requestTimeout is client-wide: "
                    + chosen + " ms");
            }
        }
        return chosen;
    }

    private McpClientTransport transport(Map<String, Object> server) {
        if (server.get("stdio") instanceof List<?> argv && !argv.isEmpty()) {
            List<String> args = argv.stream().map(String::valueOf).toList();
            ServerParameters params = ServerParameters.builder(args.get(0)).args(args.subList(1, args.size())).build();
            return new StdioClientTransport(params, json);
        }
        if (server.get("url") instanceof String url) {
            URI uri = URI.create(url);
            String base = uri.getScheme() + "://" + uri.getRawAuthority();
            String endpoint = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            return HttpClientStreamableHttpTransport.builder(base).endpoint(endpoint).jsonMapper(json).build();
        }
        throw new IllegalArgumentException("server: {\"stdio\": [argv...]} or {\"url\": \"http://...\"} expected");
    }

    /**
     * The requestTimeout covers initialize too, and a cold JVM's first JSON-RPC round trip
     * (Jackson's first McpSchema (de)serialization) takes more than 100 ms: the frames of an
     * initialize, a call and a progress notification are read and written once here, before the
     * transport exists, so a script's short timeout does not time the initialize out.
     */
    private void warmUp() {
        String[] frames = {
            "{\"jsonrpc\":\"2.0\",\"id\":\"w-0\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"roots\":{\"listChanged\":false},\"sampling\":{},\"elicitation\":{}},\"clientInfo\":{\"name\":\"w\",\"version\":\"1\"}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"w-0\",\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"w\",\"version\":\"1\"}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"w-1\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"w\",\"progress\":1,\"total\":2}}",
        };
        try {
            for (String frame : frames) {
                McpSchema.JSONRPCMessage message = McpSchema.deserializeJsonRpcMessage(json, frame);
                json.writeValueAsString(message);
                if (message instanceof McpSchema.JSONRPCResponse response && response.result() instanceof Map<?, ?> result) {
                    if (result.containsKey("protocolVersion")) json.writeValueAsString(json.convertValue(result, McpSchema.InitializeResult.class));
                    else json.writeValueAsString(json.convertValue(result, CallToolResult.class));
                }
                if (message instanceof McpSchema.JSONRPCNotification notification) json.convertValue(notification.params(), ProgressNotification.class);
            }
        } catch (Exception e) {
            note("warm-up failed (nothing else changes): " + describe(e));
        }
    }

    // ---- the caller's actions ----

    private void call(Action action, long timeoutMs) {
        Call call = new Call(action.call());
        if (calls.putIfAbsent(call.label, call) != null) {
            note("call " + call.label + " is started twice: the second is left out");
            return;
        }
        Map<String, Object> arguments = Map.of("call", call.label);
        // The SDK picks no progress token: the request carries the label as its _meta.progressToken.
        Map<String, Object> meta = action.progress() ? Map.of("progressToken", call.label) : null;
        CallToolRequest request = new CallToolRequest("run", arguments, meta);
        emit("call-start", fields("call", call.label));
        call.subscription = client.callTool(request).subscribe(
            result -> ended(call, resultFields(result)),
            error -> ended(call, errorFields(error)),
            () -> ended(call, fields("outcome", "other", "message", "callTool completed without a result")));
    }

    /** The caller's abort: the callTool Mono's subscription disposed, all the SDK offers. */
    private void abort(String label) {
        emit("abort", fields("call", label));
        Call call = calls.get(label);
        if (call == null) {
            note("abort of " + label + ", a call not started");
            return;
        }
        Disposable subscription = call.subscription;
        if (subscription != null) subscription.dispose();
        // A disposed subscription gets no signal: the call has returned, aborted, here.
        ended(call, fields("outcome", "aborted", "message", "the callTool subscription was disposed"));
    }

    private void close() {
        emit("close", Map.of());
        CountDownLatch done = new CountDownLatch(1);
        closing = done;
        client.closeGracefully().subscribe(ignored -> {
        }, error -> {
            note("closeGracefully failed: " + describe(error));
            done.countDown();
        }, done::countDown);
    }

    // ---- what the SDK delivers ----

    private void ended(Call call, Map<String, Object> fields) {
        if (!call.ended.compareAndSet(false, true)) return;
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("call", call.label);
        line.putAll(fields);
        emit("call-end", line);
        synchronized (settled) {
            settled.notifyAll();
        }
    }

    private static Map<String, Object> resultFields(CallToolResult result) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("outcome", "result");
        if (result != null && Boolean.TRUE.equals(result.isError())) fields.put("isError", true);
        return fields;
    }

    /**
     * The SDK's one error channel, classified: Reactor's TimeoutException (the requestTimeout),
     * McpError with a JSON-RPC error (the server's), the RuntimeException the session gives every
     * pending request when it closes ("MCP session with server terminated"), a closed transport.
     */
    private static Map<String, Object> errorFields(Throwable error) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TimeoutException) {
                fields.put("outcome", "timeout");
                fields.put("message", describe(error));
                return fields;
            }
            if (t instanceof McpError mcp && mcp.getJsonRpcError() != null) {
                fields.put("outcome", "error");
                fields.put("code", mcp.getJsonRpcError().code());
                fields.put("message", String.valueOf(mcp.getJsonRpcError().message()));
                return fields;
            }
            String message = String.valueOf(t.getMessage());
            if (message.contains("MCP session with server terminated") || t.getClass().getSimpleName().equals("McpTransportSessionClosedException")) {
                fields.put("outcome", "closed");
                fields.put("message", describe(error));
                return fields;
            }
        }
        fields.put("outcome", "other");
        fields.put("message", describe(error));
        return fields;
    }

    private Mono<Void> progress(ProgressNotification notification) {
        return Mono.fromRunnable(() -> {
            // The consumer is global (every call's progress): the event is labelled by its token.
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("call", String.valueOf(notification.progressToken()));
            fields.put("progress", notification.progress());
            if (notification.total() != null) fields.put("total", notification.total());
            emit("progress", fields);
        });
    }

    /**
     * A sampling or elicitation handler: answers after delayMs, or never (hang). A cancel of its
     * Mono's subscription (the SDK never does one) would stop the wait and is written down.
     */
    private <T> Mono<T> serve(String method, T answer) {
        return Mono.defer(() -> {
            emit("server-request", fields("method", method));
            AtomicBoolean over = new AtomicBoolean();
            Mono<T> wait = hang ? Mono.never() : Mono.delay(Duration.ofMillis(delayMs)).thenReturn(answer);
            return wait
                .doOnNext(ignored -> {
                    if (over.compareAndSet(false, true)) emit("server-request-end", fields("method", method, "outcome", "result"));
                })
                .doOnCancel(() -> {
                    if (!over.compareAndSet(false, true)) return;
                    emit("server-request-cancelled", fields("method", method));
                    emit("server-request-end", fields("method", method, "outcome", "aborted"));
                });
        });
    }

    // ---- helpers ----

    private void awaitSettled(long deadlineNanos) throws InterruptedException {
        synchronized (settled) {
            while (calls.values().stream().anyMatch(c -> !c.ended.get())) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
                if (left <= 0) return;
                settled.wait(left);
            }
        }
    }

    /** An event's fields in the order given (keys and values alternate). */
    private static Map<String, Object> fields(Object... keysAndValues) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) fields.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return fields;
    }

    private void emit(String event, Map<String, Object> fields) {
        events.emit(null, event, fields);
    }

    private static void note(String text) {
        System.err.println("mcp-sim client java: " + text);
        System.err.flush();
    }

    private static void fail(String why, Exception e) {
        note(why + (e == null ? "" : ": " + describe(e)));
        System.exit(1);
    }

    private static String describe(Throwable t) {
        StringBuilder text = new StringBuilder(t.getClass().getName() + ": " + t.getMessage());
        for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            text.append(" (caused by ").append(c.getClass().getName()).append(": ").append(c.getMessage()).append(')');
        }
        return text.toString();
    }

    private static long elapsedMs(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    private static long number(Object value, long fallback) {
        return value instanceof Number n ? n.longValue() : fallback;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        if (value instanceof Map<?, ?> map) return (Map<String, Object>) map;
        throw new IllegalArgumentException("a JSON object expected, got " + value);
    }

    /** The SDK release this jar was built with (testbed.properties, filled by Maven). */
    private static String version() {
        try (var in = Client.class.getResourceAsStream("/testbed.properties")) {
            var props = new java.util.Properties();
            props.load(in);
            return props.getProperty("sdk.version");
        } catch (Exception e) {
            return "unknown";
        }
    }
}
