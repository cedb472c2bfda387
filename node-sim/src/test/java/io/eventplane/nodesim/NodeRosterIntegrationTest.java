package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.ViewWaiter;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Container;
import io.eventplane.model.Lease;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.topology.WriterService;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Nodes joining and leaving a running node-sim through the log ({@link NodeRoster}), on a real broker. */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodeRosterIntegrationTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final NodeSimSettings FAST = NodeSimSettings.defaults()
            .withStartDelay(Duration.ZERO, Duration.ofMillis(100))
            .withShutdownDelay(Duration.ofMillis(100))
            .withLeaseRenewInterval(Duration.ofSeconds(1));

    private final Commands user = new Commands("test-user");
    private final ViewWaiter waiter = new ViewWaiter();
    private EventplaneConfig config;
    private WriterService writer;
    private ObjectView view;
    private CommandSender sender;

    @BeforeAll
    void start(@TempDir Path dir) {
        SharedCluster cluster = SharedCluster.get();
        config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(), new Topics("t" + UUID.randomUUID()), 1);
        writer = new WriterService(config, dir.resolve("writer"), 20).start();
        view = new ObjectView(config, "test-view");
        view.addListener(waiter);
        view.start();
        sender = new CommandSender(config, "test-user");
        waiter.awaitTrue(DEADLINE, () -> writer.isReady() && view.isReady(), () -> "writer " + writer.state());
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {sender, view, writer}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing anyway
            }
        }
    }

    private Optional<Node> node(String name) {
        return view.get(Kinds.NODE.kind(), "", name).map(c -> (Node) c.getObject());
    }

    private Optional<Lease> lease(String name) {
        return view.get(Kinds.LEASE.kind(), NodeTemplates.LEASE_NAMESPACE, name).map(c -> (Lease) c.getObject());
    }

    private Optional<Pod> pod(String name) {
        return view.get(Kinds.POD.kind(), "default", name).map(c -> (Pod) c.getObject());
    }

    private void send(io.eventplane.log.Command c) {
        sender.send(c);
        sender.flush();
    }

    private Pod runBound(String name, String nodeName) {
        send(user.create(Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(Container.newBuilder().setName("c").setImage("nginx")
                        .build())).build()).build()));
        Pod created = waiter.await(DEADLINE, () -> pod(name), () -> name + " was not created");
        send(user.bind("default", name, created.getMetadata().getUid(), nodeName));
        return waiter.await(DEADLINE, () -> pod(name).filter(p -> p.getStatus() != null
                && "Running".equals(p.getStatus().getPhase())), () -> name + ": " + pod(name));
    }

    @Test
    @DisplayName("a Node created with the roster annotation joins: node-sim reports it Ready, renews its Lease and "
            + "runs its pods; marked removed and deleted, it leaves and is not registered again")
    void joinAndLeave() {
        try (NodeSimulator sim = new NodeSimulator(config, 1, NodeShape.defaults(), Clock.systemUTC(),
                FAST.withNamePrefix("roster-")).start()) {
            waiter.awaitTrue(DEADLINE, sim::isReady, () -> "roster-1 did not register");
            send(user.create(NodeRoster.added("roster-", 2, Map.of("disk", "ssd"), NodeShape.defaults(), Instant.now())));
            waiter.awaitTrue(DEADLINE, () -> node("roster-2").map(NodeTemplates::isReady).orElse(false)
                    && lease("roster-2").isPresent(), () -> "roster-2: " + node("roster-2"));
            assertEquals("ssd", node("roster-2").orElseThrow().getMetadata().getLabels().get("disk"));
            Instant renewed = lease("roster-2").orElseThrow().getSpec().getRenewTime();
            waiter.awaitTrue(DEADLINE, () -> lease("roster-2").orElseThrow().getSpec().getRenewTime().isAfter(renewed),
                    () -> "roster-2's Lease is not renewed");
            runBound("on-added", "roster-2");

            Node marked = node("roster-2").orElseThrow();
            Map<String, String> a = new HashMap<>(marked.getMetadata().getAnnotations());
            a.put(NodeFailure.ANNOTATION, NodeFailure.REMOVED);
            send(user.update(Node.newBuilder(marked).setMetadata(ObjectMeta.newBuilder(marked.getMetadata())
                    .setAnnotations(a).build()).build()));
            waiter.awaitTrue(DEADLINE, () -> !sim.nodeNames().contains("roster-2"), () -> "roster-2 did not leave");
            send(user.delete(Kinds.NODE, "", "roster-2", null, null));
            send(user.delete(Kinds.LEASE, NodeTemplates.LEASE_NAMESPACE, "roster-2", null, null));
            // a pod run on roster-1 afterwards shows node-sim has handled the deletions before it
            runBound("after", "roster-1");
            waiter.awaitTrue(DEADLINE, () -> node("roster-2").isEmpty() && lease("roster-2").isEmpty(),
                    () -> "roster-2 is still there");
            assertFalse(sim.nodeNames().contains("roster-2"));
        }
    }

    @Test
    @DisplayName("a restarted node-sim finds the node added at run time and simulates it again")
    void addedNodesSurviveARestart() {
        NodeSimSettings settings = FAST.withNamePrefix("again-");
        try (NodeSimulator first = new NodeSimulator(config, 1, NodeShape.defaults(), Clock.systemUTC(), settings).start()) {
            waiter.awaitTrue(DEADLINE, first::isReady, () -> "again-1 did not register");
            send(user.create(NodeRoster.added("again-", 5, Map.of(), NodeShape.defaults(), Instant.now())));
            waiter.awaitTrue(DEADLINE, () -> node("again-5").map(NodeTemplates::isReady).orElse(false),
                    () -> "again-5: " + node("again-5"));
        }
        Instant before = lease("again-5").orElseThrow().getSpec().getRenewTime();
        try (NodeSimulator second = new NodeSimulator(config, 1, NodeShape.defaults(), Clock.systemUTC(), settings).start()) {
            waiter.awaitTrue(DEADLINE, second::isReady, () -> "the second simulator is not ready");
            assertTrue(second.nodeNames().contains("again-5"), second.nodeNames().toString());
            waiter.awaitTrue(DEADLINE, () -> lease("again-5").orElseThrow().getSpec().getRenewTime().isAfter(before),
                    () -> "again-5's Lease is not renewed after the restart");
        }
    }
}
