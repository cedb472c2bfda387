package io.eventplane.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.ViewWaiter;
import io.eventplane.controllers.deployment.DeploymentReconciler;
import io.eventplane.core.meta.Owners;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ReplicaSet;
import io.eventplane.reconcile.Controller;
import io.eventplane.reconcile.LeaderElection;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.topology.WriterService;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Any controller of the runtime can run with a standby: two Deployment controllers with leader election on a real
 * broker and writer; the one holding the Lease acts, the other acts only once the first stops.
 */
class ControllerFailoverIntegrationTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final LeaderElection.Settings FAST = new LeaderElection.Settings("kube-system", "deployment-controller",
            Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(300));

    @TempDir
    Path dir;

    private static Controller deploymentController(EventplaneConfig config, String actor) {
        return Controller.keyed(config, actor, "deployment-controller", Clock.systemUTC(), new DeploymentReconciler())
                .leaderElection(FAST);
    }

    /** Who created the ReplicaSet of Deployment {@code name}, once it exists. */
    private static String creatorOfReplicaSet(ViewWaiter waiter, ObjectView view, String name) {
        return waiter.await(DEADLINE, () -> view.list("ReplicaSet", "default").stream()
                .filter(c -> Owners.controllerOf(((ReplicaSet) c.getObject()).getMetadata())
                        .map(r -> r.getName().equals(name)).orElse(false))
                .findFirst().map(c -> c.getEnvelope().getActor()), () -> name + " has no ReplicaSet");
    }

    @Test
    @DisplayName("a controller with leader election: the standby does nothing while the leader holds the Lease, and takes over when it stops")
    void failover() throws Exception {
        SharedCluster cluster = SharedCluster.get();
        EventplaneConfig config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics("t" + UUID.randomUUID()), 1);
        ViewWaiter waiter = new ViewWaiter();
        try (WriterService writer = new WriterService(config, dir.resolve("writer"), 20).start();
             ObjectView view = new ObjectView(config, "test-view");
             CommandSender sender = new CommandSender(config, "test-user")) {
            view.addListener(waiter);
            view.start();
            Commands user = new Commands("test-user");
            Controller a = deploymentController(config, "dc-a").start();
            Controller b = null;
            try {
                waiter.awaitTrue(DEADLINE, () -> writer.isReady() && a.isReady() && a.isLeader(), () -> "a does not lead");
                b = deploymentController(config, "dc-b").start();
                Controller standby = b;
                waiter.awaitTrue(DEADLINE, standby::isReady, () -> "b is not ready");

                sender.send(user.create(Workloads.deployment("before", 2, "nginx:1.25")));
                assertEquals("dc-a", creatorOfReplicaSet(waiter, view, "before"));
                assertTrue(a.isLeader());
                assertFalse(b.isLeader());
                assertEquals(0, b.metrics().sent(), "the standby sent nothing");

                a.close();
                waiter.awaitTrue(DEADLINE, standby::isLeader, () -> "b did not take over");
                sender.send(user.create(Workloads.deployment("after", 2, "nginx:1.25")));
                assertEquals("dc-b", creatorOfReplicaSet(waiter, view, "after"));
                ObjectChanged lease = view.get(FAST.key()).orElseThrow();
                assertEquals("dc-b", lease.getEnvelope().getActor().substring(0, 4), "the Lease is b's");
            } finally {
                a.close();
                if (b != null) {
                    b.close();
                }
            }
        }
    }
}
