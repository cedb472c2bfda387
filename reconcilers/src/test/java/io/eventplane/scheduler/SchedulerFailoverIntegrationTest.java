package io.eventplane.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.ViewWaiter;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Lease;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.Controller;
import io.eventplane.reconcile.LeaderElection;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.testkit.objects.KubeObjects;
import io.eventplane.topology.WriterService;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two schedulers on a real broker and writer: one binds, the other stands by and takes over when the first stops. */
class SchedulerFailoverIntegrationTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final LeaderElection.Settings FAST = new LeaderElection.Settings("kube-system", "kube-scheduler",
            Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(300));

    @TempDir
    Path dir;

    /** A pod as a user creates it, for the default scheduler. */
    private static Pod pod(String name) {
        return KubeObjects.pod(name).containers(TestObjects.container("nginx", "100m", null))
                .schedulerName("default-scheduler").build();
    }

    private static String nodeOf(ViewWaiter waiter, ObjectView view, String name) {
        return waiter.await(DEADLINE, () -> view.get("Pod/default/" + name).map(c -> (Pod) c.getObject())
                .filter(AssumedPods::isBound).map(p -> p.getSpec().getNodeName()), () -> name + " was not bound");
    }

    @Test
    @DisplayName("one active scheduler: the standby binds nothing while the leader holds the Lease, and takes over when it stops")
    void failover() throws Exception {
        SharedCluster cluster = SharedCluster.get();
        EventplaneConfig config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics("t" + UUID.randomUUID()), 1);
        ViewWaiter waiter = new ViewWaiter();
        try (WriterService writer = new WriterService(config, dir.resolve("writer"), 20).start();
             ObjectView view = new ObjectView(config, "test-view");
             CommandSender sender = new CommandSender(config, "test-user")) {
            java.util.concurrent.atomic.AtomicInteger leaseWrites = new java.util.concurrent.atomic.AtomicInteger();
            view.addListener(c -> {
                if (c.getKind().equals("Lease")) {
                    leaseWrites.incrementAndGet();
                }
            });
            view.addListener(waiter);
            view.start();
            Commands commands = new Commands("test-user");
            sender.send(commands.create(TestObjects.node("node-1", "4", "16Gi", "110")));
            Controller a = Scheduler.controller(config, "sched-a").leaderElection(FAST).start();
            Controller b = null;
            try {
                waiter.awaitTrue(DEADLINE, () -> writer.isReady() && a.isReady() && a.isLeader(), () -> "a does not lead");
                b = Scheduler.controller(config, "sched-b").leaderElection(FAST).start();
                Controller standby = b;
                waiter.awaitTrue(DEADLINE, standby::isReady, () -> "b is not ready");
                // Two renewals by a later, b has still not taken the lease.
                int seen = leaseWrites.get();
                waiter.awaitTrue(DEADLINE, () -> leaseWrites.get() >= seen + 2, () -> "no renewals");
                assertTrue(a.isLeader());
                assertFalse(b.isLeader());

                sender.send(commands.create(pod("before")));
                assertEquals("node-1", nodeOf(waiter, view, "before"));

                a.close();
                waiter.awaitTrue(DEADLINE, standby::isLeader, () -> "b did not take over");
                Lease taken = (Lease) view.get(FAST.key()).map(ObjectChanged::getObject).orElseThrow();
                assertTrue(taken.getSpec().getHolderIdentity().startsWith("sched-b_"), taken.getSpec().getHolderIdentity());
                assertEquals(1, taken.getSpec().getLeaseTransitions());

                sender.send(commands.create(pod("after")));
                assertEquals("node-1", nodeOf(waiter, view, "after"));
                List<String> binders = List.of(
                        view.get("Pod/default/before").orElseThrow().getEnvelope().getActor(),
                        view.get("Pod/default/after").orElseThrow().getEnvelope().getActor());
                assertEquals(List.of("sched-a", "sched-b"), binders.stream().map(Optional::ofNullable)
                        .map(o -> o.orElse("?")).toList());
            } finally {
                a.close();
                if (b != null) {
                    b.close();
                }
            }
        }
    }
}
