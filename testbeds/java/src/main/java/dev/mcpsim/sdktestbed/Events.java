package dev.mcpsim.sdktestbed;

import io.modelcontextprotocol.json.McpJsonMapper;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The side channel of testbeds/PROGRAM.md: one {@code mcp-sim-event {json}} line per handler
 * event on stderr, flushed at once (over stdio and HTTP alike). The SDK gives a tool handler no
 * JSON-RPC id, so a line names its call by the {@code call} argument only.
 */
final class Events {
    private final McpJsonMapper json;
    private final PrintStream err;

    Events(McpJsonMapper json, PrintStream err) {
        this.json = json;
        this.err = err;
    }

    /** One line, its keys in a fixed order: {@code event}, then {@code fields}, then {@code call}. */
    synchronized void emit(Object call, String event, Map<String, Object> fields) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("event", event);
        line.putAll(fields);
        if (call != null) line.put("call", call);
        try {
            err.println("mcp-sim-event " + json.writeValueAsString(line));
        } catch (Exception e) {
            err.println("mcp-sim testbed java: cannot write an event: " + e);
        }
        err.flush();
    }

    /** A note that is not a handler event (it stays a `stderr` event in mcp-sim's trace). */
    synchronized void note(String text) {
        err.println("mcp-sim testbed java: " + text);
        err.flush();
    }
}
