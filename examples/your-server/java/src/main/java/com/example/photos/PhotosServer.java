package com.example.photos;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import java.util.Map;

/**
 * A Java MCP server as its author writes it on the first day: two tools on the official Java SDK's
 * synchronous server ({@code McpServer.sync}, one {@link SyncToolSpecification} per tool), served
 * on stdio.
 *
 * <p>{@code count} is right: progress only when the client sent a token ({@code
 * request.progressToken()}), with increasing values, and its waits are interruptible
 * ({@link Thread#sleep}) with the {@link InterruptedException} left to end the call. {@code
 * resize} has the common pitfall: it reports a rounded percentage over more than 100 images, so
 * the same value goes out twice (progress must increase).
 *
 * <p>The SDK (2.1.0) has no server-side cancellation: it ignores {@code notifications/cancelled},
 * never interrupts the handler and sends the cancelled call's result. So a cancelled call of
 * either tool runs to its end, and mcp-sim reports that (cancel.no-response-after,
 * progress.after-cancel) on {@code count} too: nothing in a handler can change it.
 *
 * <p>Check it (README, "Check your server"):
 * <pre>
 * mvn package
 * npx mcp-sim check -- java -jar target/photos.jar
 * </pre>
 */
public final class PhotosServer {

    private PhotosServer() {
    }

    public static void main(String[] args) {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        McpServer.sync(new StdioServerTransportProvider(json))
            .serverInfo("photos", "1.0.0")
            .capabilities(ServerCapabilities.builder().tools(false).build())
            .tools(count(json), resize(json))
            .build();
    }

    static SyncToolSpecification count(McpJsonMapper json) {
        Tool tool = Tool.builder()
            .name("count")
            .description("Count to n, one step every 20 ms, reporting each step.")
            .inputSchema(json, """
                {"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":8,"description":"how far to count, 1 to 8"}}}""")
            .build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            int n = Math.min(Math.max(intArg(request, "n", 4), 1), 8);
            try {
                for (int i = 1; i <= n; i++) {
                    Thread.sleep(20);
                    progress(exchange, request, i, n);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("count interrupted", e);
            }
            return CallToolResult.builder().addTextContent("counted to " + n).build();
        }).build();
    }

    static SyncToolSpecification resize(McpJsonMapper json) {
        Tool tool = Tool.builder()
            .name("resize")
            .description("Resize the images, reporting a percentage.")
            .inputSchema(json, """
                {"type":"object","properties":{"images":{"type":"integer","minimum":101,"maximum":160,"description":"how many images, 101 to 160"}}}""")
            .build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            int images = Math.min(Math.max(intArg(request, "images", 120), 101), 160);
            try {
                for (int i = 1; i <= images; i++) {
                    Thread.sleep(2);
                    progress(exchange, request, i * 100 / images, 100); // BUG: a rounded percentage repeats over >100 images
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("resize interrupted", e);
            }
            return CallToolResult.builder().addTextContent("resized " + images + " images").build();
        }).build();
    }

    /** Sends a progress notification when the client sent a token: the SDK leaves that to the tool. */
    private static void progress(McpSyncServerExchange exchange, CallToolRequest request, double done, double total) {
        Object token = request.progressToken();
        if (token != null) {
            exchange.progressNotification(new ProgressNotification(token, done, total, null));
        }
    }

    private static int intArg(CallToolRequest request, String name, int fallback) {
        Map<String, Object> args = request.arguments();
        Object v = args == null ? null : args.get(name);
        return v instanceof Number number ? number.intValue() : fallback;
    }
}
