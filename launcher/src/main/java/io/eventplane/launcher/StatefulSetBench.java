package io.eventplane.launcher;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.TopicSetup;
import io.eventplane.controllers.ControllerManager;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Container;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetSpec;
import io.eventplane.nodesim.NodeShape;
import io.eventplane.nodesim.NodeSimulator;
import io.eventplane.reconcile.Controller;
import io.eventplane.reconcile.ControllerRuntime;
import io.eventplane.scheduler.Scheduler;
import io.eventplane.schemas.Topics;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * {@code eventplane bench statefulset}: the whole control loop (writer, scheduler, simulated nodes, the StatefulSet
 * controller) on fresh topics. For each pod management policy asked for, creates N StatefulSets of R replicas at once
 * (named after the policy) and reports the time until every set has R Ready replicas: under OrderedReady
 * each set's pods come one after the other, each once its predecessor is Running and Ready; under Parallel all at
 * once.
 */
final class StatefulSetBench {
    private StatefulSetBench() {
    }

    static void run(EventplaneConfig base, Path work, int sets, int replicas, int nodes, List<String> policies,
                    PrintStream out) throws Exception {
        EventplaneConfig config = new EventplaneConfig(base.bootstrapServers(), base.registryUrl(),
                new Topics("stsbench" + UUID.randomUUID().toString().substring(0, 8)), 1);
        TopicSetup.ensureTopics(config);
        long t0 = System.nanoTime();
        NodeShape shape = NodeShape.defaults().withPods(Integer.toString(Math.max(110,
                (int) Math.ceil(1.2 * sets * replicas * policies.size() / nodes))));
        try (WriterService writer = new WriterService(config, work.resolve("writer"), 20).start();
             ObjectView view = new ObjectView(config, "stsbench-view").start();
             NodeSimulator sim = new NodeSimulator(config, nodes, shape, Clock.systemUTC()).start();
             Controller scheduler = Scheduler.controller(config, "scheduler").start();
             ControllerRuntime controllers = ControllerManager.start(config, Clock.systemUTC(), "statefulset", false);
             CommandSender sender = new CommandSender(config, "bench")) {
            awaitTrue("the control loop", () -> writer.isReady() && view.isReady() && sim.isReady()
                    && scheduler.isReady() && controllers.isReady(), Duration.ofMinutes(2));
            awaitTrue(nodes + " nodes", () -> view.list("Node", null).size() >= nodes, Duration.ofMinutes(2));
            out.printf("startup: writer, scheduler, %d simulated nodes and the statefulset controller ready in %.2f s%n",
                    nodes, (System.nanoTime() - t0) / 1e9);
            Commands user = new Commands("bench");
            for (String policy : policies) {
                String prefix = policy.toLowerCase() + "-";
                long start = System.nanoTime();
                for (int i = 0; i < sets; i++) {
                    sender.send(user.create(statefulSet(prefix + i, replicas, policy)));
                }
                sender.flush();
                waitForReady(view, prefix, sets, replicas, start, out);
                double seconds = (System.nanoTime() - start) / 1e9;
                out.printf("statefulset %s: %,d StatefulSets x %d replicas on %d nodes: all Ready in %.1f s = %.0f pods/s "
                        + "(%.1f sets/s)%n", policy, sets, replicas, nodes, seconds, sets * replicas / seconds,
                        sets / seconds);
            }
        }
    }

    private static void waitForReady(ObjectView view, String prefix, int sets, int replicas, long start,
                                     PrintStream out) throws Exception {
        long deadline = start + Duration.ofMinutes(60).toNanos();
        long lastPrint = System.nanoTime();
        while (true) {
            int ready = 0;
            int readyPods = 0;
            for (ObjectChanged c : view.listByNamePrefix("StatefulSet", "default", prefix)) {
                StatefulSet s = (StatefulSet) c.getObject();
                int r = s.getStatus() == null || s.getStatus().getReadyReplicas() == null ? 0
                        : s.getStatus().getReadyReplicas();
                readyPods += r;
                if (r == replicas) {
                    ready++;
                }
            }
            if (ready == sets) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(ready + " of " + sets + " StatefulSets Ready after 60 minutes");
            }
            if (System.nanoTime() - lastPrint > 5_000_000_000L) {
                lastPrint = System.nanoTime();
                out.printf("  ... %,d / %,d StatefulSets Ready, %,d / %,d pods Ready (%.0f s)%n", ready, sets, readyPods,
                        sets * replicas, (lastPrint - start) / 1e9);
            }
            Thread.sleep(100);
        }
    }

    private static void awaitTrue(String what, BooleanSupplier ready, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " not ready within " + timeout);
            }
            Thread.sleep(50);
        }
    }

    static StatefulSet statefulSet(String name, int replicas, String policy) {
        Map<String, String> labels = Map.of("app", name);
        Container c = Container.newBuilder().setName("web").setImage("nginx:1.14.2").build();
        return StatefulSet.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").build())
                .setSpec(StatefulSetSpec.newBuilder()
                        .setReplicas(replicas)
                        .setServiceName(name)
                        .setPodManagementPolicy(policy)
                        .setSelector(LabelSelector.newBuilder().setMatchLabels(labels).build())
                        .setTemplate(PodTemplateSpec.newBuilder()
                                .setMetadata(ObjectMeta.newBuilder().setLabels(labels).build())
                                .setSpec(PodSpec.newBuilder().setContainers(List.of(c)).build())
                                .build())
                        .build())
                .build();
    }
}
