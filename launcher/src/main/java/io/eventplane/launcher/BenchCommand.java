package io.eventplane.launcher;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.Requests;
import io.eventplane.client.TopicSetup;
import io.eventplane.log.Command;
import io.eventplane.model.Container;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.ResourceRequirements;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.ApicurioRegistry;
import io.eventplane.testkit.EmbeddedKafka;
import io.eventplane.topology.WriterGroup;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code eventplane bench writer}: the single writer's throughput and a create's latency, on a real broker and
 * registry with exactly-once on. Starts its own broker and registry unless given {@code --bootstrap} and
 * {@code --registry}; always uses fresh topics (a unique prefix), so it never touches a live cluster's log.
 */
final class BenchCommand {
    private BenchCommand() {
    }

    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        String mode = options.positional().size() == 1 ? options.positional().get(0) : "";
        if (!java.util.Set.of("writer", "view", "replay", "scheduler", "nodesim", "deployment", "daemonset", "gc", "jobs",
                "statefulset", "console", "authz", "crd", "api").contains(mode)) {
            throw new Options.UsageException("usage: eventplane bench writer [--commands N] [--warmup 200] [--rounds 1] [--latency-samples N] "
                    + "[--commit-interval MS] [--partitions P] [--writers W] [--bootstrap B --registry URL]\n"
                    + "       eventplane bench view [--pods N] [--nodes M] [--bootstrap B --registry URL]\n"
                    + "       eventplane bench replay [--pods N] [--changes K] [--bootstrap B --registry URL]\n"
                    + "       eventplane bench scheduler [--nodes 5000] [--pods 10000] [--shape basic|anti-affinity|spread|deployment] "
                    + "[--paced-pods 1000] [--rate 200] [--seed S] [--bootstrap B --registry URL]\n"
                    + "       eventplane bench nodesim [--nodes 5000] [--seconds 30] [--pods 4000] [--instances 1]\n"
                    + "       eventplane bench deployment [--replicas N] [--nodes M] [--bootstrap B --registry URL]\n"
                    + "       eventplane bench daemonset [--nodes 5000] [--max-unavailable 10%] [--max-surge 0] "
                    + "[--bootstrap B --registry URL]\n"
                    + "       eventplane bench gc [--pods N] [--bootstrap B --registry URL]\n"
                    + "       eventplane bench jobs [--jobs 1000] [--completions 10] [--parallelism 10] [--nodes 100] "
                    + "[--run-seconds 1] [--bootstrap B --registry URL]\n"
                    + "       eventplane bench statefulset [--sets 100] [--replicas 10] [--nodes 100] "
                    + "[--policy OrderedReady|Parallel|both] [--bootstrap B --registry URL]\n"
                    + "       eventplane bench console [--pods 150000] [--nodes 5000] [--rounds 3] [--rewrite] [--bootstrap B --registry URL]\n"
                    + "       eventplane bench authz [--creates 1000] [--bindings 100] [--bootstrap B --registry URL]\n"
                    + "       eventplane bench crd [--objects 100000] [--latency-samples 200] [--bootstrap B --registry URL]\n"
                    + "       eventplane bench api [--creates 1500] [--bootstrap B --registry URL]");
        }
        int commands = options.intValue("commands", 20_000);
        int samples = options.intValue("latency-samples", 500);
        // creates sent (and waited for) before the measured ones: registers schemas, fills caches, lets the JIT compile
        int warmup = Math.max(1, options.intValue("warmup", 200));
        long commitInterval = options.intValue("commit-interval", 200);
        // measured rounds of --commands creates each, one after another in the same process
        int rounds = Math.max(1, options.intValue("rounds", 1));
        Path work = Files.createTempDirectory("eventplane-bench");
        EmbeddedKafka kafka = null;
        ApicurioRegistry registry = null;
        String bootstrap = options.get("bootstrap", null);
        String registryUrl = options.get("registry", null);
        try {
            long t0 = System.nanoTime();
            if (bootstrap == null) {
                kafka = EmbeddedKafka.builder().logDir(work.resolve("kafka")).build().start();
                bootstrap = kafka.bootstrapServers();
                out.printf("startup: broker ready in %.2f s%n", kafka.startupDuration().toMillis() / 1000.0);
            }
            if (registryUrl == null) {
                registry = ApicurioRegistry.builder().workDir(work.resolve("registry")).build().start();
                registryUrl = registry.url();
                out.printf("startup: registry ready in %.2f s%n", registry.startupDuration().toMillis() / 1000.0);
            }
            EventplaneConfig config = new EventplaneConfig(bootstrap, registryUrl,
                    new Topics("bench" + UUID.randomUUID().toString().substring(0, 8)),
                    mode.equals("writer") ? options.intValue("partitions", 1) : 1);
            // writer instances (one Kafka Streams application, one stream thread each) sharing the partitions' tasks
            int writers = options.intValue("writers", 1);
            if (mode.equals("replay")) {
                ReplayBench.run(config, options.intValue("pods", 150_000), options.intValue("changes", 4), out);
                return 0;
            }
            if (mode.equals("api")) {
                ApiAuthBench.run(config, work, options.intValue("creates", 1500), out);
                return 0;
            }
            if (mode.equals("scheduler")) {
                return SchedulerBench.run(config, work, options, out, err);
            }
            if (mode.equals("nodesim") && options.intValue("instances", 1) > 1) {
                NodeSimBench.sharded(config, work, options.intValue("nodes", 5_000), options.intValue("instances", 1),
                        options.intValue("seconds", 30), out);
                return 0;
            }
            if (mode.equals("nodesim")) {
                NodeSimBench.run(config, work, options.intValue("nodes", 5_000), options.intValue("seconds", 30),
                        options.intValue("pods", 4_000), out);
                return 0;
            }
            if (mode.equals("crd")) {
                CrdBench.run(config, work, options.intValue("objects", 100_000), options.intValue("latency-samples", 200),
                        out);
                return 0;
            }
            if (mode.equals("deployment")) {
                DeploymentBench.run(config, work, options.intValue("replicas", 1000), options.intValue("nodes", 100), out);
                return 0;
            }
            if (mode.equals("daemonset")) {
                DaemonSetBench.run(config, work, options.intValue("nodes", 5_000),
                        DaemonSetBench.intOrPercent(options.get("max-unavailable", "10%")),
                        DaemonSetBench.intOrPercent(options.get("max-surge", "0")), out);
                return 0;
            }
            if (mode.equals("jobs")) {
                int completions = options.intValue("completions", 10);
                JobBench.run(config, work, options.intValue("jobs", 1000), completions,
                        options.intValue("parallelism", completions), options.intValue("nodes", 100),
                        Double.parseDouble(options.get("run-seconds", "1")), out);
                return 0;
            }
            if (mode.equals("statefulset")) {
                String policy = options.get("policy", "both");
                StatefulSetBench.run(config, work, options.intValue("sets", 100), options.intValue("replicas", 10),
                        options.intValue("nodes", 100), policy.equals("both") ? List.of("OrderedReady", "Parallel")
                                : List.of(policy), out);
                return 0;
            }
            if (mode.equals("gc")) {
                GcBench.run(config, work, options.intValue("pods", 1_000), out);
                return 0;
            }
            if (mode.equals("console")) {
                return ConsoleBench.run(config, work, options, out);
            }
            if (mode.equals("authz")) {
                AuthzBench.run(config, work, options.intValue("creates", 1000), options.intValue("bindings", 100), out);
                return 0;
            }
            if (mode.equals("view")) {
                ViewBench.run(config, work, options.intValue("pods", 150_000), options.intValue("nodes", 5_000), out);
                return 0;
            }
            long tw = System.nanoTime();
            TopicSetup.ensureTopics(config);
            try (WriterGroup writer = new WriterGroup(config, work.resolve("writer"), commitInterval, writers).start();
                 ObjectView view = new ObjectView(config, "bench-view", 1000).start();
                 Outcomes outcomes = new Outcomes(config, "bench-outcomes");
                 CommandSender sender = new CommandSender(config, "bench")) {
                // Every instance running, and no rebalance among them for a moment (they join one after another).
                for (int stable = 0; stable < (writers > 1 ? 50 : 1); stable = writer.isReady() ? stable + 1 : 0) {
                    Thread.sleep(20);
                }
                view.awaitReady(Duration.ofSeconds(60));
                out.printf("startup: writer running and view ready in %.2f s (whole bench setup %.2f s)%n",
                        (System.nanoTime() - tw) / 1e9, (System.nanoTime() - t0) / 1e9);
                Commands build = new Commands("bench");
                Requests requests = new Requests(sender, outcomes, view);
                // Warm-up: registers schemas, fills caches, JIT. Beyond a few hundred, sent in bulk as the measured
                // phase sends (so that the same paths compile), then waited for.
                long tWarm = System.nanoTime();
                for (int i = 0; i < Math.min(warmup, 200); i++) {
                    requests.submit(build.create(pod("warm-" + i)), Duration.ofSeconds(30)).get();
                }
                if (warmup > 200) {
                    AtomicLong warmed = countCreated(view, "warm-bulk-");
                    for (int i = 200; i < warmup; i++) {
                        sender.send(build.create(pod("warm-bulk-" + i)));
                    }
                    sender.flush();
                    while (warmed.get() < warmup - 200) {
                        Thread.sleep(5);
                    }
                }
                out.printf("warm-up: %,d creates in %.2f s before the measured ones%n", warmup,
                        (System.nanoTime() - tWarm) / 1e9);

                // Round 1 is what a freshly started writer does; later rounds show it warm (the JIT done compiling).
                for (int round = 1; round <= rounds; round++) {
                    String prefix = rounds == 1 ? "tp-" : "tp" + round + "-";
                    String label = rounds == 1 ? "throughput"
                            : "throughput, round " + round + " of " + rounds + (round == 1 ? " (cold)" : " (warm)");
                    AtomicLong seen = countCreated(view, prefix);
                    out.printf(label + ": sending %,d creates...%n", commands);
                    long start = System.nanoTime();
                    long cpuStart = processCpuNanos();
                    Map<String, Long> threadsStart = threadCpuByRole();
                    for (int i = 0; i < commands; i++) {
                        sender.send(build.create(pod(prefix + i)));
                    }
                    sender.flush();
                    long sent = System.nanoTime();
                    long lastPrint = sent;
                    while (seen.get() < commands) {
                        Thread.sleep(5);
                        if (System.nanoTime() - lastPrint > 1_000_000_000L) {
                            lastPrint = System.nanoTime();
                            out.printf("  ... %,d / %,d events (%.1f s)%n", seen.get(), commands,
                                    (lastPrint - start) / 1e9);
                        }
                    }
                    double secs = (System.nanoTime() - start) / 1e9;
                    double cpuSecs = (processCpuNanos() - cpuStart) / 1e9;
                    Map<String, Long> threadsEnd = threadCpuByRole();
                    out.printf(label + ": %,d commands -> %,d events appended and visible in %.2f s = %,.0f events/s "
                                    + "(send took %.2f s; exactly_once_v2, commit.interval.ms=%d, fresh commands commit at once, %d "
                                    + "partition(s), %d writer instance(s))%n",
                            commands, commands, secs, commands / secs, (sent - start) / 1e9, commitInterval,
                            config.partitions(), writers);
                    // On a shared machine the rate depends on what else runs; the CPU per event does much less.
                    out.printf(label + ": this process (writer, broker, view, sender) used %.1f s of CPU = %.1f cores, "
                            + "%.3f ms of CPU per event%n", cpuSecs, cpuSecs / secs, cpuSecs * 1000 / commands);
                    StringBuilder roles = new StringBuilder();
                    threadsEnd.forEach((role, end) -> roles.append(String.format(" %s %.3f ms,", role,
                            (end - threadsStart.getOrDefault(role, 0L)) / 1e6 / commands)));
                    out.printf(label + ": CPU per event by thread:%s the rest (other JVM threads, threads that ended) "
                            + "%.3f ms%n", roles, cpuSecs * 1000 / commands - threadsEnd.entrySet().stream().mapToLong(
                                    e -> e.getValue() - threadsStart.getOrDefault(e.getKey(), 0L)).sum() / 1e6 / commands);
                }

                if (options.named().containsKey("verbose")) {
                    for (WriterService w : writer.instances()) {
                        w.threadMetrics().forEach((k, v) -> out.printf("  writer %s = %.3f%n", k, v));
                    }
                }
                long[] latencies = new long[samples];
                for (int i = 0; i < samples; i++) {
                    Command c = build.create(pod("lat-" + i));
                    long s = System.nanoTime();
                    Requests.Result r = requests.submit(c, Duration.ofSeconds(30)).get();
                    latencies[i] = System.nanoTime() - s;
                    if (!r.accepted()) {
                        err.println("bench: create rejected: " + r.outcome().getMessage());
                        return 1;
                    }
                }
                Arrays.sort(latencies);
                out.printf("create latency (n=%d, one at a time, send -> writer -> event -> view): p50 %.1f ms, "
                                + "p90 %.1f ms, p99 %.1f ms, max %.1f ms%n", samples, pct(latencies, 50),
                        pct(latencies, 90), pct(latencies, 99), latencies[samples - 1] / 1e6);
            }
            return 0;
        } finally {
            if (registry != null) {
                registry.close();
            }
            if (kafka != null) {
                kafka.close();
            }
            LocalCluster.deleteRecursively(work);
        }
    }

    /**
     * CPU time of the live threads by role: the writer's stream threads (with their producers), the view, the
     * command sender's producer, and the broker (everything else named by Kafka's server); where Linux shows them,
     * the JVM's garbage collector and JIT compiler threads.
     */
    static Map<String, Long> threadCpuByRole() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        Map<String, Long> out = new java.util.TreeMap<>();
        for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu < 0) {
                continue;
            }
            String name = info.getThreadName();
            String role = name.contains("StreamThread") ? "writer"
                    : name.contains("bench-view") ? "view"
                    : name.contains("producer-network-thread") ? "sender"
                    : name.startsWith("main") ? "main" : "broker/other";
            out.merge(role, cpu, Long::sum);
        }
        out.putAll(CpuUsage.jvmThreadNanos());
        return out;
    }

    /** A count of the changes to objects named {@code prefix}... that the view applies from now on. */
    private static AtomicLong countCreated(ObjectView view, String prefix) {
        AtomicLong count = new AtomicLong();
        view.addListener(c -> {
            if (c.getName().startsWith(prefix)) {
                count.incrementAndGet();
            }
        });
        return count;
    }

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    static double pct(long[] sorted, double p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }

    static Pod pod(String name) {
        return Pod.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default")
                        .setLabels(Map.of("app", "bench")).build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(Container.newBuilder().setName("app")
                        .setImage("nginx:1.14.2").setResources(ResourceRequirements.newBuilder()
                                .setRequests(Map.of("cpu", "100m", "memory", "64Mi")).build()).build())).build())
                .build();
    }
}
