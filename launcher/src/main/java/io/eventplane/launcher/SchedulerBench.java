package io.eventplane.launcher;

import io.eventplane.scheduler.Scheduler;
import io.eventplane.reconcile.Controller;
import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.Requests;
import io.eventplane.client.TopicSetup;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.model.Affinity;
import io.eventplane.model.Container;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodAffinityTerm;
import io.eventplane.model.PodAntiAffinity;
import io.eventplane.model.PodSpec;
import io.eventplane.model.ResourceRequirements;
import io.eventplane.model.TopologySpreadConstraint;
import io.eventplane.scheduler.SchedulerDecider;
import io.eventplane.scheduler.SchedulerObserver;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code eventplane bench scheduler}: the scheduler's throughput and latency in the shapes of Kubernetes'
 * scheduler_perf, with every decision committed to the log by the real writer on a real broker.
 *
 * <p>Phase 1 (throughput): N Ready nodes and P pending pods are created through the writer first; then the real
 * {@link Scheduler} starts, replays the log and binds them all. pods/s is P over the time from the scheduler
 * being ready to the last binding visible in its view; it reports the decision time per pod, the time from sending a
 * binding to seeing it in the log, and how the scheduler's time splits between snapshots and decisions.
 *
 * <p>Phase 2 (latency): with the scheduler running, pods are created at a steady rate and each one's latency is
 * measured from sending its create to seeing its binding in the log (create, writer, view, decide, bind, writer, view).
 */
final class SchedulerBench {
    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final String HOSTNAME = "kubernetes.io/hostname";
    private static final int ZONES = 10;

    private SchedulerBench() {
    }

    static int run(EventplaneConfig config, Path work, Options options, PrintStream out, PrintStream err) throws Exception {
        int nodes = options.intValue("nodes", 5_000);
        int pods = options.intValue("pods", 10_000);
        int paced = options.intValue("paced-pods", 1_000);
        int rate = options.intValue("rate", 200);
        String shape = options.get("shape", "basic");
        if (!List.of("basic", "anti-affinity", "spread", "deployment").contains(shape)) {
            throw new Options.UsageException("--shape must be basic, anti-affinity, spread or deployment, not \""
                    + shape + "\"");
        }
        if (nodes < 1 || pods < 1 || rate < 1 || paced < 0) {
            throw new Options.UsageException("--nodes, --pods and --rate must be positive, --paced-pods at least 0");
        }
        // anti-affinity: each group fits one per node; deployment: a ReplicaSet of 100 pods per group
        int groups = shape.equals("deployment") ? (pods + paced + DEPLOYMENT_SIZE - 1) / DEPLOYMENT_SIZE
                : (int) Math.ceil((double) (pods + paced) / nodes);
        TopicSetup.ensureTopics(config);
        Commands build = new Commands("bench");
        try (WriterService writer = new WriterService(config, work.resolve("writer"), 20).start();
             CommandSender sender = new CommandSender(config, "bench")) {
            while (!writer.isReady()) {
                Thread.sleep(20);
            }
            long t0 = System.nanoTime();
            AtomicLong created = new AtomicLong();
            try (ObjectView view = new ObjectView(config, "bench-setup", 1000).start()) {
                view.addListener(c -> {
                    if (c.getType() == ChangeType.CREATED) {
                        created.incrementAndGet();
                    }
                });
                view.awaitReady(Duration.ofSeconds(60));
                for (int i = 0; i < nodes; i++) {
                    sender.send(build.create(node(i)));
                }
                int sets = shape.equals("deployment") ? groups : 0;
                for (int g = 0; g < sets; g++) {
                    sender.send(build.create(replicaSet(g)));
                }
                for (int i = 0; i < pods; i++) {
                    sender.send(build.create(pod("p-" + i, shape, group(shape, i, groups))));
                }
                sender.flush();
                awaitCount(created, nodes + sets + pods, "created", out);
            }
            out.printf("setup: %,d nodes and %,d pending pods (shape %s) created through the writer in %.1f s%n",
                    nodes, pods, shape, (System.nanoTime() - t0) / 1e9);

            Stats stats = new Stats();
            long startNanos = System.nanoTime();
            try (Controller scheduler = Scheduler.controller(config, "bench-scheduler", Clock.systemUTC(),
                    new Scheduler(SchedulerDecider.DEFAULT_SCHEDULER, Duration.ofSeconds(30),
                            new SchedulerDecider.Profile(options.intValue("seed", 1), 0, null)).observe(stats))) {
                scheduler.start();
                while (!scheduler.isReady()) {
                    Thread.sleep(5);
                }
                long ready = System.nanoTime();
                out.printf("scheduler: view replayed and ready in %.2f s%n", (ready - startNanos) / 1e9);
                boolean done = awaitCount(stats.visible, pods, "bound", out);
                long end = stats.lastVisibleNanos.get();
                double secs = (end - ready) / 1e9;
                out.printf("machine: load average %.1f on %d cores (others' builds included)%n",
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                        Runtime.getRuntime().availableProcessors());
                out.printf("throughput: %,d pods bound (decisions committed to the log and visible) in %.2f s = "
                                + "%,.0f pods/s (%s, %,d nodes)%n", stats.visible.get(), secs,
                        stats.visible.get() / secs, shape, nodes);
                if (!done) {
                    out.printf("  (stopped waiting: %,d pod(s) unschedulable)%n", pods - stats.visible.get());
                }
                out.printf("  per-pod decision (filter+score): %s%n", stats.decisions.percentiles());
                out.printf("  binding sent -> visible in the log: %s%n", stats.bindings.percentiles());
                out.printf("  scheduler time: %d cycles, snapshots %.2f s, decisions+sends %.2f s (%.0f%% / %.0f%% of the run)%n",
                        stats.cycles.sum(), stats.snapshotNanos.sum() / 1e9, stats.decideNanos.sum() / 1e9,
                        100.0 * stats.snapshotNanos.sum() / (end - ready), 100.0 * stats.decideNanos.sum() / (end - ready));

                if (paced > 0) {
                    awaitWriterIdle(config, build, sender, out);
                    stats.reset();
                    ConcurrentHashMap<String, Long> sentAt = new ConcurrentHashMap<>();
                    Samples latency = new Samples(paced);
                    stats.onVisible = (key, nanos) -> {
                        Long s = sentAt.remove(key);
                        if (s != null) {
                            latency.add(System.nanoTime() - s);
                        }
                    };
                    long interval = 1_000_000_000L / rate;
                    long next = System.nanoTime();
                    for (int i = 0; i < paced; i++) {
                        String name = "q-" + i;
                        long wait = next - System.nanoTime();
                        if (wait > 0) {
                            java.util.concurrent.locks.LockSupport.parkNanos(wait);
                        }
                        sentAt.put("Pod/default/" + name, System.nanoTime());
                        sender.send(build.create(pod(name, shape, group(shape, pods + i, groups))));
                        next += interval;
                    }
                    sender.flush();
                    awaitCount(stats.visible, paced, "bound", out);
                    out.printf("latency at %d pods/s (%,d pods, create sent -> binding visible in the log): %s%n", rate,
                            paced, latency.percentiles());
                    out.printf("  per-pod decision: %s%n", stats.decisions.percentiles());
                }
            }
        }
        return 0;
    }

    /**
     * Phase 1 leaves a backlog at the writer (the Scheduled Events the recorder sends after the bindings); the latency
     * phase starts once a create's round trip (send, writer, view) is back under 100 ms, at most after 120 s.
     */
    private static void awaitWriterIdle(EventplaneConfig config, Commands build, CommandSender sender, PrintStream out)
            throws Exception {
        long start = System.nanoTime();
        try (ObjectView view = new ObjectView(config, "bench-probe", 1000).start();
             Outcomes outcomes = new Outcomes(config, "bench-probe-outcomes")) {
            view.awaitReady(Duration.ofSeconds(120));
            Requests requests = new Requests(sender, outcomes, view);
            for (int i = 0; System.nanoTime() - start < 120_000_000_000L; i++) {
                Pod probe = Pod.newBuilder(pod("probe-" + i, "basic", 0)).setSpec(PodSpec.newBuilder(
                        pod("probe-" + i, "basic", 0).getSpec()).setSchedulerName("no-scheduler").build()).build();
                long s = System.nanoTime();
                requests.submit(build.create(probe), Duration.ofSeconds(60)).get();
                if (System.nanoTime() - s < 100_000_000L) {
                    break;
                }
            }
        }
        out.printf("  (writer backlog drained in %.1f s)%n", (System.nanoTime() - start) / 1e9);
    }

    /** Waits until {@code counter} reaches {@code target}, printing progress; false if it stalls for 30 s. */
    private static boolean awaitCount(AtomicLong counter, long target, String what, PrintStream out) throws InterruptedException {
        long last = -1;
        long lastChange = System.nanoTime();
        long lastPrint = System.nanoTime();
        while (counter.get() < target) {
            Thread.sleep(5);
            long now = System.nanoTime();
            long c = counter.get();
            if (c != last) {
                last = c;
                lastChange = now;
            } else if (now - lastChange > 30_000_000_000L) {
                return false;
            }
            if (now - lastPrint > 2_000_000_000L) {
                lastPrint = now;
                out.printf("  ... %,d / %,d %s%n", c, target, what);
            }
        }
        return true;
    }

    static Node node(int i) {
        String name = String.format("node-%05d", i);
        Map<String, String> capacity = Map.of("cpu", "4", "memory", "32Gi", "pods", "110");
        return Node.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name)
                        .setLabels(Map.of(HOSTNAME, name, ZONE, "zone-" + (i % ZONES), "kubernetes.io/os", "linux"))
                        .build())
                .setSpec(new NodeSpec())
                .setStatus(NodeStatus.newBuilder().setCapacity(capacity).setAllocatable(capacity)
                        .setConditions(List.of(NodeCondition.newBuilder().setType("Ready").setStatus("True")
                                .setReason("KubeletReady").setLastTransitionTime(Instant.EPOCH).build())).build())
                .build();
    }

    static final int DEPLOYMENT_SIZE = 100;

    private static int group(String shape, int pod, int groups) {
        return shape.equals("deployment") ? pod / DEPLOYMENT_SIZE : pod % groups;
    }

    /** The ReplicaSet that owns a deployment-shaped group: its selector gives the pods the system default spread. */
    static io.eventplane.model.ReplicaSet replicaSet(int group) {
        Map<String, String> labels = Map.of("app", "bench", "group", "g" + group);
        return io.eventplane.model.ReplicaSet.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("rs-g" + group).setNamespace("default").build())
                .setSpec(io.eventplane.model.ReplicaSetSpec.newBuilder().setReplicas(0)
                        .setSelector(LabelSelector.newBuilder().setMatchLabels(labels).build())
                        .setTemplate(io.eventplane.model.PodTemplateSpec.newBuilder()
                                .setMetadata(ObjectMeta.newBuilder().setLabels(labels).build())
                                .setSpec(PodSpec.newBuilder().setContainers(List.of(Container.newBuilder().setName("app")
                                        .setImage("registry.k8s.io/pause:3.10").build())).build()).build())
                        .build()).build();
    }

    /**
     * scheduler_perf's pod (100m cpu, 500Mi); anti-affinity: one pod of a group per node (required, hostname);
     * spread: maxSkew 1 over zones, DoNotSchedule; deployment: a ReplicaSet's pod (groups of 100), which the scheduler
     * spreads by the system defaults (hostname and zone, ScheduleAnyway), as the load test's Deployments are.
     */
    static Pod pod(String name, String shape, int group) {
        PodSpec.Builder spec = PodSpec.newBuilder().setContainers(List.of(Container.newBuilder().setName("app")
                .setImage("registry.k8s.io/pause:3.10").setResources(ResourceRequirements.newBuilder()
                        .setRequests(Map.of("cpu", "100m", "memory", "500Mi")).build()).build()));
        Map<String, String> labels = Map.of("app", "bench");
        switch (shape) {
            case "anti-affinity" -> {
                labels = Map.of("app", "bench", "group", "g" + group);
                spec.setAffinity(Affinity.newBuilder().setPodAntiAffinity(PodAntiAffinity.newBuilder()
                        .setRequiredDuringSchedulingIgnoredDuringExecution(List.of(PodAffinityTerm.newBuilder()
                                .setTopologyKey(HOSTNAME).setLabelSelector(LabelSelector.newBuilder()
                                        .setMatchLabels(Map.of("group", "g" + group)).build()).build())).build()).build());
            }
            case "spread" -> spec.setTopologySpreadConstraints(List.of(TopologySpreadConstraint.newBuilder()
                    .setMaxSkew(1).setTopologyKey(ZONE).setWhenUnsatisfiable("DoNotSchedule")
                    .setLabelSelector(LabelSelector.newBuilder().setMatchLabels(Map.of("app", "bench")).build()).build()));
            case "deployment" -> labels = Map.of("app", "bench", "group", "g" + group);
            default -> {
            }
        }
        return Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default")
                .setLabels(labels).build()).setSpec(spec.build()).build();
    }

    /** A fixed-size reservoir of latencies (nanoseconds). */
    static final class Samples {
        private final long[] values;
        private final AtomicLong count = new AtomicLong();

        Samples(int capacity) {
            values = new long[Math.max(capacity, 1)];
        }

        void add(long nanos) {
            long i = count.getAndIncrement();
            if (i < values.length) {
                values[(int) i] = nanos;
            }
        }

        String percentiles() {
            int n = (int) Math.min(count.get(), values.length);
            if (n == 0) {
                return "no samples";
            }
            long[] sorted = Arrays.copyOf(values, n);
            Arrays.sort(sorted);
            return String.format("p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms (n=%,d)", BenchCommand.pct(sorted, 50),
                    BenchCommand.pct(sorted, 90), BenchCommand.pct(sorted, 99), sorted[n - 1] / 1e6, n);
        }
    }

    static final class Stats implements SchedulerObserver {
        volatile Samples decisions = new Samples(200_000);
        volatile Samples bindings = new Samples(200_000);
        final AtomicLong visible = new AtomicLong();
        final AtomicLong lastVisibleNanos = new AtomicLong();
        final LongAdder cycles = new LongAdder();
        final LongAdder snapshotNanos = new LongAdder();
        final LongAdder decideNanos = new LongAdder();
        volatile java.util.function.ObjLongConsumer<String> onVisible = (k, n) -> { };

        void reset() {
            decisions = new Samples(200_000);
            bindings = new Samples(200_000);
            visible.set(0);
        }

        @Override
        public void cycle(int pods, long snapshot, long decide) {
            cycles.increment();
            snapshotNanos.add(snapshot);
            decideNanos.add(decide);
        }

        @Override
        public void decided(String key, boolean bound, long nanos) {
            decisions.add(nanos);
        }

        @Override
        public void bindingVisible(String key, long nanos) {
            bindings.add(nanos);
            onVisible.accept(key, nanos);
            lastVisibleNanos.set(System.nanoTime());
            visible.incrementAndGet();
        }
    }
}
