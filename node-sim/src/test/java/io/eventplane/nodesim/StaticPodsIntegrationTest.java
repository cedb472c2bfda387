package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.ViewWaiter;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.topology.WriterService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Static pods against a real broker, registry and writer: their mirror pods in the API (POD-18). */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StaticPodsIntegrationTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String WEB = """
            apiVersion: v1
            kind: Pod
            metadata: {name: web, labels: {app: web}}
            spec:
              terminationGracePeriodSeconds: 1
              containers: [{name: nginx, image: 'nginx:1.25'}]
            """;

    private final Commands user = new Commands("test-user");
    private final ViewWaiter waiter = new ViewWaiter();
    private WriterService writer;
    private ObjectView view;
    private NodeSimulator nodes;
    private CommandSender sender;
    private Path manifests;

    @BeforeAll
    void start(@TempDir Path dir) throws IOException {
        SharedCluster cluster = SharedCluster.get();
        EventplaneConfig config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics("t" + UUID.randomUUID()), 1);
        manifests = dir.resolve("static");
        Files.createDirectories(manifests.resolve("node-1"));
        Files.writeString(manifests.resolve("node-1/web.yaml"), WEB);
        writer = new WriterService(config, dir.resolve("writer"), 20).start();
        view = new ObjectView(config, "test-view");
        view.addListener(waiter);
        view.start();
        nodes = new NodeSimulator(config, 2, NodeShape.defaults(), Clock.systemUTC(), NodeSimSettings.defaults()
                .withStartDelay(Duration.ZERO, Duration.ofMillis(100)).withLeaseRenewInterval(Duration.ofSeconds(1)))
                .withStaticPods(manifests).start();
        sender = new CommandSender(config, "test-user");
        waiter.awaitTrue(DEADLINE, () -> writer.isReady() && view.isReady() && nodes.isReady(), () -> "not ready");
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {sender, nodes, view, writer}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing anyway
            }
        }
    }

    private Optional<Pod> pod(String name) {
        return view.get(Kinds.POD.kind(), "default", name).map(c -> (Pod) c.getObject());
    }

    private static boolean running(Pod p) {
        return p.getStatus() != null && "Running".equals(p.getStatus().getPhase()) && p.getStatus().getConditions()
                .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    @Test
    @DisplayName("POD-18.1 POD-18.2 POD-18.3 POD-18.5 a static manifest for node-1 becomes mirror pod web-node-1, bound "
            + "to node-1 without a scheduler, owned by the Node, Running; deleted through the API it is removed without "
            + "a terminal phase and recreated while its container runs on; a changed manifest replaces it")
    void mirrorPods() throws IOException {
        Pod first = waiter.await(DEADLINE, () -> pod("web-node-1").filter(StaticPodsIntegrationTest::running),
                () -> "mirror pod " + pod("web-node-1"));
        Node node = view.get(Kinds.NODE.kind(), "", "node-1").map(c -> (Node) c.getObject()).orElseThrow();
        assertEquals("node-1", first.getSpec().getNodeName());
        assertEquals("Node", first.getMetadata().getOwnerReferences().get(0).getKind());
        assertEquals(node.getMetadata().getUid(), first.getMetadata().getOwnerReferences().get(0).getUid());
        assertTrue(first.getMetadata().getOwnerReferences().get(0).getController());
        assertEquals("file", first.getMetadata().getAnnotations().get(StaticPods.SOURCE));
        assertNull(first.getSpec().getServiceAccountName(), "a mirror pod names no service account");
        assertTrue(pod("web-node-2").isEmpty(), "the manifest is node-1's only");
        String containerID = first.getStatus().getContainerStatuses().get(0).getContainerID();

        // every change of the first mirror pod from its deletion on: a static pod is not moved to a terminal phase first
        List<ObjectChanged> afterDelete = new CopyOnWriteArrayList<>();
        view.addListener(c -> {
            if (c.getKind().equals(Kinds.POD.kind()) && c.getUid().equals(first.getMetadata().getUid())) {
                afterDelete.add(c);
            }
        });
        sender.send(user.delete(Kinds.POD, "default", "web-node-1", 30L, first.getMetadata().getUid()));
        sender.flush();
        Pod second = waiter.await(DEADLINE, () -> pod("web-node-1")
                        .filter(p -> !p.getMetadata().getUid().equals(first.getMetadata().getUid()))
                        .filter(StaticPodsIntegrationTest::running),
                () -> "recreated mirror pod " + pod("web-node-1"));
        waiter.await(DEADLINE, () -> afterDelete.stream().filter(c -> c.getType() == ChangeType.DELETED).findAny(),
                () -> "the first mirror pod's removal: " + afterDelete);
        for (ObjectChanged c : afterDelete) {
            String phase = ((Pod) c.getObject()).getStatus() == null ? null
                    : ((Pod) c.getObject()).getStatus().getPhase();
            assertTrue(!"Succeeded".equals(phase) && !"Failed".equals(phase),
                    "a static pod is removed without a terminal phase: " + c.getType() + " " + phase);
        }
        assertEquals(containerID, second.getStatus().getContainerStatuses().get(0).getContainerID(),
                "the static pod's container kept running");
        assertEquals(0, second.getStatus().getContainerStatuses().get(0).getRestartCount());
        assertEquals(first.getMetadata().getAnnotations().get(StaticPods.HASH),
                second.getMetadata().getAnnotations().get(StaticPods.HASH));

        Files.writeString(manifests.resolve("node-1/web.yaml"), WEB.replace("nginx:1.25", "nginx:1.26"));
        Pod third = waiter.await(DEADLINE, () -> pod("web-node-1")
                        .filter(p -> !p.getMetadata().getUid().equals(second.getMetadata().getUid()))
                        .filter(StaticPodsIntegrationTest::running),
                () -> "replaced mirror pod " + pod("web-node-1"));
        assertNotEquals(second.getMetadata().getAnnotations().get(StaticPods.HASH),
                third.getMetadata().getAnnotations().get(StaticPods.HASH));
        assertEquals(List.of("docker.io/library/nginx:1.26"),
                third.getStatus().getContainerStatuses().stream().map(s -> s.getImage()).toList());
    }
}
