package io.eventplane.launcher;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.TopicSetup;
import io.eventplane.controllers.ControllerManager;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Container;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.DaemonSetSpec;
import io.eventplane.model.DaemonSetStatus;
import io.eventplane.model.DaemonSetUpdateStrategy;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ResourceRequirements;
import io.eventplane.model.RollingUpdateDaemonSet;
import io.eventplane.nodesim.NodeShape;
import io.eventplane.nodesim.NodeSimulator;
import io.eventplane.nodesim.NodeTemplates;
import io.eventplane.reconcile.Controller;
import io.eventplane.reconcile.ControllerRuntime;
import io.eventplane.scheduler.Scheduler;
import io.eventplane.schemas.Topics;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * {@code eventplane bench daemonset}: the whole control loop (writer, scheduler, N simulated nodes, the DaemonSet
 * controller) on fresh topics. Creates one DaemonSet and reports the time until it runs a Ready, available pod on
 * every node, then sets a new image and reports the time until the rolling update is complete (every node's pod on
 * the new template and available), with pods per second and the machine's load average.
 */
final class DaemonSetBench {
    private static final String NAME = "bench-agent";

    private DaemonSetBench() {
    }

    static void run(EventplaneConfig base, Path work, int nodes, Object maxUnavailable, Object maxSurge, PrintStream out)
            throws Exception {
        EventplaneConfig config = new EventplaneConfig(base.bootstrapServers(), base.registryUrl(),
                new Topics("dsbench" + UUID.randomUUID().toString().substring(0, 8)), 1);
        TopicSetup.ensureTopics(config);
        long t0 = System.nanoTime();
        try (WriterService writer = new WriterService(config, work.resolve("writer"), 20).start();
             ObjectView view = new ObjectView(config, "bench-view").start();
             NodeSimulator sim = new NodeSimulator(config, nodes, NodeShape.defaults(), Clock.systemUTC()).start();
             Controller scheduler = Scheduler.controller(config, "scheduler").start();
             ControllerRuntime controllers = ControllerManager.start(config, Clock.systemUTC(), "daemonset", false);
             CommandSender sender = new CommandSender(config, "bench")) {
            awaitTrue("the control loop", () -> writer.isReady() && view.isReady() && sim.isReady() && scheduler.isReady()
                    && controllers.isReady(), Duration.ofMinutes(10));
            awaitTrue(nodes + " Ready nodes", () -> readyNodes(view) >= nodes, Duration.ofMinutes(10));
            out.printf("startup: writer, scheduler, %,d simulated Ready nodes and the DaemonSet controller in %.1f s%n",
                    nodes, (System.nanoTime() - t0) / 1e9);
            Commands user = new Commands("bench");

            long start = System.nanoTime();
            sender.send(user.create(daemonSet("agent:1.0", maxUnavailable, maxSurge)));
            DaemonSet created = await(view, d -> complete(d, "agent:1.0", nodes), Duration.ofMinutes(60), out, start);
            double up = (System.nanoTime() - start) / 1e9;
            out.printf("create:  one DaemonSet Ready and available on %,d nodes in %.1f s (%.0f pods/s)%n", nodes, up,
                    nodes / up);

            start = System.nanoTime();
            sender.send(user.update(DaemonSet.newBuilder(created).setSpec(DaemonSetSpec.newBuilder(created.getSpec())
                    .setTemplate(template("agent:2.0")).build()).build()));
            await(view, d -> complete(d, "agent:2.0", nodes) && view.list("Pod", "default").size() == nodes,
                    Duration.ofMinutes(120), out, start);
            double roll = (System.nanoTime() - start) / 1e9;
            out.printf("rollout: %,d nodes rolled to a new image (maxUnavailable %s, maxSurge %s) in %.1f s "
                    + "(%.0f pods replaced/s)%n", nodes, maxUnavailable, maxSurge, roll, nodes / roll);
            out.printf("load: system load average %.2f on %d cores (writer, scheduler, node-sim and the controller in "
                    + "this JVM, the broker beside them)%n", ManagementFactory.getOperatingSystemMXBean()
                    .getSystemLoadAverage(), Runtime.getRuntime().availableProcessors());
        }
    }

    private static int readyNodes(ObjectView view) {
        int n = 0;
        for (ObjectChanged c : view.list("Node", null)) {
            if (NodeTemplates.isReady((Node) c.getObject())) {
                n++;
            }
        }
        return n;
    }

    private static DaemonSet await(ObjectView view, Predicate<DaemonSet> done, Duration timeout, PrintStream out,
                                   long start) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long lastPrint = System.nanoTime();
        while (System.nanoTime() < deadline) {
            var c = view.get("DaemonSet", "default", NAME);
            if (c.isPresent()) {
                DaemonSet ds = (DaemonSet) c.get().getObject();
                if (done.test(ds)) {
                    return ds;
                }
                if (System.nanoTime() - lastPrint > 5_000_000_000L) {
                    lastPrint = System.nanoTime();
                    DaemonSetStatus s = ds.getStatus();
                    out.printf("  ... %.0f s: desired %d, current %d, updated %d, ready %d, available %d%n",
                            (lastPrint - start) / 1e9, s.getDesiredNumberScheduled(), s.getCurrentNumberScheduled(),
                            n(s.getUpdatedNumberScheduled()), s.getNumberReady(), n(s.getNumberAvailable()));
                }
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the DaemonSet did not finish within " + timeout);
    }

    private static int n(Integer i) {
        return i == null ? 0 : i;
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

    /** Every node runs an available pod of the current template, as the status says for this generation. */
    static boolean complete(DaemonSet d, String image, int nodes) {
        DaemonSetStatus s = d.getStatus();
        return s != null && d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().equals(image)
                && d.getMetadata().getGeneration().equals(s.getObservedGeneration())
                && Integer.valueOf(nodes).equals(s.getDesiredNumberScheduled())
                && Integer.valueOf(nodes).equals(s.getUpdatedNumberScheduled())
                && Integer.valueOf(nodes).equals(s.getNumberAvailable())
                && Integer.valueOf(nodes).equals(s.getCurrentNumberScheduled());
    }

    static PodTemplateSpec template(String image) {
        return PodTemplateSpec.newBuilder().setMetadata(ObjectMeta.newBuilder().setLabels(Map.of("app", NAME)).build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(Container.newBuilder().setName("agent").setImage(image)
                        .setResources(ResourceRequirements.newBuilder()
                                .setRequests(Map.of("cpu", "50m", "memory", "64Mi")).build())
                        .build())).build()).build();
    }

    static DaemonSet daemonSet(String image, Object maxUnavailable, Object maxSurge) {
        return DaemonSet.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(NAME).setNamespace("default").build())
                .setSpec(DaemonSetSpec.newBuilder()
                        .setSelector(LabelSelector.newBuilder().setMatchLabels(Map.of("app", NAME)).build())
                        .setUpdateStrategy(DaemonSetUpdateStrategy.newBuilder().setType("RollingUpdate")
                                .setRollingUpdate(RollingUpdateDaemonSet.newBuilder().setMaxUnavailable(maxUnavailable)
                                        .setMaxSurge(maxSurge).build()).build())
                        .setTemplate(template(image)).build())
                .build();
    }

    /** An IntOrString option: a number or a percentage. */
    static Object intOrPercent(String text) {
        return text.endsWith("%") ? text : (Object) Integer.valueOf(text);
    }
}
