package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.TopicSetup;
import io.eventplane.client.log.LogReader;
import io.eventplane.client.log.SnapshotStore;
import io.eventplane.client.log.TimeTravel;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.schemas.Topics;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code eventplane bench console}: how fast the web console paints every view on a big cluster (150,000 pods on
 * 5,000 nodes by default), in headless Chromium against a real gateway. Fills a fresh event log (see
 * {@link ConsoleBenchCluster}), starts a writer and a gateway on it, then opens each view afresh several times and
 * reports the time from the start of the navigation to the first paint with data (the console marks it), for the live
 * cluster and for a moment in the past; plus the server's answer times and the page's memory. {@code --rewrite}
 * writes every pod a second time at the end, so that no pod of the past can share the live state's rows: the worst
 * case for rebuilding the past.
 */
final class ConsoleBench {
    private ConsoleBench() {
    }

    static int run(EventplaneConfig base, Path work, Options options, PrintStream out) throws Exception {
        int pods = options.intValue("pods", 150_000);
        int nodes = options.intValue("nodes", 5_000);
        int rounds = options.intValue("rounds", 3);
        EventplaneConfig config = new EventplaneConfig(base.bootstrapServers(), base.registryUrl(),
                new Topics("consolebench" + UUID.randomUUID().toString().substring(0, 8)), 1);
        TopicSetup.ensureTopics(config);
        long t0 = System.nanoTime();
        boolean rewrite = options.named().containsKey("rewrite");
        ConsoleBenchCluster.Written cluster = new ConsoleBenchCluster(config, pods, nodes, rewrite, Instant.now())
                .write(out);
        out.printf("console: wrote %,d pods on %,d nodes (with Deployments, ReplicaSets, events%s) in %.1f s, spread "
                + "over %s .. %s%n", pods, nodes, rewrite ? ", then every pod again" : "", secs(t0), cluster.start(),
                cluster.end());
        long ts = System.nanoTime();
        SnapshotStore snapshots = new SnapshotStore(config);
        snapshots.write(TimeTravel.fromScratch(config, TimeTravel.Target.END, LogReader.Progress.NONE).fold());
        out.printf("console: snapshot of the whole state written in %.1f s (what the snapshot service does)%n", secs(ts));

        try (WriterService writer = new WriterService(config, work.resolve("consolebench-writer"), 20).start()) {
            long tg = System.nanoTime();
            GatewayServer gateway = GatewayServer.start(config, 0, "127.0.0.1");
            try {
                out.printf("console: gateway ready in %.1f s%n", secs(tg));
                String url = gateway.url();
                HttpClient http = HttpClient.newHttpClient();
                long tr = System.nanoTime();
                get(http, url + "/ui/api/overview");
                out.printf("console: first console request (builds the rows of %,d objects) answered in %.0f ms%n",
                        gateway.view().size(), (System.nanoTime() - tr) / 1e6);
                Instant middle = cluster.start().plus(ConsoleBenchCluster.SPAN.dividedBy(2)).truncatedTo(ChronoUnit.SECONDS);
                Instant recent = Instant.now().minusSeconds(20).truncatedTo(ChronoUnit.SECONDS);
                serverTimes(http, url, middle, out);
                Map<String, String> views = views(cluster, middle, recent);
                if (HeadlessChromium.unavailable().isPresent()) {
                    out.println("console: no browser measurements: " + HeadlessChromium.unavailable().get());
                    return 1;
                }
                browserTimes(url, views, rounds, out);
            } finally {
                gateway.close();
            }
        }
        return 0;
    }

    /** The views to paint: name -> route. */
    private static Map<String, String> views(ConsoleBenchCluster.Written cluster, Instant middle, Instant recent) {
        String ns = cluster.someNamespace();
        String d = cluster.someDeployment();
        Map<String, String> v = new LinkedHashMap<>();
        v.put("overview", "#/");
        v.put("nodes", "#/nodes");
        v.put("workloads", "#/workloads");
        v.put("pods", "#/pods");
        v.put("pods (filtered)", "#/pods?namespace=" + ns + "&labelSelector=app%3D" + d + "&phase=Running");
        v.put("events", "#/events");
        v.put("object", "#/object/Deployment/" + ns + "/" + d);
        v.put("pods, 30 min ago", "#/pods?at=" + enc(middle.toString()));
        v.put("nodes, 30 min ago", "#/nodes?at=" + enc(middle.toString()));
        v.put("pods, 20 s ago", "#/pods?at=" + enc(recent.toString()));
        return v;
    }

    private static void serverTimes(HttpClient http, String url, Instant middle, PrintStream out) throws Exception {
        out.println("console: server answers (p50 of 20, JSON as sent):");
        for (String path : List.of("/ui/api/overview", "/ui/api/nodes", "/ui/api/pods?limit=100",
                "/ui/api/pods?limit=100&labelSelector=app%3Dweb-42", "/ui/api/workloads?limit=100",
                "/ui/api/events?limit=100")) {
            long[] t = new long[20];
            int bytes = 0;
            for (int i = 0; i < t.length; i++) {
                long s = System.nanoTime();
                bytes = get(http, url + path).length;
                t[i] = System.nanoTime() - s;
            }
            Arrays.sort(t);
            out.printf("  %-52s %7.1f ms  %,9d bytes%n", path, t[t.length / 2] / 1e6, bytes);
        }
        long s = System.nanoTime();
        get(http, url + "/ui/api/pods?limit=100&asOf=" + enc(middle.toString()));
        out.printf("  %-52s %7.0f ms  (rebuilt from the log, no snapshot that early)%n", "/ui/api/pods?asOf=<30 min ago>",
                (System.nanoTime() - s) / 1e6);
        s = System.nanoTime();
        get(http, url + "/ui/api/pods?limit=100&asOf=" + enc(middle.plusSeconds(60).toString()));
        out.printf("  %-52s %7.0f ms  (folded forward from the kept state: a playback step)%n",
                "/ui/api/pods?asOf=<30 min ago + 60 s>", (System.nanoTime() - s) / 1e6);
    }

    private static void browserTimes(String url, Map<String, String> views, int rounds, PrintStream out)
            throws Exception {
        try (HeadlessChromium chromium = HeadlessChromium.start(1440, 900)) {
            ConsolePage page = new ConsolePage(chromium.driver(), url);
            page.open("#/", "overview"); // the browser's own start-up is not the console's
            out.printf("console: first paint in headless Chromium, from the start of navigation (a fresh page load), "
                    + "%d rounds:%n", rounds);
            out.printf("  %-20s %9s %9s %9s   %s%n", "view", "min", "median", "max", "route");
            for (Map.Entry<String, String> v : views.entrySet()) {
                String view = v.getValue().startsWith("#/object") ? "object" : v.getValue().startsWith("#/nodes")
                        ? "nodes" : v.getValue().startsWith("#/pods") ? "pods" : v.getValue().equals("#/") ? "overview"
                        : v.getValue().substring(2).replaceAll("[?].*", "");
                List<Double> times = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    times.add(page.open(v.getValue(), view));
                }
                times.sort(null);
                out.printf("  %-20s %7.0f ms %7.0f ms %7.0f ms   %s%n", v.getKey(), times.get(0),
                        times.get(times.size() / 2), times.get(times.size() - 1), v.getValue());
            }
            page.open("#/pods", "pods");
            out.printf("console: pods view: scrolled to row %,d of the list, rows filled in %.0f ms; page JS heap %.0f MiB%n",
                    page.scrollToMiddle("pods-table"), page.rowsFilledAfterScroll("pods-table"), page.jsHeapMiB());
            page.open("#/nodes", "nodes");
            out.printf("console: nodes view: page JS heap %.0f MiB with every node in the grid and the table%n",
                    page.jsHeapMiB());
        }
    }

    private static byte[] get(HttpClient http, String url) throws Exception {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(5))
                .GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(url + ": HTTP " + r.statusCode() + " " + new String(r.body(), StandardCharsets.UTF_8));
        }
        return r.body();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static double secs(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}
