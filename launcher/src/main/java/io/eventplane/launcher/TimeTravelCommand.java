package io.eventplane.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.eventplane.core.kinds.KindInfo;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Time travel from the command line. {@code eventplane get <kind> [name] [-n ns | -A] --as-of <time|age|rv>} prints
 * what {@code kubectl get} would have printed then (a table, or {@code -o yaml|json}); {@code eventplane diff
 * <kind>/<ns>/<name> --from <time|age> [--to <time|age>]} prints how one object changed between two moments.
 */
final class TimeTravelCommand {
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

    private TimeTravelCommand() {
    }

    static int get(Options options, PrintStream out, PrintStream err) throws Exception {
        if (options.positional().isEmpty() || options.positional().size() > 2) {
            throw new Options.UsageException("usage: eventplane get <kind> [name] [-n namespace | -A] --as-of <time|age|resourceVersion> [-o yaml|json|wide]");
        }
        String asOf = options.get("as-of", null);
        if (asOf == null) {
            throw new Options.UsageException("wants --as-of (for the present, use kubectl get)");
        }
        String server = Connection.server(options, err, "get");
        if (server == null) {
            return 1;
        }
        KindInfo kind = HistoryCommand.resolveKind(options.positional().get(0)).orElseThrow(() ->
                new Options.UsageException("unknown kind \"" + options.positional().get(0) + "\""));
        String name = options.positional().size() == 2 ? options.positional().get(1) : null;
        boolean all = options.named().containsKey("A") || options.named().containsKey("all-namespaces");
        String namespace = kind.namespaced() && !all ? options.get("n", options.get("namespace", "default")) : null;
        String url = server + path(kind, namespace, name) + "?asOf=" + URLEncoder.encode(asOfParam(asOf), StandardCharsets.UTF_8);
        String output = options.get("o", options.get("output", ""));
        long started = System.nanoTime();
        try {
            if (output.equals("json") || output.equals("yaml")) {
                JsonNode body = Api.get(url, "application/json");
                out.print(output.equals("json") ? Api.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(body) + "\n"
                        : new ObjectMapper(new YAMLFactory()).writeValueAsString(body));
            } else {
                printTable(Api.get(url, TABLE), output.equals("wide"), all && kind.namespaced(), out);
            }
        } catch (Api.CallFailed e) {
            err.println("eventplane get: " + e.getMessage());
            return 1;
        }
        err.printf("(state as of %s, rebuilt in %.2f s)%n", asOf, (System.nanoTime() - started) / 1e9);
        return 0;
    }

    static int diff(Options options, PrintStream out, PrintStream err) throws Exception {
        if (options.positional().size() != 1 || options.get("from", null) == null) {
            throw new Options.UsageException("usage: eventplane diff <kind>/<namespace>/<name> --from <time|age|rv> [--to <time|age|rv>]");
        }
        String server = Connection.server(options, err, "diff");
        if (server == null) {
            return 1;
        }
        String[] parts = options.positional().get(0).split("/");
        KindInfo kind = HistoryCommand.resolveKind(parts[0]).orElseThrow(() ->
                new Options.UsageException("unknown kind \"" + parts[0] + "\""));
        String namespace = kind.namespaced() ? (parts.length == 3 ? parts[1] : "default") : null;
        String name = parts[parts.length - 1];
        String base = server + path(kind, namespace, name);
        try {
            JsonNode from = fetch(base + "?asOf=" + URLEncoder.encode(asOfParam(options.get("from", null)), StandardCharsets.UTF_8));
            String to = options.get("to", null);
            JsonNode now = fetch(to == null ? base : base + "?asOf=" + URLEncoder.encode(asOfParam(to), StandardCharsets.UTF_8));
            List<String> lines = diff(from, now);
            out.printf("--- %s as of %s%n+++ %s as of %s%n", options.positional().get(0), options.get("from", null),
                    options.positional().get(0), to == null ? "now" : to);
            lines.forEach(out::println);
            return lines.isEmpty() ? 0 : 1;
        } catch (Api.CallFailed e) {
            err.println("eventplane diff: " + e.getMessage());
            return 2;
        }
    }

    /** A 404 is an answer here (the object did not exist then): an empty object. */
    private static JsonNode fetch(String url) throws Api.CallFailed, InterruptedException {
        try {
            return Api.get(url, "application/json");
        } catch (Api.CallFailed e) {
            if (e.getMessage().contains("not found")) {
                return Api.JSON.createObjectNode();
            }
            throw e;
        }
    }

    /** Field-by-field: {@code - path: old} and {@code + path: new} lines in path order. */
    static List<String> diff(JsonNode a, JsonNode b) {
        Map<String, String> left = new TreeMap<>();
        Map<String, String> right = new TreeMap<>();
        flatten("", a, left);
        flatten("", b, right);
        TreeMap<String, String[]> changed = new TreeMap<>();
        left.forEach((k, v) -> {
            if (!v.equals(right.get(k))) {
                changed.put(k, new String[] {v, right.get(k)});
            }
        });
        right.forEach((k, v) -> {
            if (!left.containsKey(k)) {
                changed.put(k, new String[] {null, v});
            }
        });
        List<String> out = new ArrayList<>();
        changed.forEach((k, v) -> {
            if (v[0] != null) {
                out.add("- " + k + ": " + v[0]);
            }
            if (v[1] != null) {
                out.add("+ " + k + ": " + v[1]);
            }
        });
        return out;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> out) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!(prefix.equals("metadata") && e.getKey().equals("managedFields"))) {
                    flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                flatten(prefix + "[" + i + "]", node.get(i), out);
            }
        } else {
            out.put(prefix, node.toString());
        }
    }

    private static void printTable(JsonNode table, boolean wide, boolean withNamespace, PrintStream out) {
        List<Integer> columns = new ArrayList<>();
        List<String> header = new ArrayList<>();
        if (withNamespace) {
            header.add("NAMESPACE");
        }
        JsonNode defs = table.path("columnDefinitions");
        for (int i = 0; i < defs.size(); i++) {
            if (wide || defs.get(i).path("priority").asInt() == 0) {
                columns.add(i);
                header.add(defs.get(i).path("name").asText().toUpperCase());
            }
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(header);
        for (JsonNode row : table.path("rows")) {
            List<String> r = new ArrayList<>();
            if (withNamespace) {
                r.add(row.path("object").path("metadata").path("namespace").asText());
            }
            for (int c : columns) {
                JsonNode cell = row.path("cells").get(c);
                r.add(cell == null || cell.isNull() ? "<none>" : cell.asText());
            }
            rows.add(r);
        }
        if (rows.size() == 1) {
            out.println("No resources found.");
            return;
        }
        int[] width = new int[header.size()];
        for (List<String> r : rows) {
            for (int i = 0; i < r.size(); i++) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        for (List<String> r : rows) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < r.size(); i++) {
                sb.append(i == r.size() - 1 ? r.get(i) : String.format("%-" + (width[i] + 3) + "s", r.get(i)));
            }
            out.println(sb.toString().stripTrailing());
        }
    }

    private static String asOfParam(String text) {
        return text.matches("[0-9]+(\\.[0-9]+)*") ? text : Api.moment(text, Instant.now()).toString();
    }

    static String path(KindInfo kind, String namespace, String name) {
        String base = kind.group().isEmpty() ? "/api/v1" : "/apis/" + kind.group() + "/" + kind.version();
        return base + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + kind.plural()
                + (name == null ? "" : "/" + name);
    }
}
