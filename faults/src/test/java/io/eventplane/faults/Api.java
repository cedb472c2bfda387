package io.eventplane.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Predicate;

/** A small client of the Kubernetes API for the fault cases: raw answers (status, headers, body), polls to a deadline. */
final class Api {
    static final ObjectMapper JSON = new ObjectMapper();
    final String base;
    final HttpClient client;

    Api(String base) {
        this.base = base;
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    HttpResponse<String> send(String method, String path, String contentType, byte[] body, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout);
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send("GET", path, null, null, Duration.ofSeconds(30));
    }

    HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return send("POST", path, "application/json", json.getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(60));
    }

    HttpResponse<String> patch(String path, String contentType, String body) throws IOException, InterruptedException {
        return send("PATCH", path, contentType, body.getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(60));
    }

    JsonNode getJson(String path) throws IOException, InterruptedException {
        return JSON.readTree(get(path).body());
    }

    /** Polls {@code path} until its JSON satisfies {@code condition}; fails with the last answer after {@code timeout}. */
    JsonNode await(String path, Predicate<JsonNode> condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = get(path);
                last = r.statusCode() + " " + abbreviate(r.body());
                if (r.statusCode() == 200) {
                    JsonNode n = JSON.readTree(r.body());
                    if (condition.test(n)) {
                        return n;
                    }
                }
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("GET " + path + " did not reach the expected state within " + timeout + "; last: "
                + last);
    }

    /** Waits until {@code /readyz} answers 200. */
    void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = send("GET", "/readyz?verbose", null, null, Duration.ofSeconds(5));
                if (r.statusCode() == 200) {
                    return;
                }
                last = r.statusCode() + " " + r.body();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the API was not ready within " + timeout + "; last: " + last);
    }

    static String abbreviate(String s) {
        return s == null || s.length() <= 600 ? s : s.substring(0, 600) + "...";
    }
}
