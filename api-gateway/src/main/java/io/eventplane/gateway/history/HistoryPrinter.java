package io.eventplane.gateway.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Client side of {@code eventplane history}: fetches an object's history from a gateway and prints one line per
 * change, oldest first.
 */
public final class HistoryPrinter {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private HistoryPrinter() {
    }

    /**
     * @param serverUrl the gateway, e.g. {@code http://127.0.0.1:8080}
     * @param ref       {@code kind/namespace/name} ({@code pod/default/nginx}) or {@code kind/name} for
     *                  cluster-scoped kinds ({@code node/node-1})
     * @return 0 when printed, 1 when the server refused (the Status is printed instead)
     */
    public static int print(String serverUrl, String ref, PrintStream out) throws IOException, InterruptedException {
        return print(serverUrl, ref, out,
                r -> HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofString()));
    }

    /** How a request reaches the API (with the caller's TLS trust and credentials). */
    @FunctionalInterface
    public interface Exchange {
        HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException;
    }

    /** As {@link #print(String, String, PrintStream)}, sending through {@code exchange}. */
    public static int print(String serverUrl, String ref, PrintStream out, Exchange exchange)
            throws IOException, InterruptedException {
        String[] parts = ref.split("/");
        if (parts.length < 2 || parts.length > 3) {
            throw new IllegalArgumentException("expected kind/namespace/name or kind/name, got " + ref);
        }
        String namespace = parts.length == 3 ? parts[1] : "_";
        String name = parts[parts.length - 1];
        String url = serverUrl.replaceAll("/+$", "") + "/apis/eventplane.io/v1/history/" + enc(parts[0]) + "/"
                + enc(namespace) + "/" + enc(name);
        HttpResponse<String> response = exchange.send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(60)).GET());
        JsonNode body = MAPPER.readTree(response.body());
        if (response.statusCode() != 200) {
            out.println("Error from server (" + body.path("reason").asText() + "): " + body.path("message").asText());
            return 1;
        }
        out.printf("%-24s %-26s %-17s %-8s %s%n", "TIME", "ACTOR", "CHANGE", "RV", "STATE");
        for (JsonNode e : body) {
            out.printf("%-24s %-26s %-17s %-8s %s%n", e.path("time").asText(), e.path("actor").asText(),
                    e.path("type").asText(), e.path("resourceVersion").asText(), summary(e.path("object")));
        }
        return 0;
    }

    /** Phase and node for pods, Ready for nodes, deleting, generation. */
    static String summary(JsonNode object) {
        StringBuilder sb = new StringBuilder();
        JsonNode status = object.path("status");
        append(sb, status.has("phase") ? "phase=" + status.get("phase").asText() : null);
        append(sb, object.path("spec").has("nodeName") ? "node=" + object.path("spec").get("nodeName").asText() : null);
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals("Ready")) {
                append(sb, "Ready=" + c.path("status").asText());
            }
        }
        append(sb, object.path("metadata").has("deletionTimestamp") ? "deleting" : null);
        append(sb, "gen=" + object.path("metadata").path("generation").asText("-"));
        return sb.toString();
    }

    private static void append(StringBuilder sb, String part) {
        if (part != null) {
            sb.append(sb.length() > 0 ? " " : "").append(part);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
