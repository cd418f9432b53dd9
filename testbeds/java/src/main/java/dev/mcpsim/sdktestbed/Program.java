package dev.mcpsim.sdktestbed;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * One run of a scripted handler program (testbeds/PROGRAM.md, "The tool"), on the thread the SDK
 * runs the tool handler's work on.
 *
 * <p>The SDK has no server-side cancellation: it ignores {@code notifications/cancelled} and gives
 * a handler no signal, flag or request id. The one thing that can reach a handler is Reactor
 * disposing its subscription (the thread is interrupted): that is taken as the abort and the
 * program's {@code onAbort} applies to it. A cancel from the client never causes it.
 */
final class Program {
    private static final CallToolResult OK = CallToolResult.builder().addTextContent("ok").build();

    private final Events events;
    private final Peer peer;
    private final Object call;
    private final Map<String, Object> program;
    private final String onAbort;
    private final Object token;
    private boolean abortObserved;

    /** Stops the program: the handler's last event is written, this carries what to return. */
    private static final class Stop extends RuntimeException {
        final CallToolResult result;

        Stop(CallToolResult result) {
            super(null, null, false, false);
            this.result = result;
        }
    }

    @SuppressWarnings("unchecked")
    private Program(Events events, Peer peer, CallToolRequest request) {
        Map<String, Object> args = request.arguments() == null ? Map.of() : request.arguments();
        if (!(args.get("program") instanceof Map<?, ?> raw) || !(raw.get("steps") instanceof List<?>) || !(raw.get("end") instanceof Map<?, ?>)) {
            throw McpError.builder(-32602).message("tool run: arguments.program (a HandlerProgram) expected").build();
        }
        this.events = events;
        this.peer = peer;
        this.call = args.get("call");
        this.program = (Map<String, Object>) raw;
        this.onAbort = String.valueOf(program.getOrDefault("onAbort", "honour"));
        this.token = request.progressToken();
    }

    /** Runs the program of {@code request}'s {@code program} argument; its end's error is thrown as the SDK's McpError. */
    static CallToolResult run(Events events, Peer peer, CallToolRequest request) {
        Program p = new Program(events, peer, request);
        try {
            return p.run();
        } catch (Stop stop) {
            if (stop.result != null) return stop.result;
            throw new CancellationException("aborted");
        }
    }

    @SuppressWarnings("unchecked")
    private CallToolResult run() {
        List<Map<String, Object>> steps = (List<Map<String, Object>>) program.get("steps");
        Map<String, Object> faults = program.get("faults") instanceof Map<?, ?> f ? (Map<String, Object>) f : Map.of();
        event("handler-start");
        for (int index = 0; index < steps.size(); index++) {
            Map<String, Object> step = steps.get(index);
            events.emit(call, "step", Map.of("index", index));
            switch (String.valueOf(step.get("kind"))) {
                case "progress" -> {
                    Object t = "invent".equals(faults.get("progressToken")) ? "invented-" + index : token;
                    if (t != null) {
                        Double total = step.get("total") instanceof Number n ? n.doubleValue() : null;
                        String message = step.get("message") instanceof String s ? s : null;
                        if (!peer.progress(new ProgressNotification(t, ((Number) step.get("progress")).doubleValue(), total, message))) {
                            events.note("progress step " + index + " not sent: the SDK's stateless server has no channel to the client");
                        }
                    }
                }
                case "sleep" -> sleep(((Number) step.get("ms")).longValue());
                case "call" -> call(String.valueOf(step.get("method")), step.get("timeoutMs") instanceof Number n ? n.longValue() : null);
                default -> throw McpError.builder(-32602).message("program: unknown step kind " + step.get("kind")).build();
            }
        }
        Map<String, Object> end = (Map<String, Object>) program.get("end");
        switch (String.valueOf(end.get("kind"))) {
            case "error" -> {
                event("handler-end", "error");
                String message = end.get("message") instanceof String s ? s : "scripted error";
                throw McpError.builder(((Number) end.get("code")).intValue()).message(message).build();
            }
            case "hang" -> {
                // Never returns: only an interrupt (the subscription disposed) can end it, and then only as onAbort says.
                while (true) sleep(60_000);
            }
            default -> {
                event("handler-end", "result");
                return OK;
            }
        }
    }

    private void sleep(long ms) {
        long until = System.nanoTime() + ms * 1_000_000;
        for (long left = ms; left > 0; left = (until - System.nanoTime()) / 1_000_000) {
            try {
                Thread.sleep(left);
            } catch (InterruptedException e) {
                interrupted();
            }
        }
    }

    /**
     * A {@code call} step: the SDK's exchange request, with Reactor's {@code timeout} for
     * {@code timeoutMs} (the SDK's exchange has no per-request timeout; when it fires the SDK
     * sends the client no {@code notifications/cancelled}). A failed call is the handler's business.
     */
    private void call(String method, Long timeoutMs) {
        var request = peer.call(method);
        try {
            (timeoutMs == null ? request : request.timeout(Duration.ofMillis(timeoutMs))).block();
        } catch (RuntimeException e) {
            if (Thread.interrupted() || e.getCause() instanceof InterruptedException) interrupted();
        }
    }

    /** The thread was interrupted: the only abort the SDK can deliver. */
    private void interrupted() {
        if (!abortObserved) {
            abortObserved = true;
            event("abort-observed");
        }
        switch (onAbort) {
            case "honour" -> {
                event("handler-end", "aborted");
                throw new Stop(null);
            }
            case "swallow" -> {
                event("handler-end", "swallowed");
                throw new Stop(OK);
            }
            default -> {
                // ignore: go on with the steps, not looking at the signal.
            }
        }
    }

    private void event(String name) {
        events.emit(call, name, Map.of());
    }

    private void event(String name, String outcome) {
        events.emit(call, name, Map.of("outcome", outcome));
    }
}
