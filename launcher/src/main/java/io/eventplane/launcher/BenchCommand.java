package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.model.Container;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.ResourceRequirements;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.ApicurioRegistry;
import io.eventplane.testkit.EmbeddedKafka;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code eventplane bench <what>}: the benchmarks ({@link WriterBench}, {@link ViewBench}, ...), on a real broker and
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
                    + "[--commit-interval MS] [--partitions P] [--writers W] [--inline-load] [--verbose] [--bootstrap B --registry URL]\n"
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
            return WriterBench.run(config, work, options, t0, out, err);
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

    /** The p-th percentile of sorted nanoseconds, in milliseconds (nearest-rank, as {@link Percentiles}). */
    static double pct(long[] sorted, double p) {
        return sorted[Percentiles.rankIndex(sorted.length, p)] / 1e6;
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
