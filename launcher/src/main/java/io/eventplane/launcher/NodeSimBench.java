package io.eventplane.launcher;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.TopicSetup;
import io.eventplane.model.Container;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.nodesim.KubeletConfig;
import io.eventplane.nodesim.NodeShape;
import io.eventplane.nodesim.PodBehavior;
import io.eventplane.nodesim.PodLifecycle;
import io.eventplane.nodesim.PodRun;
import io.eventplane.nodesim.NodeSimSettings;
import io.eventplane.nodesim.NodeSimulator;
import io.eventplane.nodesim.ShardSettings;
import io.eventplane.schemas.Topics;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code eventplane bench nodesim}: one node-sim holding N nodes with their Leases (renewed every 10 s), on a real
 * broker, registry and writer in this JVM. Reports node-sim's own CPU (the threads named node-sim: its scheduler, its
 * view's consumer, its producer) at steady state in cores, the heap it retains (used heap after a GC, before and after
 * it started), and then how many pod status transitions per second it applies when P pods are bound to its nodes at
 * once (each status update accepted by the writer and visible in the view counts as one).
 */
final class NodeSimBench {
    private NodeSimBench() {
    }

    static void run(EventplaneConfig base, Path work, int nodes, int seconds, int pods, PrintStream out) throws Exception {
        EventplaneConfig config = new EventplaneConfig(base.bootstrapServers(), base.registryUrl(),
                new Topics("simbench" + UUID.randomUUID().toString().substring(0, 8)), 1);
        TopicSetup.ensureTopics(config);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        try (WriterService writer = new WriterService(config, work.resolve("writer"), 20).start();
             ObjectView view = new ObjectView(config, "bench-view", 1000).start();
             CommandSender sender = new CommandSender(config, "bench")) {
            while (!writer.isReady()) {
                Thread.sleep(20);
            }
            view.awaitReady(Duration.ofSeconds(60));
            long heapBefore = usedAfterGc(memory);
            long t0 = System.nanoTime();
            NodeSimSettings settings = NodeSimSettings.defaults().withNamePrefix("bench-");
            try (NodeSimulator sim = new NodeSimulator(config, nodes, NodeShape.defaults(), Clock.systemUTC(), settings)
                    .start()) {
                while (!sim.isReady()) {
                    Thread.sleep(100);
                }
                out.printf("registration: %,d nodes and their Leases created and visible in %.1f s%n", nodes,
                        (System.nanoTime() - t0) / 1e9);
                Thread.sleep(settings.leaseRenewInterval().toMillis()); // one renewal round before measuring
                long heapAfter = usedAfterGc(memory);
                long cpu0 = nodeSimCpu(threads);
                long w0 = System.nanoTime();
                AtomicLong leases = new AtomicLong();
                view.addListener(c -> {
                    if (c.getKind().equals("Lease")) {
                        leases.incrementAndGet();
                    }
                });
                Thread.sleep(seconds * 1000L);
                double wall = (System.nanoTime() - w0) / 1e9;
                double cores = (nodeSimCpu(threads) - cpu0) / 1e9 / wall;
                out.printf("steady state over %.0f s: node-sim used %.3f cores; %,d lease renewals visible (%.0f/s); "
                                + "heap retained by node-sim %.0f MiB (used after GC: %.0f -> %.0f MiB)%n", wall, cores,
                        leases.get(), leases.get() / wall, (heapAfter - heapBefore) / 1048576.0,
                        heapBefore / 1048576.0, heapAfter / 1048576.0);

                decisionCapacity(out);
                if (pods > 0) {
                    AtomicLong ready = new AtomicLong();
                    view.addListener(c -> {
                        if (c.getKind().equals("Pod") && c.getName().startsWith("bp-") && isReady((Pod) c.getObject())) {
                            ready.incrementAndGet();
                        }
                    });
                    Commands user = new Commands("bench");
                    List<String> names = sim.nodeNames();
                    long before = sim.statusTransitions();
                    long cpu1 = nodeSimCpu(threads);
                    long p0 = System.nanoTime();
                    for (int i = 0; i < pods; i++) {
                        sender.send(user.create(pod("bp-" + i, names.get(i % names.size()))));
                    }
                    sender.flush();
                    while (ready.get() < pods) {
                        Thread.sleep(10);
                        if ((System.nanoTime() - p0) / 1e9 > 300) {
                            out.printf("pods: only %,d of %,d Ready after 300 s%n", ready.get(), pods);
                            break;
                        }
                    }
                    double secs = (System.nanoTime() - p0) / 1e9;
                    long transitions = sim.statusTransitions() - before;
                    out.printf("pods: %,d pods bound at once -> all Running and Ready in %.2f s; node-sim applied %,d "
                                    + "status transitions = %,.0f transitions/s (node-sim CPU %.2f cores meanwhile)%n",
                            pods, secs, transitions, transitions / secs, (nodeSimCpu(threads) - cpu1) / 1e9 / secs);
                }
            }
        }
    }

    /**
     * {@code bench nodesim --instances K}: K node-sim instances of one group share N nodes (membership Leases with
     * node-sim's defaults: 15 s, renewed every 5 s). Reports how the nodes were split and how long that took, the instances' CPU at steady
     * state, then crashes one and reports how long the others took to own all nodes again and to renew every lost
     * node's Lease.
     */
    static void sharded(EventplaneConfig base, Path work, int nodes, int instances, int seconds, PrintStream out)
            throws Exception {
        EventplaneConfig config = new EventplaneConfig(base.bootstrapServers(), base.registryUrl(),
                new Topics("shardbench" + UUID.randomUUID().toString().substring(0, 8)), 1);
        TopicSetup.ensureTopics(config);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ShardSettings timing = ShardSettings.of("sim-0"); // node-sim's defaults: a 15 s Lease renewed every 5 s
        List<NodeSimulator> sims = new java.util.ArrayList<>();
        try (WriterService writer = new WriterService(config, work.resolve("writer"), 20).start();
             ObjectView view = new ObjectView(config, "bench-view", 1000).start()) {
            while (!writer.isReady()) {
                Thread.sleep(20);
            }
            view.awaitReady(Duration.ofSeconds(60));
            NodeSimSettings settings = NodeSimSettings.defaults().withNamePrefix("shard-");
            long t0 = System.nanoTime();
            for (int i = 0; i < instances; i++) {
                sims.add(new NodeSimulator(config, nodes, NodeShape.defaults(), Clock.systemUTC(), settings)
                        .withSharding(new ShardSettings("sim-" + i, timing.leaseDurationSeconds(), timing.renewInterval()))
                        .start());
            }
            while (!split(sims, nodes)) {
                Thread.sleep(100);
            }
            out.printf("split: %,d nodes shared by %d instances (%s) in %.1f s (membership Lease %d s, renewed every %s)%n",
                    nodes, instances, sims.stream().map(s -> s.instanceId() + "=" + s.ownedNodes().size()).toList(),
                    (System.nanoTime() - t0) / 1e9, timing.leaseDurationSeconds(), timing.renewInterval());
            long cpu0 = nodeSimCpu(threads);
            long w0 = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            double wall = (System.nanoTime() - w0) / 1e9;
            out.printf("steady state over %.0f s: the %d instances used %.3f cores together%n", wall, instances,
                    (nodeSimCpu(threads) - cpu0) / 1e9 / wall);

            NodeSimulator victim = sims.remove(sims.size() - 1);
            Set<String> lost = victim.ownedNodes();
            Instant crashedAt = Instant.now();
            long c0 = System.nanoTime();
            victim.crash();
            while (!split(sims, nodes)) {
                Thread.sleep(20);
            }
            double owned = (System.nanoTime() - c0) / 1e9;
            while (!lost.stream().allMatch(n -> view.get("Lease", "kube-node-lease", n)
                    .map(c -> ((io.eventplane.model.Lease) c.getObject()).getSpec().getRenewTime().isAfter(crashedAt))
                    .orElse(false))) {
                Thread.sleep(20);
            }
            double renewed = (System.nanoTime() - c0) / 1e9;
            out.printf("takeover: %s crashed holding %,d nodes; the others owned all %,d again after %.1f s and had "
                    + "renewed every lost node's Lease after %.1f s (%s)%n", victim.instanceId(), lost.size(), nodes,
                    owned, renewed, sims.stream().map(s -> s.instanceId() + "=" + s.ownedNodes().size()).toList());
        } finally {
            for (NodeSimulator s : sims) {
                s.close();
            }
        }
    }

    /** Every node owned by exactly one of the instances, and all of them ready. */
    private static boolean split(List<NodeSimulator> sims, int nodes) {
        Set<String> all = new HashSet<>();
        int sum = 0;
        for (NodeSimulator s : sims) {
            if (!s.isReady()) {
                return false;
            }
            all.addAll(s.ownedNodes());
            sum += s.ownedNodes().size();
        }
        return all.size() == nodes && sum == nodes;
    }

    /**
     * node-sim's own work per transition, without the writer: crash-looping pods advanced through their lives on a
     * virtual clock by one thread, each status built and compared with the previous one as the shell does.
     */
    private static void decisionCapacity(PrintStream out) {
        KubeletConfig config = KubeletConfig.defaults();
        int podCount = 20_000;
        long transitions = 0;
        long t0 = System.nanoTime();
        Instant start = Instant.parse("2025-01-01T00:00:00Z");
        Set<String> images = new HashSet<>();
        for (int i = 0; i < podCount; i++) {
            Pod pod = Pod.newBuilder(pod("cap-" + i, "bench-1"))
                    .setMetadata(ObjectMeta.newBuilder().setName("cap-" + i).setNamespace("default").setUid("uid-" + i)
                            .setResourceVersion("1").setAnnotations(Map.of(PodBehavior.PREFIX + "run-duration", "30s",
                                    PodBehavior.PREFIX + "exit-code", "1")).build()).build();
            pod = PodLifecycle.creating(pod, new PodLifecycle.PodHost("bench-1", "10.1.0.1", "10.244.1.2"), start);
            PodRun run = PodRun.start(pod, config, images, start);
            for (int step = 0; step < 10; step++) {
                Instant next = run.nextChangeAt().orElse(null);
                if (next == null) {
                    break;
                }
                run.advanceTo(pod, next);
                run.takeEvents();
                PodStatus status = run.status(pod);
                if (!status.equals(pod.getStatus())) {
                    pod = Pod.newBuilder(pod).setStatus(status).build();
                    transitions++;
                }
            }
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        out.printf("decisions: %,d pod status transitions computed by one thread in %.2f s = %,.0f transitions/s "
                + "(node-sim alone, no writer)%n", transitions, secs, transitions / secs);
    }

    private static boolean isReady(Pod p) {
        if (p.getStatus() == null || p.getStatus().getConditions() == null) {
            return false;
        }
        for (PodCondition c : p.getStatus().getConditions()) {
            if (c.getType().equals("Ready")) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }

    private static Pod pod(String name, String node) {
        return Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").build())
                .setSpec(PodSpec.newBuilder().setNodeName(node).setContainers(List.of(Container.newBuilder()
                        .setName("app").setImage("nginx").build())).build())
                .build();
    }

    /** CPU time (ns) of every live thread whose name says node-sim. */
    private static long nodeSimCpu(ThreadMXBean threads) {
        long sum = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains("node-sim")) {
                long t = threads.getThreadCpuTime(info.getThreadId());
                sum += Math.max(0, t);
            }
        }
        return sum;
    }

    private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
