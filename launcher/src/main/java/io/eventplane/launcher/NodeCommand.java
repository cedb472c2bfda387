package io.eventplane.launcher;

import io.eventplane.nodesim.NodeFailure;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * {@code eventplane node fail|recover <name>}: tells a simulated node to stop heartbeating (its kubelet "loses power")
 * or to come back, by a merge patch of the Node's {@code sim.eventplane.io/node-state} annotation through the API, so
 * the change is in the log like any other ({@link NodeFailure}).
 */
final class NodeCommand {
    private NodeCommand() {
    }

    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        if (options.positional().size() != 2 || !(options.positional().get(0).equals("fail")
                || options.positional().get(0).equals("recover"))) {
            throw new Options.UsageException("wants fail|recover <node name>, e.g. `node fail node-2`");
        }
        boolean fail = options.positional().get(0).equals("fail");
        String name = options.positional().get(1);
        String server = Connection.server(options, err, "node");
        if (server == null) {
            return 1;
        }
        String patch = "{\"metadata\":{\"annotations\":{\"" + NodeFailure.ANNOTATION + "\":"
                + (fail ? "\"" + NodeFailure.FAILED + "\"" : "null") + "}}}";
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
            out.println("node/" + name + (fail ? " failed: its kubelet stops renewing its Lease and reporting status"
                    : " recovered: its kubelet reports Ready and renews its Lease again"));
            return 0;
        } catch (java.io.IOException e) {
            err.println("eventplane node: cannot reach " + server + ": " + e.getMessage());
            return 1;
        }
    }
}
