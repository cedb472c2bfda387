package io.eventplane.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.history.HistoryPrinter;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/** {@code eventplane history pod/default/nginx}: every change of one object, oldest first, from the event log. */
final class HistoryCommand {
    private HistoryCommand() {
    }

    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        if (options.positional().size() != 1) {
            throw new Options.UsageException("wants one object, e.g. pod/default/nginx or node/node-1");
        }
        String[] parts = options.positional().get(0).split("/");
        KindInfo kind = resolveKind(parts[0]).orElseThrow(() ->
                new Options.UsageException("unknown kind \"" + parts[0] + "\""));
        String namespace;
        String name;
        if (kind.namespaced() && parts.length == 3) {
            namespace = parts[1];
            name = parts[2];
        } else if (kind.namespaced() && parts.length == 2) {
            namespace = "default";
            name = parts[1];
        } else if (!kind.namespaced() && parts.length == 2) {
            namespace = "_";
            name = parts[1];
        } else {
            throw new Options.UsageException("wants " + (kind.namespaced() ? "kind/namespace/name" : "kind/name"));
        }
        String server = Connection.server(options, err, "history");
        if (server == null) {
            return 1;
        }
        String ref = kind.kind() + "/" + namespace + "/" + name;
        try {
            if (!"json".equals(options.get("o", options.get("output", "")))) {
                return HistoryPrinter.print(server, ref, out, Api::exchange);
            }
            String url = server + "/apis/eventplane.io/v1/history/" + kind.kind() + "/" + enc(namespace) + "/" + enc(name);
            HttpResponse<String> response = Api.exchange(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(60)).GET());
            JsonNode body = new ObjectMapper().readTree(response.body());
            out.println(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(body));
            return response.statusCode() == 200 ? 0 : 1;
        } catch (java.io.IOException e) {
            err.println("eventplane history: cannot reach " + server + ": " + e.getMessage());
            return 1;
        }
    }

    static Optional<KindInfo> resolveKind(String word) {
        String w = word.toLowerCase();
        return Kinds.all().stream().filter(k -> k.kind().equalsIgnoreCase(w) || k.plural().equals(w)
                || k.singular().equals(w) || k.shortNames().contains(w)).findFirst();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
