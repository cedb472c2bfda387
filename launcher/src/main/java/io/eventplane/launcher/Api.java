package io.eventplane.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/** The small HTTP client the commands that talk to the API share: JSON in, JSON out, a Status turned into a message. */
final class Api {
    static final ObjectMapper JSON = new ObjectMapper();
    private static volatile HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static volatile String token;

    /**
     * Calls the API as the kubeconfig's user: trusting its CA, presenting its client certificate or token (what
     * {@code eventplane up} writes); plain HTTP kubeconfigs change nothing.
     */
    static void useKubeconfig(java.nio.file.Path kubeconfig) throws IOException {
        String ca = Kubeconfig.field(kubeconfig, "certificate-authority-data:");
        if (ca == null) {
            return;
        }
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .sslContext(io.eventplane.client.pki.TlsContexts.client(ca,
                        Kubeconfig.field(kubeconfig, "client-certificate-data:"),
                        Kubeconfig.field(kubeconfig, "client-key-data:")))
                .build();
        token = Kubeconfig.field(kubeconfig, "token:");
    }

    /** A failed call: the server's Status message, or why it could not be reached. */
    static final class CallFailed extends Exception {
        CallFailed(String message) {
            super(message);
        }
    }

    private Api() {
    }

    static JsonNode get(String url, String accept) throws CallFailed, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Accept", accept).GET(), url);
    }

    static JsonNode post(String url, String contentType, String body) throws CallFailed, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)), url);
    }

    /** Any request as the kubeconfig's user (see {@link #useKubeconfig}), the answer as it came. */
    static HttpResponse<String> exchange(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode send(HttpRequest.Builder request, String url) throws CallFailed, InterruptedException {
        HttpResponse<String> response;
        try {
            if (token != null) {
                request.header("Authorization", "Bearer " + token);
            }
            response = http.send(request.timeout(Duration.ofMinutes(5)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new CallFailed("cannot reach " + url + ": " + e.getMessage());
        }
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (IOException e) {
            throw new CallFailed("the server answered " + response.statusCode() + " with a body that is not JSON");
        }
        if (response.statusCode() >= 300) {
            throw new CallFailed(body.path("message").asText("the server answered " + response.statusCode()));
        }
        return body;
    }

    /** {@code url?name=value&...}, leaving out null values. */
    static String withQuery(String url, Map<String, String> params) {
        StringJoiner q = new StringJoiner("&");
        params.forEach((k, v) -> {
            if (v != null) {
                q.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
        });
        return q.length() == 0 ? url : url + (url.contains("?") ? "&" : "?") + q;
    }

    static Map<String, String> params() {
        return new LinkedHashMap<>();
    }

    /**
     * A moment given on the command line: RFC 3339 ({@code 2026-11-21T10:00:00Z}) or an age ({@code 90s}, {@code 10m},
     * {@code 2h}, {@code 1d}) meaning that long before {@code now}.
     */
    static Instant moment(String text, Instant now) {
        String t = text.trim();
        if (t.matches("[0-9]+[smhd]")) {
            long n = Long.parseLong(t.substring(0, t.length() - 1));
            Duration d = switch (t.charAt(t.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
            return now.minus(d);
        }
        try {
            return Instant.parse(t);
        } catch (java.time.format.DateTimeParseException e) {
            throw new Options.UsageException("\"" + text + "\" is neither an RFC 3339 time (2026-11-21T10:00:00Z) "
                    + "nor an age (90s, 10m, 2h, 1d)");
        }
    }
}
