package dev.mcpsim.sdktestbed;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * mcp-sim's Java SDK test bed (testbeds/PROGRAM.md): one tool {@code run} whose {@code program}
 * argument is a scripted handler program ({@link Program}), served with the SDK's ordinary async
 * server API ({@code McpServer.async}, a tool specification whose handler runs the program on
 * Reactor's bounded-elastic scheduler, as the SDK runs a sync handler).
 *
 * <pre>
 * java -jar testbed.jar                                          # stdio
 * java -jar testbed.jar --http --port 8080 --mode stateful-sse   # HttpServletStreamableServerTransportProvider
 * java -jar testbed.jar --http --port 8080 --mode stateless-json # HttpServletStatelessServerTransport
 * </pre>
 *
 * The SDK has no other HTTP modes: its streamable provider answers every request but
 * {@code initialize} on an SSE stream, its stateless transport with one JSON body.
 */
public final class SdkTestbed {
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"program\":{\"type\":\"object\"},\"call\":{\"type\":\"string\"}},\"required\":[\"program\"]}";
    private static final String NAME = "mcp-sim-testbed-java";

    private SdkTestbed() {
    }

    public static void main(String[] argv) throws Exception {
        // Before any logger exists: SDK and Jetty log to stderr, warnings only.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        boolean http = false;
        int port = 0;
        String mode = "stateful-sse";
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "--http" -> http = true;
                case "--port" -> port = Integer.parseInt(argv[++i]);
                case "--mode" -> mode = argv[++i];
                default -> usage("unknown argument " + argv[i]);
            }
        }
        McpJsonMapper json = McpJsonDefaults.getMapper();
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        // Nothing but the SDK's stdio transport may write to stdout; over HTTP, nothing at all.
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        Events events = new Events(json, System.err);
        Tool tool = Tool.builder()
            .name("run")
            .description("Runs the scripted handler program in `program` (mcp-sim testbeds/PROGRAM.md).")
            .inputSchema(json, SCHEMA)
            .build();
        var stateful = McpServerFeatures.AsyncToolSpecification.builder()
            .tool(tool)
            .callHandler((exchange, request) -> work(() -> Program.run(events, Peer.of(exchange), request)))
            .build();
        ServerCapabilities capabilities = ServerCapabilities.builder().tools(false).build();
        if (!http) {
            McpServer.async(new StdioServerTransportProvider(json, System.in, stdout))
                .serverInfo(NAME, version())
                .capabilities(capabilities)
                .tools(stateful)
                .build();
            return;
        }
        switch (mode) {
            case "stateful-sse" -> {
                var transport = HttpServletStreamableServerTransportProvider.builder().jsonMapper(json).mcpEndpoint("/mcp").build();
                McpServer.async(transport).serverInfo(NAME, version()).capabilities(capabilities).tools(stateful).build();
                HttpServe.serve(transport, port, events);
            }
            case "stateless-json" -> {
                var transport = HttpServletStatelessServerTransport.builder().jsonMapper(json).messageEndpoint("/mcp").build();
                var stateless = McpStatelessServerFeatures.AsyncToolSpecification.builder()
                    .tool(tool)
                    .callHandler((context, request) -> work(() -> Program.run(events, Peer.NONE, request)))
                    .build();
                McpServer.async(transport).serverInfo(NAME, version()).capabilities(capabilities).tools(stateless).build();
                HttpServe.serve(transport, port, events);
            }
            default -> usage("the Java SDK has no HTTP mode " + mode + " (it offers stateful-sse, stateless-json)");
        }
    }

    /** The program's blocking run, on the scheduler the SDK runs a sync tool handler on. */
    private static <T> Mono<T> work(java.util.concurrent.Callable<T> run) {
        return Mono.fromCallable(run).subscribeOn(Schedulers.boundedElastic());
    }

    /** The SDK release this jar was built with (testbed.properties, filled by Maven). */
    private static String version() {
        try (var in = SdkTestbed.class.getResourceAsStream("/testbed.properties")) {
            var props = new java.util.Properties();
            props.load(in);
            return props.getProperty("sdk.version");
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static void usage(String why) {
        System.err.println("mcp-sim testbed java: " + why);
        System.exit(2);
    }
}
