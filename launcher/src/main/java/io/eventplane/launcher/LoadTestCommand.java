package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code eventplane loadtest}: a ClusterLoader2-style density and throughput test. Without {@code --server} it starts a
 * whole cluster in this process (broker, registry, writer, API, scheduler, {@code --nodes} simulated nodes) in a
 * temporary directory; with {@code --server URL --bootstrap B --registry R} it loads a running, possibly distributed
 * cluster. It prints progress every second and, at the end, a summary, and writes {@code report.json} and
 * {@code report.html} to {@code --report-dir}.
 */
final class LoadTestCommand {
    static final String USAGE = "usage: eventplane loadtest [--nodes 100] [--pods 3000 | --pods-per-node 30] "
            + "[--objects pods|deployments] [--deployment-size 100] [--rate 0 (pods/s, 0 = burst)] [--churn 0 (pods/s)] "
            + "[--duration 60s (churn)] [--timeout 600s] [--seed 1] [--warmup 0 (pods first run and deleted)] [--report-dir D] [--keep-data] "
            + "[--server URL --bootstrap B --registry R]";
    private static final java.util.Set<String> OPTIONS = java.util.Set.of("nodes", "pods", "pods-per-node", "objects",
            "deployment-size", "rate", "churn", "duration", "timeout", "seed", "report-dir", "keep-data", "server",
            "bootstrap", "registry", "partitions", "data-dir", "topic-prefix", "warmup");

    private LoadTestCommand() {
    }

    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        if (options.named().containsKey("help") || options.named().containsKey("h")) {
            out.println(USAGE);
            return 0;
        }
        for (String name : options.named().keySet()) {
            if (!OPTIONS.contains(name)) {
                throw new Options.UsageException("unknown option --" + name + "\n" + USAGE);
            }
        }
        int nodes = options.intValue("nodes", 100);
        int pods = options.named().containsKey("pods") ? options.intValue("pods", 0)
                : nodes * options.intValue("pods-per-node", 30);
        String objects = options.get("objects", "pods");
        if (!objects.equals("pods") && !objects.equals("deployments")) {
            throw new Options.UsageException("--objects wants pods or deployments\n" + USAGE);
        }
        if (nodes < 1 || pods < 1) {
            throw new Options.UsageException("--nodes and --pods must be at least 1\n" + USAGE);
        }
        LoadTestRun.Plan plan = new LoadTestRun.Plan(nodes, pods, objects, options.intValue("deployment-size", 100),
                Double.parseDouble(options.get("rate", "0")), Double.parseDouble(options.get("churn", "0")),
                seconds(options.get("duration", "60s")), seconds(options.get("timeout", "600s")),
                options.intValue("seed", 1), options.intValue("warmup", 0));
        Path reportDir = Path.of(options.get("report-dir", "loadtest-reports/"
                + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now())));
        String server = options.get("server", null);
        LocalCluster cluster = null;
        Path data = null;
        EventplaneConfig config;
        String api;
        Map<String, Object> environment = environment();
        try {
            if (server == null) {
                data = Files.createTempDirectory("eventplane-loadtest");
                out.printf("loadtest: starting a cluster with %,d simulated nodes in this process (%s)%n", nodes, data);
                cluster = new LocalCluster(new LocalCluster.Settings(data, nodes, 0, "127.0.0.1"), out);
                cluster.start();
                config = cluster.config();
                api = cluster.apiUrl();
                environment.put("cluster", "in-process (eventplane up), data " + data);
            } else {
                config = Connection.config(options, err, "loadtest");
                if (config == null) {
                    return 1;
                }
                api = server;
                environment.put("cluster", "external: " + server + ", Kafka " + config.bootstrapServers());
            }
            environment.put("partitions", config.partitions());
            out.printf("loadtest: %,d pods as %s at %s on %,d nodes%s%n", pods, objects,
                    plan.rate() > 0 ? String.format("%.0f pods/s", plan.rate()) : "full speed (burst)", nodes,
                    plan.churn() > 0 ? String.format(", then churn %.0f pods/s for %ds", plan.churn(),
                            plan.churnFor().toSeconds()) : "");
            LoadTestRun run = new LoadTestRun(api, config, plan, out);
            onInterrupt(() -> {
                if (run.stopRequested()) {
                    Runtime.getRuntime().halt(130);
                }
                err.println();
                err.println("loadtest: stopping; the report will cover what was measured so far (Ctrl-C again quits "
                        + "without a report)");
                run.requestStop();
            });
            run.run();
            if (run.stopRequested()) {
                environment.put("stopped", "by the user (Ctrl-C), before the run's end");
            }
            out.println("loadtest: reading each pod's timeline from the event log...");
            LoadTestTimeline timeline = LoadTestTimeline.read(config, LoadTestRun.NAMESPACE, run.startOffsets,
                    run.endOffsets);
            LoadTestReport report = new LoadTestReport(run, timeline, plan, environment);
            report.write(reportDir);
            out.println();
            out.print(report.text());
            if (run.firstFailure != null) {
                out.println("first failed call: " + run.firstFailure);
            }
            out.printf("report: %s and %s%n", reportDir.resolve("report.json"), reportDir.resolve("report.html"));
            return report.podsRunning >= pods ? 0 : 1;
        } finally {
            if (cluster != null) {
                cluster.close();
            }
            if (data != null && !options.named().containsKey("keep-data")) {
                LocalCluster.deleteRecursively(data); // the run's log is in the report; --keep-data keeps it
            }
        }
    }

    /**
     * Ctrl-C ends a long run with its report instead of losing it. Where the JVM offers no signal handling, Ctrl-C
     * keeps its default effect.
     */
    @SuppressWarnings("removal")
    private static void onInterrupt(Runnable action) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), signal -> action.run());
        } catch (RuntimeException | LinkageError e) {
            // no SIGINT handling here (another JVM, or a platform without it): Ctrl-C stops the process as usual
        }
    }

    static Map<String, Object> environment() {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("cores", Runtime.getRuntime().availableProcessors());
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            env.put("memoryGiB", Math.round(os.getTotalMemorySize() / (1024.0 * 1024 * 1024) * 10) / 10.0);
        }
        env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        env.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        env.put("maxHeapMiB", Runtime.getRuntime().maxMemory() >> 20);
        env.put("kafka", org.apache.kafka.common.utils.AppInfoParser.getVersion());
        env.put("writerCommitIntervalMs", LocalCluster.COMMIT_INTERVAL_MS);
        env.put("writerFreshMs", io.eventplane.topology.WriterService.FRESH_MS);
        env.put("writerGuarantee", "exactly_once_v2");
        return env;
    }

    static Duration seconds(String text) {
        String t = text.trim();
        try {
            if (t.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            return Duration.ofSeconds(Long.parseLong(t.endsWith("s") ? t.substring(0, t.length() - 1) : t));
        } catch (NumberFormatException e) {
            throw new Options.UsageException("\"" + text + "\" is not a duration such as 90s or 5m");
        }
    }
}
