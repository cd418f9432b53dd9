package dev.mcpsim.examples;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code post-hangs} server's transport: a hand-written stateless Streamable HTTP endpoint in
 * front of the SDK's stateless server (the SDK's own {@code HttpServletStatelessServerTransport}
 * handles no cancellation, so the author wrote this one to add it). It is seed 004's design in
 * Java: each POSTed request parks its HTTP exchange (an {@link AsyncContext}) in a map keyed by
 * the JSON-RPC id, and only {@link #send} -- a response for that id -- resumes it. A
 * {@code notifications/cancelled} disposes the handler's subscription and marks the id so that
 * no response is sent, as the specification asks; nothing else ever completes the parked
 * exchange, so the cancelled request's POST never ends. (A second in-flight request with the same
 * id overwrites the first one's entry: that POST never ends either, the seed's related bug.)
 * JSON responses only; GET and DELETE answer 405.
 */
final class WaiterStatelessTransport extends HttpServlet implements McpStatelessServerTransport {

    private final McpJsonMapper json;
    private final EventLog events;
    private McpStatelessServerHandler handler;
    /** The parked HTTP exchange of each request in flight, by JSON-RPC id. */
    private final Map<Object, AsyncContext> waiters = new ConcurrentHashMap<>();
    /** The handler subscription of each request in flight, by JSON-RPC id. */
    private final Map<Object, Disposable> running = new ConcurrentHashMap<>();
    /** Ids the client cancelled: their response must not be sent. */
    private final Set<Object> cancelled = ConcurrentHashMap.newKeySet();

    WaiterStatelessTransport(McpJsonMapper json, EventLog events) {
        this.json = json;
        this.events = events;
    }

    @Override
    public void setMcpHandler(McpStatelessServerHandler handler) {
        this.handler = handler;
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.empty();
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
    }

    @Override
    protected void doDelete(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String body = new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(json, body);
        } catch (IOException | IllegalArgumentException e) {
            resp.sendError(HttpServletResponse.SC_BAD_REQUEST, "not a JSON-RPC message");
            return;
        }
        if (message instanceof JSONRPCNotification notification) {
            if ("notifications/cancelled".equals(notification.method())
                    && notification.params() instanceof Map<?, ?> params && params.get("requestId") != null) {
                Object id = params.get("requestId");
                cancelled.add(id);
                Disposable work = running.remove(id);
                if (work != null) {
                    work.dispose(); // stops the handler; no response will come for this id
                    events.emit("cancel-observed", id, null);
                }
            } else {
                handler.handleNotification(McpTransportContext.EMPTY, notification).block();
            }
            resp.setStatus(HttpServletResponse.SC_ACCEPTED);
            return;
        }
        if (message instanceof JSONRPCRequest request) {
            AsyncContext exchange = req.startAsync();
            exchange.setTimeout(0);
            waiters.put(request.id(), exchange);
            running.put(request.id(), handler.handleRequest(McpTransportContext.EMPTY, request)
                .subscribe(this::send, error -> send(JSONRPCResponse.error(request.id(),
                        new JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INTERNAL_ERROR, error.getMessage(), null)))));
            return;
        }
        resp.setStatus(HttpServletResponse.SC_ACCEPTED); // a response from the client: nothing to do
    }

    /** Writes a response to the exchange parked for its id: the only place an exchange ends. */
    private void send(JSONRPCResponse response) {
        running.remove(response.id());
        if (cancelled.remove(response.id())) {
            return; // a cancelled request gets no response
        }
        AsyncContext exchange = waiters.remove(response.id());
        if (exchange == null) {
            return;
        }
        try {
            HttpServletResponse http = (HttpServletResponse) exchange.getResponse();
            http.setStatus(HttpServletResponse.SC_OK);
            http.setContentType("application/json");
            http.setCharacterEncoding("UTF-8");
            http.getWriter().write(json.writeValueAsString(response));
        } catch (IOException e) {
            // the client went away
        } finally {
            exchange.complete();
        }
    }
}
