package io.eventplane.launcher;

import io.eventplane.client.ServiceIdentities;
import io.eventplane.scheduler.Scheduler;
import io.eventplane.reconcile.ControllerRuntime;
import io.eventplane.reconcile.Controller;
import io.eventplane.controllers.ControllerManager;
import io.eventplane.client.CommandSender;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.ViewWaiter;
import io.eventplane.nodesim.KubeletConfig;
import io.eventplane.nodesim.NodeShape;
import io.eventplane.nodesim.NodeSimulator;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.topology.WriterGroup;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

/**
 * The control loop on the shared broker and registry, on topics of its own: the writer, a view (with a waiter
 * listening), three simulated nodes, the scheduler and a command sender for "test-user". Closing it closes whatever
 * was started, also after a failed start.
 */
final class ControlLoop implements AutoCloseable {
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    private final ViewWaiter waiter = new ViewWaiter();
    private WriterGroup writer;
    private ObjectView view;
    private NodeSimulator nodes;
    private Controller scheduler;
    private CommandSender sender;
    private EventplaneConfig config;
    private KubeletConfig kubelet;
    private java.time.Duration usageInterval;
    private ControllerRuntime controllers;

    /** The simulated kubelets' timing (before {@link #start}); node-sim's defaults otherwise. */
    ControlLoop withKubelet(KubeletConfig config) {
        this.kubelet = config;
        return this;
    }

    /** How often the simulated kubelets sample resource usage (before {@link #start}); 15 s otherwise. */
    ControlLoop withUsageInterval(java.time.Duration interval) {
        this.usageInterval = interval;
        return this;
    }

    /** Starts every part under dir and waits until all are ready. */
    ControlLoop start(Path dir) {
        SharedCluster cluster = SharedCluster.get();
        config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics("t" + UUID.randomUUID()), EventplaneConfig.configuredPartitions());
        writer = new WriterGroup(config, dir.resolve("writer"), 20).start();
        view = new ObjectView(config, "test-view");
        view.addListener(waiter);
        view.start();
        nodes = new NodeSimulator(config, 3, NodeShape.defaults(), Clock.systemUTC());
        if (kubelet != null) {
            nodes.withKubelet(kubelet);
        }
        if (usageInterval != null) {
            nodes.withUsageInterval(usageInterval);
        }
        nodes.start();
        scheduler = Scheduler.controller(config, "scheduler").identity(ServiceIdentities.scheduler()).start();
        sender = new CommandSender(config, "test-user");
        waiter.awaitTrue(DEADLINE, () -> writer.isReady() && view.isReady() && nodes.isReady() && scheduler.isReady(),
                () -> "writer " + writer.state() + ", view " + view.isReady() + ", nodes " + nodes.isReady()
                        + ", scheduler " + scheduler.isReady());
        return this;
    }

    /** Also starts the workload controllers (Deployment, ReplicaSet, ReplicationController) and waits for them. */
    ControlLoop startControllers() {
        return startControllers("replicaset,replicationcontroller,deployment,disruption");
    }

    /** Starts the controllers {@code names} selects, by kube-controller-manager's names, and waits for them. */
    ControlLoop startControllers(String names) {
        controllers = ControllerManager.start(config, Clock.systemUTC(), names, false);
        waiter.awaitTrue(DEADLINE, controllers::isReady, () -> "controllers not ready");
        return this;
    }

    /** The configuration of this loop's own topics. */
    EventplaneConfig config() {
        return config;
    }

    ViewWaiter waiter() {
        return waiter;
    }

    ObjectView view() {
        return view;
    }

    NodeSimulator nodes() {
        return nodes;
    }

    CommandSender sender() {
        return sender;
    }

    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[] {sender, controllers, scheduler, nodes, view, writer}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing anyway
            }
        }
    }
}
