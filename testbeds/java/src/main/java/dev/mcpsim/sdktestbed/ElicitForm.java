package dev.mcpsim.sdktestbed;

import io.modelcontextprotocol.spec.McpSchema.ElicitRequest;

import java.util.Map;

/**
 * The elicitation a {@code call} step sends (PROGRAM.md: form mode, message {@code run}, an empty
 * object schema), built the way this SDK release builds one: 2.x has form and URL requests
 * ({@code ElicitRequest.builder(message, schema)}); releases/1.1.5/ElicitForm.java replaces this
 * file for 1.x, whose one request kind is built field by field.
 */
final class ElicitForm {
    private ElicitForm() {
    }

    static ElicitRequest request() {
        return ElicitRequest.builder("run", Map.of("type", "object", "properties", Map.of())).build();
    }
}
