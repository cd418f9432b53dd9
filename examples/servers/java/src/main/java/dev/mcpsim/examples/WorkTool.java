package dev.mcpsim.examples;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The {@code work} tool of the example-server contract, once per server variant. Each variant is the
 * correct handler with exactly one of the seed article's pitfalls, written as Java users write
 * it with the SDK's synchronous API ({@code McpSyncServerExchange}).
 */
final class WorkTool {

    static final List<String> VARIANTS = List.of("correct", "progress-own-token", "progress-rounded",
            "total-changes", "progress-after-result", "cancel-not-wired", "cancel-swallowed", "never-ends", "post-hangs");

    /** Variants served only over HTTP, by a stateless server (no exchange, so no progress). */
    static final List<String> STATELESS_HTTP_ONLY = List.of("post-hangs");

    static final String INPUT_SCHEMA = """
            {"type":"object","properties":{
              "steps":{"type":"integer","minimum":1,"maximum":8,"default":4},
              "stepMs":{"type":"integer","minimum":5,"maximum":40,"default":20}}}""";

    /**
     * The schema of {@code cancel-swallowed}: steps of up to 120 ms, not 40. A swallowed cancel shows
     * only as work that outlasts the cancel by more than the time a message can be in flight; over
     * the JVM's HTTP stack that allowance is about 240 ms (its ping round trips are slow), longer
     * than most of 8 × 40 ms, so the short steps hid the pitfall over HTTP (it showed over stdio).
     */
    static final String LONG_STEPS_INPUT_SCHEMA = INPUT_SCHEMA.replace("\"maximum\":40", "\"maximum\":120");

    /** Sub-steps of the rounded-percentage variant: enough that floor(i * 100 / n) repeats. */
    static final int ROUNDED_SUB_STEPS = 150;

    private final String variant;
    private final CancellationSupport cancellation;
    private final EventLog events;
    /** The worker pool of cancel-not-wired: work offloaded here never sees the handler's interrupt. */
    private final ExecutorService workers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "work-pool");
        t.setDaemon(true);
        return t;
    });

    WorkTool(String variant, CancellationSupport cancellation, EventLog events) {
        this.variant = variant;
        this.cancellation = cancellation;
        this.events = events;
    }

    SyncToolSpecification specification(McpJsonMapper json) {
        Tool tool = Tool.builder()
            .name("work")
            .description("Sleeps `steps` times `stepMs` ms, reporting progress after each step.")
            .inputSchema(json, variant.equals("cancel-swallowed") ? LONG_STEPS_INPUT_SCHEMA : INPUT_SCHEMA)
            .build();
        return SyncToolSpecification.builder().tool(tool).callHandler(this::call).build();
    }

    /**
     * The stateless form of {@code work} (the {@code post-hangs} server): a stateless handler gets
     * a {@link McpTransportContext}, no exchange, so it cannot send progress; it only sleeps.
     */
    McpStatelessServerFeatures.SyncToolSpecification statelessSpecification(McpJsonMapper json) {
        Tool tool = Tool.builder()
            .name("work")
            .description("Sleeps `steps` times `stepMs` ms (stateless: no progress).")
            .inputSchema(json, INPUT_SCHEMA)
            .build();
        return McpStatelessServerFeatures.SyncToolSpecification.builder().tool(tool).callHandler(this::callStateless).build();
    }

    private CallToolResult callStateless(McpTransportContext context, CallToolRequest request) {
        Map<String, Object> args = request.arguments() == null ? Map.of() : request.arguments();
        int steps = intArg(args, "steps", 4);
        int stepMs = intArg(args, "stepMs", 20);
        events.emit("handler-start", null, null);
        try {
            for (int i = 1; i <= steps; i++) {
                Thread.sleep(stepMs);
                events.emit("step", null, "\"index\":" + i);
            }
        } catch (InterruptedException e) {
            events.emit("handler-end", null, "\"outcome\":\"cancelled\"");
            throw new CancellationException("work cancelled");
        }
        events.emit("handler-end", null, "\"outcome\":\"result\"");
        return done(steps);
    }

    private CallToolResult call(McpSyncServerExchange exchange, CallToolRequest request) {
        Map<String, Object> args = request.arguments() == null ? Map.of() : request.arguments();
        int steps = intArg(args, "steps", 4);
        int stepMs = intArg(args, "stepMs", 20);
        Map<String, Object> meta = request.meta();
        Object id = meta == null ? null : meta.get(CancellationSupport.RAW_ID_META);
        // The client's token, exactly as sent (number or string); null when it asked for no progress.
        Object token = request.progressToken();
        events.emit("handler-start", id, null);
        try (CancellationSupport.Scope scope = cancellation.enter(meta)) {
            CallToolResult result = switch (variant) {
                case "correct" -> correct(exchange, token, steps, stepMs, id);
                case "progress-own-token" -> progressOwnToken(exchange, steps, stepMs, id);
                case "progress-rounded" -> progressRounded(exchange, token, steps, stepMs, id);
                case "total-changes" -> totalChanges(exchange, token, steps, stepMs, id);
                case "progress-after-result" -> progressAfterResult(exchange, token, steps, stepMs, id);
                case "cancel-not-wired" -> cancelNotWired(exchange, token, steps, stepMs, id);
                case "cancel-swallowed" -> cancelSwallowed(exchange, token, steps, stepMs, id);
                case "never-ends" -> neverEnds();
                default -> throw new IllegalStateException("unknown variant " + variant);
            };
            events.emit("handler-end", id, "\"outcome\":\"result\"");
            return result;
        } catch (InterruptedException | CancellationException e) {
            events.emit("handler-end", id, "\"outcome\":\"cancelled\"");
            // Let it propagate: the SDK turns it into an error response, and CancellationSupport
            // drops that response because the request was cancelled.
            throw new CancellationException("work cancelled");
        } catch (RuntimeException e) {
            events.emit("handler-end", id, "\"outcome\":\"error\"");
            throw e;
        }
    }

    // --- correct: the article's fixed code -------------------------------------------------------

    private CallToolResult correct(McpSyncServerExchange exchange, Object token, int steps, int stepMs, Object id)
            throws InterruptedException {
        for (int i = 1; i <= steps; i++) {
            Thread.sleep(stepMs); // interruptible: a cancel ends it with InterruptedException
            events.emit("step", id, "\"index\":" + i);
            if (token != null) {
                exchange.progressNotification(new ProgressNotification(token, i, (double) steps, "step " + i + " of " + steps));
            }
        }
        return done(steps);
    }

    // --- pitfall 1: a made-up token, sent whether or not the client asked ------------------------

    private CallToolResult progressOwnToken(McpSyncServerExchange exchange, int steps, int stepMs, Object id)
            throws InterruptedException {
        for (int i = 1; i <= steps; i++) {
            Thread.sleep(stepMs);
            events.emit("step", id, "\"index\":" + i);
            exchange.progressNotification(new ProgressNotification("task-1", i, (double) steps, "step " + i));
        }
        return done(steps);
    }

    // --- pitfall 2: a rounded integer percentage over many small steps --------------------------

    private CallToolResult progressRounded(McpSyncServerExchange exchange, Object token, int steps, int stepMs, Object id)
            throws InterruptedException {
        for (int i = 1; i <= ROUNDED_SUB_STEPS; i++) {
            Thread.sleep(2);
            int percent = (int) Math.floor(i * 100.0 / ROUNDED_SUB_STEPS); // 0, 1, 1, 2, 2, ...: repeats
            if (token != null) {
                exchange.progressNotification(new ProgressNotification(token, percent, 100.0, percent + "%"));
            }
        }
        return done(steps);
    }

    // --- pitfall 2b: the total grows half way ("it was 80, not 50") ------------------------------

    private CallToolResult totalChanges(McpSyncServerExchange exchange, Object token, int steps, int stepMs, Object id)
            throws InterruptedException {
        int total = steps;
        for (int i = 1; i <= steps; i++) {
            Thread.sleep(stepMs);
            events.emit("step", id, "\"index\":" + i);
            if (i > steps / 2) {
                total = steps * 8 / 5 + 1; // found more items than announced
            }
            if (token != null) {
                exchange.progressNotification(new ProgressNotification(token, i, (double) total, "item " + i + " of " + total));
            }
        }
        return done(steps);
    }

    // --- progress after the result: a background task sends one more ---------------------------

    private CallToolResult progressAfterResult(McpSyncServerExchange exchange, Object token, int steps, int stepMs, Object id)
            throws InterruptedException {
        for (int i = 1; i <= steps; i++) {
            Thread.sleep(stepMs);
            events.emit("step", id, "\"index\":" + i);
            if (token != null) {
                exchange.progressNotification(new ProgressNotification(token, i, (double) (steps + 1), "step " + i));
            }
        }
        if (token != null) {
            // "Finish the bookkeeping in the background and report it": runs after the result is sent.
            CompletableFuture.runAsync(() -> exchange.progressNotification(
                    new ProgressNotification(token, steps + 1, (double) (steps + 1), "cleanup done")),
                    CompletableFuture.delayedExecutor(Math.max(stepMs, 20), TimeUnit.MILLISECONDS, workers));
        }
        return done(steps);
    }

    // --- pitfall 3a: the cancel never reaches the worker -----------------------------------------

    private CallToolResult cancelNotWired(McpSyncServerExchange exchange, Object token, int steps, int stepMs, Object id)
            throws InterruptedException {
        // The work is offloaded to a pool; the handler's thread is interrupted on cancel, but the
        // future is never cancelled, so the worker runs on and keeps reporting progress.
        Future<CallToolResult> work = workers.submit(() -> {
            for (int i = 1; i <= steps; i++) {
                Thread.sleep(stepMs);
                events.emit("step", id, "\"index\":" + i);
                if (token != null) {
                    exchange.progressNotification(new ProgressNotification(token, i, (double) steps, "step " + i));
                }
            }
            return done(steps);
        });
        try {
            return work.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    // --- pitfall 3b: InterruptedException swallowed ----------------------------------------------

    private CallToolResult cancelSwallowed(McpSyncServerExchange exchange, Object token, int steps, int stepMs, Object id) {
        for (int i = 1; i <= steps; i++) {
            try {
                Thread.sleep(stepMs);
            } catch (Exception e) {
                // "A hiccup while waiting; carry on": the catch-all eats the cancellation
                // (and clears the thread's interrupt flag), so the loop goes on.
                events.emit("cancel-observed", id, "\"swallowed\":true");
            }
            events.emit("step", id, "\"index\":" + i);
            if (token != null) {
                exchange.progressNotification(new ProgressNotification(token, i, (double) steps, "step " + i));
            }
        }
        return done(steps);
    }

    // --- never ends: waits on a future nothing completes; join() ignores interrupts --------------

    private CallToolResult neverEnds() {
        return new CompletableFuture<CallToolResult>().join();
    }

    private static CallToolResult done(int steps) {
        return CallToolResult.builder().addTextContent("done " + steps).build();
    }

    private static int intArg(Map<String, Object> args, String name, int fallback) {
        Object v = args.get(name);
        return v instanceof Number ? ((Number) v).intValue() : fallback;
    }
}
