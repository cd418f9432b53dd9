package dev.mcpsim.examples;

import java.io.PrintStream;

/**
 * The optional side channel of the example-server contract: one stderr line per handler event,
 * {@code mcp-sim-event {"event":"handler-start","id":1}}. Never read by the black-box oracle.
 */
final class EventLog {
    private final PrintStream err;

    EventLog(PrintStream err) {
        this.err = err;
    }

    void emit(String event, Object id, String extra) {
        String idJson = id instanceof String ? "\"" + ((String) id).replace("\"", "\\\"") + "\"" : String.valueOf(id);
        err.println("mcp-sim-event {\"event\":\"" + event + "\",\"id\":" + idJson + (extra == null ? "" : "," + extra) + "}");
    }
}
