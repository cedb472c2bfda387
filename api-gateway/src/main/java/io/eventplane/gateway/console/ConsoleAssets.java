package io.eventplane.gateway.console;

import io.eventplane.gateway.api.ApiResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console's files, built by the console module into the classpath under {@code console/}. Files under
 * {@code assets/} carry a content hash in their names, so browsers may keep them for a year; {@code index.html} names
 * the current ones and is revalidated every time.
 */
final class ConsoleAssets {
    static final String ROOT = "console/";
    private static final String NOT_BUILT = """
            <!doctype html><meta charset="utf-8"><title>Eventplane console</title>
            <h1>The console was not built</h1>
            <p>This gateway's classpath has no <code>console/index.html</code>. The console module builds it with
            Node.js and npm during <code>./mvnw install</code>; build without <code>-Dconsole.skip</code> to get it.</p>
            """;
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml",
            "png", "image/png",
            "json", "application/json",
            "ico", "image/x-icon",
            "woff2", "font/woff2");
    private final Map<String, Optional<byte[]>> cache = new ConcurrentHashMap<>();

    /** The file at {@code path} (relative to the console's root, such as {@code assets/index-1a2b.js}). */
    ApiResponse file(String path) {
        if (path.isEmpty() || path.equals("index.html")) {
            return index();
        }
        if (path.contains("..") || path.startsWith("/") || path.contains("\\")) {
            return ApiResponse.text(404, "not found\n");
        }
        Optional<byte[]> bytes = read(path);
        if (bytes.isEmpty()) {
            return ApiResponse.text(404, "not found\n");
        }
        String ext = path.substring(path.lastIndexOf('.') + 1);
        ApiResponse r = new ApiResponse(200, TYPES.getOrDefault(ext, "application/octet-stream"), bytes.get(),
                new java.util.ArrayList<>(), null);
        return path.startsWith("assets/") ? r.withHeader("Cache-Control", "public, max-age=31536000, immutable")
                : r.withHeader("Cache-Control", "no-cache");
    }

    ApiResponse index() {
        byte[] page = read("index.html").orElse(NOT_BUILT.getBytes(StandardCharsets.UTF_8));
        return new ApiResponse(200, TYPES.get("html"), page, new java.util.ArrayList<>(), null)
                .withHeader("Cache-Control", "no-cache");
    }

    boolean built() {
        return read("index.html").isPresent();
    }

    private Optional<byte[]> read(String path) {
        return cache.computeIfAbsent(path, p -> {
            try (InputStream in = ConsoleAssets.class.getClassLoader().getResourceAsStream(ROOT + p)) {
                return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
            } catch (IOException e) {
                return Optional.empty();
            }
        });
    }
}
