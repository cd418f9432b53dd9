package dev.mcpsim.sdktestbed;

import io.modelcontextprotocol.spec.McpSchema.ElicitRequest;

import java.util.Map;

/** 1.x's elicitation request (one kind, no mode field), replacing src/.../ElicitForm.java for this release. */
final class ElicitForm {
    private ElicitForm() {
    }

    static ElicitRequest request() {
        return ElicitRequest.builder().message("run").requestedSchema(Map.of("type", "object", "properties", Map.of())).build();
    }
}
