package io.eventplane.gateway.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ApiResponseTest {
    @Test
    @DisplayName("a warning naming a field with a NUL, a newline or non-ASCII characters still makes a valid header (the API fuzzer's 500)")
    void warningsAreValidHeaderValues() {
        ApiResponse r = ApiResponse.text(200, "")
                .withWarnings(List.of("unknown field \"a\u0000b\"", "unknown field \"x\ny\"", "unknown field \"ä\""));
        assertEquals(List.of("299 - \"unknown field \\\"a\\u0000b\\\"\"", "299 - \"unknown field \\\"x\\u000ay\\\"\"",
                "299 - \"unknown field \\\"\\u00e4\\\"\""), r.headers().stream().map(java.util.Map.Entry::getValue).toList());
    }
}
