package io.eventplane.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.model.Node;
import io.eventplane.nodesim.NodeFailure;
import io.eventplane.nodesim.NodePressure;
import io.eventplane.nodesim.NodeRoster;
import io.eventplane.nodesim.NodeShape;
import io.eventplane.nodesim.NodeSimSettings;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code eventplane node fail|recover <name>}: tells a simulated node to stop heartbeating (its kubelet "loses power")
 * or to come back, by a merge patch of the Node's {@code sim.eventplane.io/node-state} annotation through the API, so
 * the change is in the log like any other ({@link NodeFailure}). {@code eventplane node pressure <name>
 * memory|disk|pid on|off} puts the node under pressure or takes it off the same way, through the annotation
 * {@code sim.eventplane.io/<kind>-pressure} ({@link NodePressure}). {@code eventplane node add [name] [--labels k=v,...]}
 * and {@code eventplane node remove <name>} add a simulated node to a running cluster or take one away
 * ({@link NodeRoster}): add creates the Node, annotated for node-sim, and waits until node-sim reports it Ready;
 * remove marks it removed (its kubelet stops for good), then deletes the Node and its Lease.
 */
final class NodeCommand {
    private NodeCommand() {
    }

    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        String verb = options.positional().isEmpty() ? "" : options.positional().get(0);
        switch (verb) {
            case "pressure" -> {
                return pressure(options, out, err);
            }
            case "add" -> {
                return add(options, out, err);
            }
            case "remove" -> {
                return remove(options, out, err);
            }
            default -> {
            }
        }
        if (options.positional().size() != 2 || !(verb.equals("fail") || verb.equals("recover"))) {
            throw new Options.UsageException("wants fail|recover <node name>, e.g. `node fail node-2`, pressure <node name>"
                    + " memory|disk|pid on|off, add [<node name>] [--labels k=v,...], or remove <node name>");
        }
        boolean fail = options.positional().get(0).equals("fail");
        String name = options.positional().get(1);
        String patch = "{\"metadata\":{\"annotations\":{\"" + NodeFailure.ANNOTATION + "\":"
                + (fail ? "\"" + NodeFailure.FAILED + "\"" : "null") + "}}}";
        return patch(options, name, patch, out, err, "node/" + name + (fail
                ? " failed: its kubelet stops renewing its Lease and reporting status"
                : " recovered: its kubelet reports Ready and renews its Lease again"));
    }

    private static int pressure(Options options, PrintStream out, PrintStream err) throws Exception {
        List<String> args = options.positional();
        if (args.size() != 4 || !(args.get(3).equals("on") || args.get(3).equals("off"))) {
            throw new Options.UsageException("wants pressure <node name> memory|disk|pid on|off, e.g. `node pressure node-2 memory on`");
        }
        NodePressure.Kind kind;
        try {
            kind = NodePressure.Kind.parse(args.get(2));
        } catch (IllegalArgumentException e) {
            throw new Options.UsageException(e.getMessage());
        }
        boolean on = args.get(3).equals("on");
        String name = args.get(1);
        String patch = "{\"metadata\":{\"annotations\":{\"" + kind.annotation() + "\":" + (on ? "\"true\"" : "null") + "}}}";
        return patch(options, name, patch, out, err, "node/" + name + (on
                ? " under " + kind.word() + " pressure: its kubelet reports " + kind.condition() + "=True"
                : " relieved of " + kind.word() + " pressure: its kubelet reports " + kind.condition() + "=False"));
    }

    private static int patch(Options options, String name, String patch, PrintStream out, PrintStream err, String done)
            throws Exception {
        String server = Connection.server(options, err, "node");
        if (server == null) {
            return 1;
        }
        String url = server + "/api/v1/nodes/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
        try {
            HttpResponse<String> response = Api.exchange(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/merge-patch+json")
                    .method("PATCH", HttpRequest.BodyPublishers.ofString(patch)));
            if (response.statusCode() == 404) {
                err.println("eventplane node: no node \"" + name + "\"");
                return 1;
            }
            if (response.statusCode() != 200) {
                err.println("eventplane node: the API answered " + response.statusCode() + ": " + response.body());
                return 1;
            }
            out.println(done);
            return 0;
        } catch (java.io.IOException e) {
            err.println("eventplane node: cannot reach " + server + ": " + e.getMessage());
            return 1;
        }
    }

    // ---- nodes joining and leaving

    private static int add(Options options, PrintStream out, PrintStream err) throws Exception {
        List<String> args = options.positional();
        if (args.size() > 2) {
            throw new Options.UsageException("wants add [<node name>] [--labels k=v,...], e.g. `node add` or `node add node-7`");
        }
        String server = Connection.server(options, err, "node");
        if (server == null) {
            return 1;
        }
        String prefix = options.get("prefix", NodeSimSettings.defaults().namePrefix());
        Map<String, String> labels = labels(options.get("labels", ""));
        try {
            String name = args.size() == 2 ? args.get(1) : prefix + nextIndex(server, prefix);
            int index = NodeRoster.index(name, prefix);
            if (index < 1) {
                throw new Options.UsageException("a simulated node is named " + prefix + "<number>, e.g. " + prefix + "4");
            }
            Node node = NodeRoster.added(prefix, index, labels, NodeShape.defaults(), Instant.now());
            Api.post(server + "/api/v1/nodes", "application/json", KubeJson.get().encodeObject(node).toString());
            out.println("node/" + name + " added: node-sim registers it");
            if (!"false".equals(options.get("wait", "true"))) {
                if (!awaitReady(server, name, Duration.ofSeconds(options.intValue("timeout", 60)))) {
                    err.println("eventplane node: node/" + name + " is not Ready yet (is node-sim running?)");
                    return 1;
                }
                out.println("node/" + name + " is Ready");
            }
            return 0;
        } catch (Api.CallFailed e) {
            err.println("eventplane node: " + e.getMessage());
            return 1;
        }
    }

    /** One more than the highest index among the nodes named {@code <prefix><n>}. */
    private static int nextIndex(String server, String prefix) throws Api.CallFailed, InterruptedException {
        int max = 0;
        for (JsonNode item : Api.get(server + "/api/v1/nodes", "application/json").path("items")) {
            max = Math.max(max, NodeRoster.index(item.path("metadata").path("name").asText(), prefix));
        }
        return max + 1;
    }

    private static boolean awaitReady(String server, String name, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String url = server + "/api/v1/nodes/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
        while (System.nanoTime() < deadline) {
            try {
                for (JsonNode c : Api.get(url, "application/json").path("status").path("conditions")) {
                    if ("Ready".equals(c.path("type").asText()) && "True".equals(c.path("status").asText())) {
                        return true;
                    }
                }
            } catch (Api.CallFailed e) {
                // not there yet
            }
            Thread.sleep(200);
        }
        return false;
    }

    static Map<String, String> labels(String text) {
        Map<String, String> out = new HashMap<>();
        for (String pair : text.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq < 1) {
                throw new Options.UsageException("--labels wants key=value[,key=value...], got \"" + pair + "\"");
            }
            out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return out;
    }

    private static int remove(Options options, PrintStream out, PrintStream err) throws Exception {
        if (options.positional().size() != 2) {
            throw new Options.UsageException("wants remove <node name>, e.g. `node remove node-3`");
        }
        String name = options.positional().get(1);
        String patch = "{\"metadata\":{\"annotations\":{\"" + NodeFailure.ANNOTATION + "\":\"" + NodeFailure.REMOVED
                + "\"}}}";
        int marked = patch(options, name, patch, out, err, "node/" + name + " removed: its kubelet stopped");
        if (marked != 0) {
            return marked;
        }
        String server = Connection.server(options, err, "node");
        String node = server + "/api/v1/nodes/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
        String lease = server + "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/"
                + URLEncoder.encode(name, StandardCharsets.UTF_8);
        for (String url : List.of(node, lease)) {
            HttpResponse<String> response = Api.exchange(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(30)).DELETE());
            if (response.statusCode() >= 300 && response.statusCode() != 404) {
                err.println("eventplane node: deleting " + url + " answered " + response.statusCode() + ": "
                        + response.body());
                return 1;
            }
        }
        out.println("node/" + name + " and its Lease deleted; PodGC deletes the pods that were bound to it");
        return 0;
    }
}
