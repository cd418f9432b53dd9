package dev.mcpsim.examples;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * mcp-sim's Java example servers: one MCP server per {@code --variant}, written with the official Java SDK.
 *
 * <pre>
 * java -jar servers.jar --variant correct                 # stdio (default)
 * java -jar servers.jar --variant correct --http --port 8080   # Streamable HTTP on 127.0.0.1:8080/mcp
 * java -jar servers.jar --variant correct --sdk-only      # the SDK alone, without CancellationSupport (stdio or HTTP)
 * </pre>
 */
public final class ExampleServer {

    private ExampleServer() {
    }

    public static void main(String[] argv) throws Exception {
        // Before any logger exists: SDK and Jetty log to stderr, warnings only.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        Args args = Args.parse(argv);
        McpJsonMapper json = McpJsonDefaults.getMapper();
        warmUp(json);
        EventLog events = new EventLog(System.err);
        CancellationSupport cancellation = new CancellationSupport(json, events);
        WorkTool work = new WorkTool(args.variant, cancellation, events);
        if (args.http) {
            HttpMain.serve(args, json, cancellation, work, events);
        } else {
            serveStdio(args, json, cancellation, work);
        }
    }

    private static void serveStdio(Args args, McpJsonMapper json, CancellationSupport cancellation, WorkTool work)
            throws Exception {
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        // Nothing else may write to the protocol channel.
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        if (args.sdkOnly) {
            // The SDK alone: its own reads of stdin and writes to stdout, no cancellation support.
            McpServer.sync(new StdioServerTransportProvider(json, System.in, stdout))
                .serverInfo("mcp-sim-java-" + args.variant, "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(false).build())
                .tools(work.specification(json))
                .build();
            return;
        }
        CountDownLatch stdinClosed = new CountDownLatch(1);
        InputStream in = cancellation.tapStdin(System.in, stdinClosed::countDown);
        McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(json, in, cancellation.filterStdout(stdout)))
            .serverInfo("mcp-sim-java-" + args.variant, "1.0.0")
            .capabilities(ServerCapabilities.builder().tools(false).build())
            .tools(work.specification(json))
            .build();
        stdinClosed.await();
        // stdin closed: every request in flight was cancelled by the tap; stop now.
        server.close();
        System.exit(0);
    }

    /**
     * Builds, before the first client frame, what Jackson and the schema validator otherwise build
     * on first use (a serializer per record type, found by reflection; the compiled input schema):
     * measured on a fresh JVM, the first progress notification left ~20 ms after the handler sent
     * it and the first call's handler started ~20 ms late, enough for progress that was sent before
     * a cancel to reach the wire well after it. Costs ~30 ms of start-up, once.
     */
    static void warmUp(McpJsonMapper json) throws Exception {
        String call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"work\","
                + "\"arguments\":{\"steps\":1,\"stepMs\":5},\"_meta\":{\"progressToken\":\"warm-up\"}}}";
        for (int i = 0; i < 50; i++) {
            McpSchema.JSONRPCMessage message = McpSchema.deserializeJsonRpcMessage(json, call);
            McpSchema.CallToolRequest request = json.convertValue(((McpSchema.JSONRPCRequest) message).params(),
                    McpSchema.CallToolRequest.class);
            McpJsonDefaults.getSchemaValidator().validate(
                    json.readValue(WorkTool.INPUT_SCHEMA, new TypeRef<Map<String, Object>>() { }), request.arguments());
            json.writeValueAsString(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION,
                    McpSchema.METHOD_NOTIFICATION_PROGRESS,
                    new McpSchema.ProgressNotification(request.progressToken(), i, 50.0, "warm-up")));
            json.writeValueAsString(McpSchema.JSONRPCResponse.result(1,
                    McpSchema.CallToolResult.builder().addTextContent("done 1").build()));
        }
    }

    /** Command-line options; a bad one is one line on stderr and exit code 2. */
    static final class Args {
        String variant = "correct";
        boolean http;
        boolean sdkOnly;
        int port = 8080;

        static Args parse(String[] argv) {
            Args a = new Args();
            for (int i = 0; i < argv.length; i++) {
                switch (argv[i]) {
                    case "--variant" -> a.variant = value(argv, ++i, "--variant");
                    case "--http" -> a.http = true;
                    case "--sdk-only" -> a.sdkOnly = true;
                    case "--port" -> {
                        String v = value(argv, ++i, "--port");
                        try {
                            a.port = Integer.parseInt(v);
                        } catch (NumberFormatException e) {
                            fail("--port " + v + ": not a port number; pass an integer 1-65535");
                        }
                    }
                    default -> fail("unknown option " + argv[i] + "; use --variant NAME [--http --port N] [--sdk-only]");
                }
            }
            if (!WorkTool.VARIANTS.contains(a.variant)) {
                fail("--variant " + a.variant + ": unknown; use one of " + String.join(", ", WorkTool.VARIANTS));
            }
            if (WorkTool.STATELESS_HTTP_ONLY.contains(a.variant) && !a.http) {
                fail("--variant " + a.variant + ": served over HTTP only; add --http --port N");
            }
            return a;
        }

        private static String value(String[] argv, int i, String flag) {
            if (i >= argv.length) {
                fail(flag + " needs a value");
            }
            return argv[i];
        }

        private static void fail(String message) {
            System.err.println("examples: " + message);
            System.exit(2);
        }
    }
}
