package io.eventplane.launcher;

import io.eventplane.nodesim.NodeFailure;
import io.eventplane.nodesim.NodePressure;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * {@code eventplane node fail|recover <name>}: tells a simulated node to stop heartbeating (its kubelet "loses power")
 * or to come back, by a merge patch of the Node's {@code sim.eventplane.io/node-state} annotation through the API, so
 * the change is in the log like any other ({@link NodeFailure}). {@code eventplane node pressure <name>
 * memory|disk|pid on|off} puts the node under pressure or takes it off the same way, through the annotation
 * {@code sim.eventplane.io/<kind>-pressure} ({@link NodePressure}).
 */
final class NodeCommand {
    private NodeCommand() {
    }

    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        if (!options.positional().isEmpty() && options.positional().get(0).equals("pressure")) {
            return pressure(options, out, err);
        }
        if (options.positional().size() != 2 || !(options.positional().get(0).equals("fail")
                || options.positional().get(0).equals("recover"))) {
            throw new Options.UsageException("wants fail|recover <node name>, e.g. `node fail node-2`, or pressure <node name>"
                    + " memory|disk|pid on|off");
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
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/merge-patch+json")
                    .method("PATCH", HttpRequest.BodyPublishers.ofString(patch)).build(),
                    HttpResponse.BodyHandlers.ofString());
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
}
