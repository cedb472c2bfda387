package io.eventplane.launcher;

import io.eventplane.scheduler.Scheduler;
import io.eventplane.reconcile.ControllerRuntime;
import io.eventplane.reconcile.Controller;
import io.eventplane.controllers.ControllerManager;
import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.TopicSetup;
import io.eventplane.model.Container;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.nodesim.NodeShape;
import io.eventplane.nodesim.NodeSimulator;
import io.eventplane.schemas.Topics;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * {@code eventplane bench deployment}: the whole control loop (writer, scheduler, simulated nodes, the Deployment
 * and ReplicaSet controllers) on fresh topics. Creates a Deployment of N replicas and reports the time until it is
 * fully available, then sets a new image and reports the time until the rollout is complete, with pods per second.
 */
final class DeploymentBench {
    private DeploymentBench() {
    }

    static void run(EventplaneConfig base, Path work, int replicas, int nodes, PrintStream out) throws Exception {
        EventplaneConfig config = new EventplaneConfig(base.bootstrapServers(), base.registryUrl(),
                new Topics("deploybench" + UUID.randomUUID().toString().substring(0, 8)), 1);
        TopicSetup.ensureTopics(config);
        long t0 = System.nanoTime();
        try (WriterService writer = new WriterService(config, work.resolve("writer"), 20).start();
             ObjectView view = new ObjectView(config, "bench-view").start();
             NodeSimulator sim = new NodeSimulator(config, nodes, NodeShape.defaults(), Clock.systemUTC()).start();
             Controller scheduler = Scheduler.controller(config, "scheduler").start();
             ControllerRuntime controllers = ControllerManager.start(config, Clock.systemUTC(),
                     "replicaset,deployment", false);
             CommandSender sender = new CommandSender(config, "bench")) {
            awaitTrue("the control loop", () -> writer.isReady() && view.isReady() && sim.isReady() && scheduler.isReady()
                    && controllers.isReady(), Duration.ofMinutes(2));
            awaitTrue(nodes + " nodes", () -> view.list("Node", null).size() >= nodes, Duration.ofMinutes(2));
            out.printf("startup: writer, scheduler, %d simulated nodes and the controllers ready in %.2f s%n", nodes,
                    (System.nanoTime() - t0) / 1e9);
            Commands user = new Commands("bench");

            long start = System.nanoTime();
            sender.send(user.create(deployment(replicas, "nginx:1.14.2")));
            Deployment created = await(view, d -> complete(d, "nginx:1.14.2"), Duration.ofMinutes(30));
            double up = (System.nanoTime() - start) / 1e9;
            out.printf("create:  %d replicas fully available in %.2f s (%.0f pods/s)%n", replicas, up, replicas / up);

            start = System.nanoTime();
            sender.send(user.update(Deployment.newBuilder(created).setSpec(DeploymentSpec.newBuilder(created.getSpec())
                    .setTemplate(template("nginx:1.16.1")).build()).build()));
            await(view, d -> complete(d, "nginx:1.16.1") && view.list("Pod", "default").size() == replicas,
                    Duration.ofMinutes(30));
            double roll = (System.nanoTime() - start) / 1e9;
            out.printf("rollout: %d replicas rolled to a new image (25%% surge / 25%% unavailable) in %.2f s "
                    + "(%.0f new pods/s, %d old pods deleted)%n", replicas, roll, replicas / roll, replicas);
        }
    }

    private static Deployment await(ObjectView view, Predicate<Deployment> done, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            var c = view.get("Deployment", "default", "bench");
            if (c.isPresent() && done.test((Deployment) c.get().getObject())) {
                return (Deployment) c.get().getObject();
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the deployment did not finish within " + timeout);
    }

    private static void awaitTrue(String what, java.util.function.BooleanSupplier ready, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " not ready within " + timeout);
            }
            Thread.sleep(50);
        }
    }

    static boolean complete(Deployment d, String image) {
        DeploymentStatus s = d.getStatus();
        int want = d.getSpec().getReplicas();
        return s != null && d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().equals(image)
                && d.getMetadata().getGeneration().equals(s.getObservedGeneration())
                && Integer.valueOf(want).equals(s.getUpdatedReplicas())
                && Integer.valueOf(want).equals(s.getAvailableReplicas())
                && Integer.valueOf(want).equals(s.getReplicas());
    }

    static PodTemplateSpec template(String image) {
        return PodTemplateSpec.newBuilder().setMetadata(ObjectMeta.newBuilder().setLabels(Map.of("app", "bench")).build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(Container.newBuilder().setName("nginx").setImage(image)
                        .build())).build()).build();
    }

    static Deployment deployment(int replicas, String image) {
        return Deployment.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("bench").setNamespace("default").build())
                .setSpec(DeploymentSpec.newBuilder().setReplicas(replicas)
                        .setSelector(LabelSelector.newBuilder().setMatchLabels(Map.of("app", "bench")).build())
                        .setTemplate(template(image)).build())
                .build();
    }
}
