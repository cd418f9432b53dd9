package dev.mcpsim.examples;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

import java.util.EnumSet;

/** Streamable HTTP: the SDK's servlet transport on an embedded Jetty, on 127.0.0.1 only. */
final class HttpMain {

    private HttpMain() {
    }

    static void serve(ExampleServer.Args args, McpJsonMapper json, CancellationSupport cancellation, WorkTool work,
            EventLog events)
            throws Exception {
        HttpServlet transport;
        if (WorkTool.STATELESS_HTTP_ONLY.contains(args.variant)) {
            WaiterStatelessTransport stateless = new WaiterStatelessTransport(json, events);
            McpServer.sync(stateless)
                .serverInfo("mcp-sim-java-" + args.variant, "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(false).build())
                .tools(work.statelessSpecification(json))
                .build();
            transport = stateless;
        } else {
            HttpServletStreamableServerTransportProvider streamable = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(json)
                .mcpEndpoint("/mcp")
                .build();
            McpServer.sync(streamable)
                .serverInfo("mcp-sim-java-" + args.variant, "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(false).build())
                .tools(work.specification(json))
                .build();
            transport = streamable;
        }

        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(args.port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(transport);
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/*");
        if (!args.sdkOnly && !WorkTool.STATELESS_HTTP_ONLY.contains(args.variant)) {
            FilterHolder filter = new FilterHolder(new HttpCancellationFilter(cancellation));
            filter.setAsyncSupported(true);
            context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
        }
        jetty.setHandler(context);
        jetty.setStopAtShutdown(true);
        jetty.start();
        System.err.println("examples: listening on http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
        jetty.join();
    }
}
