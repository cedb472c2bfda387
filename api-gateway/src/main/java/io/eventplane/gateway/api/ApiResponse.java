package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.WatchStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One answer: status, an explicit content type (never derived from Accept), headers, and either bytes or a watch
 * stream.
 */
public record ApiResponse(int status, String contentType, byte[] body, List<Map.Entry<String, String>> headers,
                          WatchStream stream) {
    public static final String JSON = "application/json";

    public static ApiResponse json(int status, JsonNode body) {
        return new ApiResponse(status, JSON, Json.bytes(body), new ArrayList<>(), null);
    }

    public static ApiResponse json(int status, JsonNode body, String contentType) {
        return new ApiResponse(status, contentType, Json.bytes(body), new ArrayList<>(), null);
    }

    public static ApiResponse text(int status, String text) {
        return new ApiResponse(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8),
                new ArrayList<>(), null);
    }

    public static ApiResponse status(KubeStatus s) {
        return json(s.code(), Json.status(s));
    }

    public static ApiResponse watch(WatchStream stream) {
        return new ApiResponse(200, JSON, null, new ArrayList<>(), stream);
    }

    /** A body streamed chunk by chunk until it ends (a followed log). */
    public static ApiResponse stream(String contentType, WatchStream stream) {
        return new ApiResponse(200, contentType, null, new ArrayList<>(), stream);
    }

    public ApiResponse withHeader(String name, String value) {
        headers.add(Map.entry(name, value));
        return this;
    }

    /** Adds one {@code Warning: 299 - "..."} header per warning, as kube-apiserver reports field warnings. */
    public ApiResponse withWarnings(List<String> warnings) {
        for (String w : warnings) {
            withHeader("Warning", "299 - \"" + quoted(w) + "\"");
        }
        return this;
    }

    /**
     * A warning's text as a header's quoted string: backslash and quote escaped, and every character a header cannot
     * carry (controls, non-ASCII; a field name in the request can hold any) as {@code \\uXXXX}.
     */
    static String quoted(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' || c == '"') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
