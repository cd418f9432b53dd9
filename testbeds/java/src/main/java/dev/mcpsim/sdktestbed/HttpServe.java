package dev.mcpsim.sdktestbed;

import jakarta.servlet.http.HttpServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Streamable HTTP: one of the SDK's servlet transports on an embedded Jetty at
 * {@code http://127.0.0.1:<port>/mcp}, loopback only. SIGTERM stops Jetty (a shutdown hook) and
 * the JVM exits.
 */
final class HttpServe {
    private HttpServe() {
    }

    static void serve(HttpServlet transport, int port, Events events) throws Exception {
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(transport);
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/*");
        jetty.setHandler(context);
        jetty.setStopAtShutdown(true);
        jetty.start();
        events.note("listening on http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
        jetty.join();
    }
}
