package io.eventplane.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * {@code eventplane audit}: who changed what, when, and what the writer answered, from the log. Filters:
 * {@code --since}, {@code --until}, {@code --actor}, {@code --verb}, {@code --kind}, {@code -n/--namespace},
 * {@code --name}, {@code --outcome accepted|rejected}, {@code --limit}. Output: a table (default), {@code -o json}
 * (entries with the request and the object before and after) or {@code -o k8s} (audit.k8s.io/v1 events at
 * {@code --level}, or at the levels of an audit {@code --policy} file).
 */
final class AuditCommand {
    private AuditCommand() {
    }

    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        String server = Connection.server(options, err, "audit");
        if (server == null) {
            return 1;
        }
        Instant now = Instant.now();
        Map<String, String> q = Api.params();
        q.put("since", options.get("since", null) == null ? null : Api.moment(options.get("since", null), now).toString());
        q.put("until", options.get("until", null) == null ? null : Api.moment(options.get("until", null), now).toString());
        for (String f : new String[] {"actor", "verb", "kind", "name", "outcome", "limit"}) {
            q.put(f, options.get(f, null));
        }
        q.put("namespace", options.get("namespace", options.get("n", null)));
        String output = options.get("o", options.get("output", "table"));
        String url = Api.withQuery(server + "/apis/eventplane.io/v1/audit", q);
        try {
            switch (output) {
                case "json" -> out.println(Api.JSON.writerWithDefaultPrettyPrinter()
                        .writeValueAsString(Api.get(url, "application/json")));
                case "k8s" -> {
                    String policy = options.get("policy", null);
                    JsonNode events = policy != null
                            ? Api.post(Api.withQuery(url, Map.of("format", "k8s")), "application/yaml",
                                    Files.readString(Path.of(policy)))
                            : Api.get(Api.withQuery(url, Map.of("format", "k8s",
                                    "level", options.get("level", "RequestResponse"))), "application/json");
                    // One event per line, as kube-apiserver's log backend writes them: what audit tooling reads.
                    for (JsonNode e : events.path("items")) {
                        out.println(Api.JSON.writeValueAsString(e));
                    }
                }
                case "table" -> table(Api.get(url, "application/json"), out);
                default -> throw new Options.UsageException("-o wants table, json or k8s");
            }
        } catch (Api.CallFailed e) {
            err.println("eventplane audit: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    static void table(JsonNode list, PrintStream out) {
        int actorWidth = 22; // as wide as the longest actor (service identities are long), as kubectl sizes columns
        for (JsonNode e : list.path("items")) {
            actorWidth = Math.max(actorWidth, e.path("actor").asText().length());
        }
        String format = "%-24s  %-" + actorWidth + "s  %-13s  %-38s  %-8s  %s%n";
        out.printf(format, "TIME", "ACTOR", "VERB", "OBJECT", "OUTCOME", "DETAIL");
        for (JsonNode e : list.path("items")) {
            String object = e.path("kind").asText() + "/" + (e.path("namespace").asText().isEmpty() ? ""
                    : e.path("namespace").asText() + "/") + e.path("name").asText();
            String detail = e.path("outcome").asText().equals("accepted")
                    ? e.path("change").asText() + " rv=" + e.path("resourceVersion").asText()
                    : e.path("code").asInt() + " " + e.path("reason").asText() + ": " + e.path("message").asText();
            out.printf(format, e.path("time").asText(), e.path("actor").asText(), e.path("verb").asText(), object,
                    e.path("outcome").asText(), detail);
        }
    }
}
