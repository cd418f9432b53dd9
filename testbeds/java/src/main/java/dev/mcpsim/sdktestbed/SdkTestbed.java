package dev.mcpsim.sdktestbed;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * mcp-sim's Java SDK test bed (testbeds/PROGRAM.md): one tool {@code run} whose {@code program}
 * argument is a scripted handler program, run with the SDK's ordinary sync server API
 * ({@code McpServer.sync}, {@code SyncToolSpecification}, {@code McpSyncServerExchange}).
 * Handler events go to stderr as {@code mcp-sim-event {json}} lines.
 *
 * <p>The SDK (2.1.0) gives a tool handler no cancellation at all: no signal, no flag, no request id,
 * and it ignores {@code notifications/cancelled}. So every abort policy runs the same way here:
 * the steps go on to their end, and nothing is reported as observed. That is what the SDK's
 * users get; the example servers of issue 21 add their own cancellation support, this bed does not.
 */
public final class SdkTestbed {
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"program\":{\"type\":\"object\"}},\"required\":[\"program\"]}";

    private SdkTestbed() {
    }

    private static synchronized void event(McpJsonMapper json, Object call, Map<String, Object> body) {
        Map<String, Object> line = new LinkedHashMap<>(body);
        if (call != null) line.put("call", call);
        try {
            System.err.println("mcp-sim-event " + json.writeValueAsString(line));
        } catch (Exception e) {
            System.err.println("mcp-sim testbed java: cannot write an event: " + e);
        }
        System.err.flush();
    }

    @SuppressWarnings("unchecked")
    private static CallToolResult run(McpJsonMapper json, McpSyncServerExchange exchange, CallToolRequest request) {
        Map<String, Object> args = request.arguments() == null ? Map.of() : request.arguments();
        Object call = args.get("call");
        if (!(args.get("program") instanceof Map<?, ?> raw) || !(raw.get("steps") instanceof List<?>)) {
            throw McpError.builder(-32602).message("tool run: arguments.program (a HandlerProgram) expected").build();
        }
        Map<String, Object> program = (Map<String, Object>) raw;
        List<Map<String, Object>> steps = (List<Map<String, Object>>) program.get("steps");
        Map<String, Object> faults = program.get("faults") instanceof Map<?, ?> f ? (Map<String, Object>) f : Map.of();
        Object token = request.progressToken();
        event(json, call, Map.of("event", "handler-start"));
        for (int index = 0; index < steps.size(); index++) {
            Map<String, Object> step = steps.get(index);
            event(json, call, Map.of("event", "step", "index", index));
            switch (String.valueOf(step.get("kind"))) {
                case "progress" -> {
                    Object t = "invent".equals(faults.get("progressToken")) ? "invented-" + index : token;
                    if (t != null) {
                        Double total = step.get("total") instanceof Number n ? n.doubleValue() : null;
                        String message = step.get("message") instanceof String s ? s : null;
                        exchange.progressNotification(new ProgressNotification(t, ((Number) step.get("progress")).doubleValue(), total, message));
                    }
                }
                case "sleep" -> {
                    try {
                        Thread.sleep(((Number) step.get("ms")).longValue());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                case "call" -> {
                    if (!"roots/list".equals(step.get("method"))) {
                        throw McpError.builder(-32602).message("test bed: only roots/list call steps are built in Java yet").build();
                    }
                    try {
                        exchange.listRoots();
                    } catch (RuntimeException e) {
                        // A failed downstream call is the handler's business.
                    }
                }
                default -> throw McpError.builder(-32602).message("program: unknown step kind " + step.get("kind")).build();
            }
        }
        Map<String, Object> end = (Map<String, Object>) program.get("end");
        String kind = String.valueOf(end.get("kind"));
        if ("error".equals(kind)) {
            event(json, call, Map.of("event", "handler-end", "outcome", "error"));
            String message = end.get("message") instanceof String s ? s : "scripted error";
            throw McpError.builder(((Number) end.get("code")).intValue()).message(message).build();
        }
        if ("hang".equals(kind)) {
            // Nothing can stop it: the SDK has no cancellation to honour.
            while (true) {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    event(json, call, Map.of("event", "abort-observed"));
                    event(json, call, Map.of("event", "handler-end", "outcome", "aborted"));
                    throw McpError.builder(-32603).message("interrupted").build();
                }
            }
        }
        event(json, call, Map.of("event", "handler-end", "outcome", "result"));
        return CallToolResult.builder().addTextContent("ok").build();
    }

    public static void main(String[] argv) throws Exception {
        for (String a : argv) {
            if (a.equals("--http")) {
                System.err.println("mcp-sim testbed java: --http is not built yet (stdio only)");
                System.exit(2);
            }
        }
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        McpJsonMapper json = McpJsonDefaults.getMapper();
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        // Nothing but the SDK may write to stdout: the stdio channel.
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        Tool tool = Tool.builder()
            .name("run")
            .description("Runs the scripted handler program in `program` (mcp-sim testbeds/PROGRAM.md).")
            .inputSchema(json, SCHEMA)
            .build();
        McpServer.sync(new StdioServerTransportProvider(json, System.in, stdout))
            .serverInfo("mcp-sim-testbed-java", "2.1.0")
            .capabilities(ServerCapabilities.builder().tools(false).build())
            .tools(SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> run(json, exchange, request)).build())
            .build();
    }
}
