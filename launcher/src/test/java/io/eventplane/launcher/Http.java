package io.eventplane.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;

/** A tiny JSON-over-HTTP client for end-to-end tests, with polling to a deadline instead of sleeps. */
final class Http {
    static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client;
    private final String base;
    private final String token;

    Http(String base) {
        this(base, null, null);
    }

    /** Over TLS with {@code tls} (trusting the cluster CA, maybe presenting a client certificate), maybe a bearer token. */
    Http(String base, javax.net.ssl.SSLContext tls, String token) {
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        if (tls != null) {
            b.sslContext(tls);
        }
        this.client = b.build();
        this.base = base;
        this.token = token;
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path));
        return token == null ? b : b.header("Authorization", "Bearer " + token);
    }

    HttpResponse<String> get(String path) throws Exception {
        return client.send(request(path).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A GET with extra headers (a cookie). */
    HttpResponse<String> get(String path, java.util.Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = request(path).timeout(Duration.ofSeconds(30));
        headers.forEach(b::header);
        return client.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String json) throws Exception {
        return client.send(request(path).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A POST with extra headers (a forged User-Agent, impersonation). */
    HttpResponse<String> post(String path, String json, java.util.Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = request(path).timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json");
        headers.forEach(b::header);
        return client.send(b.POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Any method with an optional body of {@code contentType}. */
    HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder b = request(path).timeout(Duration.ofSeconds(60));
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    JsonNode getJson(String path) throws Exception {
        return JSON.readTree(get(path).body());
    }

    /** Polls {@code path} until its JSON satisfies {@code condition}; fails with the last body after {@code timeout}. */
    JsonNode await(String path, Predicate<JsonNode> condition, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = get(path);
                last = r.statusCode() + " " + r.body();
                if (r.statusCode() == 200) {
                    JsonNode n = JSON.readTree(r.body());
                    if (condition.test(n)) {
                        return n;
                    }
                }
            } catch (java.io.IOException e) {
                last = e.toString();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("GET " + path + " did not reach the expected state within " + timeout + "; last: " + last);
    }

    static String pod(String name) {
        return """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","labels":{"app":"nginx"}},
                 "spec":{"containers":[{"name":"nginx","image":"nginx:1.14.2","ports":[{"containerPort":80}],
                 "resources":{"requests":{"cpu":"100m","memory":"64Mi"}}}]}}
                """.formatted(name);
    }

    static boolean running(JsonNode pod) {
        return "Running".equals(pod.path("status").path("phase").asText());
    }
}
