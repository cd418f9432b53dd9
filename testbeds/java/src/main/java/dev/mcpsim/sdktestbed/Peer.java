package dev.mcpsim.sdktestbed;

import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageRequest;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.SamplingMessage;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import reactor.core.publisher.Mono;

import java.util.List;

/**
 * What a handler can say to the client while it runs: progress, and the requests of a program's
 * {@code call} steps. Over stdio and stateful HTTP that is the SDK's {@link McpAsyncServerExchange}
 * (tied to the request: over HTTP its frames go on the request's own SSE stream); the SDK's
 * stateless server gives a handler no exchange at all, so there it can say nothing.
 */
interface Peer {
    /** Sends progress; false when this peer has no way to. */
    boolean progress(ProgressNotification notification);

    /** The client request of a {@code call} step (PROGRAM.md's fixed params), not yet subscribed. */
    Mono<?> call(String method);

    static Peer of(McpAsyncServerExchange exchange) {
        return new Peer() {
            @Override
            public boolean progress(ProgressNotification notification) {
                exchange.progressNotification(notification).block();
                return true;
            }

            @Override
            public Mono<?> call(String method) {
                return switch (method) {
                    case "sampling/createMessage" -> exchange.createMessage(CreateMessageRequest.builder()
                        .messages(List.of(new SamplingMessage(Role.USER, new TextContent("run"))))
                        .maxTokens(16)
                        .build());
                    case "elicitation/create" -> exchange.createElicitation(ElicitForm.request());
                    case "roots/list" -> exchange.listRoots();
                    default -> Mono.error(new IllegalArgumentException("program: unknown call method " + method));
                };
            }
        };
    }

    /** The stateless server's handler: no exchange, no server-to-client message of any kind. */
    Peer NONE = new Peer() {
        @Override
        public boolean progress(ProgressNotification notification) {
            return false;
        }

        @Override
        public Mono<?> call(String method) {
            return Mono.error(new UnsupportedOperationException("the stateless server has no channel to the client for " + method));
        }
    };
}
