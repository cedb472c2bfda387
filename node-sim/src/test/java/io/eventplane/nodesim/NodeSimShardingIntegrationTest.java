package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Subscription;
import io.eventplane.client.ViewWaiter;
import io.eventplane.client.WatchEvent;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Lease;
import io.eventplane.model.Pod;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.topology.WriterService;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two node-sim instances of one group on a real broker, registry and writer, with short membership Leases (2 s) so a
 * crashed instance is taken over in seconds. The test plays the scheduler: it binds pods itself.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodeSimShardingIntegrationTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final NodeSimSettings FAST = NodeSimSettings.defaults()
            .withStartDelay(Duration.ZERO, Duration.ofMillis(100))
            .withShutdownDelay(Duration.ofMillis(100))
            .withLeaseRenewInterval(Duration.ofSeconds(1));

    private final Commands user = new Commands("test-user");
    private final ViewWaiter waiter = new ViewWaiter();
    private final List<AutoCloseable> open = new ArrayList<>();
    private EventplaneConfig config;
    private ObjectView view;
    private CommandSender sender;

    private final List<AutoCloseable> shared = new ArrayList<>();

    private static Set<String> all(String prefix) {
        Set<String> out = new TreeSet<>();
        for (int i = 1; i <= 6; i++) {
            out.add(prefix + i);
        }
        return out;
    }

    /** An instance of the group simulating {@code <prefix>1..6}. */
    private NodeSimulator simulator(String prefix, String id) {
        NodeSimulator sim = new NodeSimulator(config, 6, NodeShape.defaults(), Clock.systemUTC(), FAST.withNamePrefix(prefix))
                .withSharding(ShardSettings.of(id).withTiming(2, Duration.ofMillis(500)));
        open.add(sim);
        return sim.start();
    }

    @BeforeAll
    void startCluster(@TempDir Path dir) {
        SharedCluster cluster = SharedCluster.get();
        config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(), new Topics("t" + UUID.randomUUID()), 1);
        WriterService writer = new WriterService(config, dir.resolve("writer"), 20).start();
        shared.add(writer);
        view = new ObjectView(config, "test-view");
        shared.add(view);
        view.addListener(waiter);
        view.start();
        sender = new CommandSender(config, "test-user");
        shared.add(sender);
        waiter.awaitTrue(DEADLINE, () -> writer.isReady() && view.isReady(), () -> "writer or view not ready");
    }

    @AfterEach
    void stopSimulators() {
        closeAll(open);
    }

    @AfterAll
    void stopCluster() {
        closeAll(shared);
    }

    private static void closeAll(List<AutoCloseable> list) {
        for (int i = list.size() - 1; i >= 0; i--) {
            try {
                list.get(i).close();
            } catch (Exception e) {
                // closing anyway
            }
        }
        list.clear();
    }

    private Optional<Pod> pod(String name) {
        return view.get(Kinds.POD.kind(), "default", name).map(c -> (Pod) c.getObject());
    }

    private Optional<Lease> nodeLease(String name) {
        return view.get(Kinds.LEASE.kind(), NodeTemplates.LEASE_NAMESPACE, name).map(c -> (Lease) c.getObject());
    }

    private static boolean runningAndReady(Pod p) {
        return p.getStatus() != null && "Running".equals(p.getStatus().getPhase()) && p.getStatus().getConditions()
                .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private Pod createBoundAndRunning(String name, String nodeName) {
        sender.send(user.create(KubeObjects.pod(name).containers(KubeObjects.container("nginx")).build()));
        sender.flush();
        Pod created = waiter.await(DEADLINE, () -> pod(name), () -> name + " was not created");
        sender.send(user.bind("default", name, created.getMetadata().getUid(), nodeName));
        sender.flush();
        return waiter.await(DEADLINE, () -> pod(name).filter(NodeSimShardingIntegrationTest::runningAndReady),
                () -> name + " on " + nodeName + ": " + pod(name).map(Pod::getStatus));
    }

    private void awaitSplit(NodeSimulator a, NodeSimulator b, Set<String> all) {
        waiter.awaitTrue(DEADLINE, () -> a.isReady() && b.isReady() && a.ownedNodes().size() == 3
                        && b.ownedNodes().size() == 3 && union(a.ownedNodes(), b.ownedNodes()).equals(all),
                () -> a.instanceId() + " " + a.ownedNodes() + " ready " + a.isReady() + ", " + b.instanceId() + " "
                        + b.ownedNodes() + " ready " + b.isReady());
    }

    private static Set<String> union(Set<String> x, Set<String> y) {
        Set<String> out = new TreeSet<>(x);
        out.addAll(y);
        return out;
    }

    private static String containerId(Pod p) {
        ContainerStatus cs = p.getStatus().getContainerStatuses().get(0);
        return cs.getContainerID() + "@" + cs.getState().getRunning().getStartedAt() + "#" + cs.getRestartCount();
    }

    @Test
    @DisplayName("two instances each take 3 of 6 nodes; when one crashes the other takes all 6 over, its pods keep running and new ones start")
    void crashedInstanceIsTakenOver() {
        Set<String> all = all("crash-");
        NodeSimulator a = simulator("crash-", "sim-a");
        NodeSimulator b = simulator("crash-", "sim-b");
        awaitSplit(a, b, all);
        assertEquals(Set.of("sim-a", "sim-b"), a.members());

        List<String> lost = new ArrayList<>(new TreeSet<>(b.ownedNodes()));
        Pod p1 = createBoundAndRunning("kept-1", lost.get(0));
        Pod p2 = createBoundAndRunning("kept-2", lost.get(1));
        Pod doomed = createBoundAndRunning("doomed", lost.get(2));
        long[] position = view.positions();

        b.crash();
        Instant crashed = Instant.now();
        waiter.awaitTrue(DEADLINE, () -> a.ownedNodes().equals(all) && a.isReady() && a.members().equals(Set.of("sim-a")),
                () -> "sim-a simulates " + a.ownedNodes() + " with members " + a.members());

        // the lost nodes' Leases are renewed by their new owner
        for (String n : lost) {
            waiter.awaitTrue(DEADLINE, () -> nodeLease(n).map(l -> l.getSpec().getRenewTime().isAfter(crashed)).orElse(false),
                    () -> n + "'s lease was not renewed after the takeover: " + nodeLease(n));
        }
        // a new pod on a lost node starts, and a deleted one is stopped and removed by the new owner
        Pod fresh = createBoundAndRunning("fresh", lost.get(0));
        assertTrue(!fresh.getStatus().getPodIP().equals(p1.getStatus().getPodIP()), "a new address beside kept-1's");
        sender.send(user.delete(Kinds.POD, "default", "doomed", null, doomed.getMetadata().getUid()));
        sender.flush();
        waiter.awaitTrue(DEADLINE, () -> pod("doomed").isEmpty(), () -> "doomed was not removed: " + pod("doomed"));

        // the pods on the lost nodes kept running: never reset, same container, address and start
        for (Pod before : List.of(p1, p2)) {
            Pod now = pod(before.getMetadata().getName()).orElseThrow();
            assertTrue(runningAndReady(now), now.getMetadata().getName() + " " + now.getStatus());
            assertEquals(containerId(before), containerId(now));
            assertEquals(before.getStatus().getPodIP(), now.getStatus().getPodIP());
        }
        Set<String> phasesAfterCrash = new HashSet<>();
        try (Subscription history = view.watch(position, c -> (c.getName().equals("kept-1") || c.getName().equals("kept-2"))
                && c.getType() == ChangeType.STATUS_UPDATED, 100)) {
            for (WatchEvent e = history.poll(Duration.ofMillis(50)); e != null; e = history.poll(Duration.ofMillis(50))) {
                Pod p = (Pod) e.change().getObject();
                phasesAfterCrash.add(p.getStatus().getPhase() + "/" + containerId(p));
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertTrue(phasesAfterCrash.isEmpty() || phasesAfterCrash.equals(Set.of("Running/" + containerId(p1), "Running/" + containerId(p2))),
                "status updates after the takeover: " + phasesAfterCrash);
    }

    @Test
    @DisplayName("a joining instance takes its share of running nodes without restarting their pods; a clean stop hands them back at once")
    void joinAndCleanStop() {
        Set<String> all = all("join-");
        NodeSimulator a = simulator("join-", "sim-a");
        waiter.awaitTrue(DEADLINE, () -> a.isReady() && a.ownedNodes().equals(all), () -> "sim-a alone: " + a.ownedNodes());
        List<Pod> pods = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            pods.add(createBoundAndRunning("p-" + i, "join-" + i));
        }

        NodeSimulator c = simulator("join-", "sim-c");
        awaitSplit(a, c, all);
        Set<String> moved = c.ownedNodes();
        Pod extra = createBoundAndRunning("extra", moved.iterator().next());
        assertTrue(runningAndReady(extra));

        c.close(); // deletes its membership Lease: no waiting for it to expire
        waiter.awaitTrue(DEADLINE, () -> a.ownedNodes().equals(all) && a.isReady(), () -> "sim-a: " + a.ownedNodes());
        assertEquals(Optional.empty(), view.get(Kinds.LEASE.kind(), ShardSettings.NAMESPACE,
                MemberLeases.name("join-", "sim-c")).map(x -> x.getName()));
        createBoundAndRunning("after", moved.iterator().next());
        for (Pod before : pods) {
            Pod now = pod(before.getMetadata().getName()).orElseThrow();
            assertTrue(runningAndReady(now), now.getMetadata().getName() + " " + now.getStatus());
            assertEquals(containerId(before), containerId(now), now.getMetadata().getName() + " was not restarted");
        }
    }
}
