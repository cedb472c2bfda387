package io.eventplane.nodesim;

import static io.eventplane.testkit.objects.KubeObjects.container;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.ViewWaiter;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.ConfigMapKeySelector;
import io.eventplane.model.ConfigMapVolumeSource;
import io.eventplane.model.ContainerStateWaiting;
import io.eventplane.model.EnvVar;
import io.eventplane.model.EnvVarSource;
import io.eventplane.model.Event;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.Secret;
import io.eventplane.model.SecretVolumeSource;
import io.eventplane.model.Volume;
import io.eventplane.model.VolumeMount;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.testkit.objects.ContainerBuilder;
import io.eventplane.testkit.objects.KubeObjects;
import io.eventplane.topology.WriterService;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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

/**
 * Simulated kubelets and the ConfigMaps and Secrets their pods refer to, against a real broker, registry and writer:
 * a pod waits with the kubelet's reason, message and Events, and starts once the object is created.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodeSimReferencesIntegrationTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final NodeSimSettings FAST = NodeSimSettings.defaults()
            .withStartDelay(Duration.ZERO, Duration.ofMillis(100))
            .withShutdownDelay(Duration.ofMillis(100))
            .withLeaseRenewInterval(Duration.ofSeconds(1));

    private final Commands user = new Commands("test-user");
    private final ViewWaiter waiter = new ViewWaiter();
    private WriterService writer;
    private ObjectView view;
    private NodeSimulator nodes;
    private CommandSender sender;

    @BeforeAll
    void start(@TempDir Path dir) {
        SharedCluster cluster = SharedCluster.get();
        EventplaneConfig config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics("t" + UUID.randomUUID()), 1);
        writer = new WriterService(config, dir.resolve("writer"), 20).start();
        view = new ObjectView(config, "test-view");
        view.addListener(waiter);
        view.start();
        nodes = new NodeSimulator(config, 2, NodeShape.defaults(), Clock.systemUTC(), FAST).start();
        sender = new CommandSender(config, "test-user");
        waiter.awaitTrue(DEADLINE, () -> writer.isReady() && view.isReady() && nodes.isReady(),
                () -> "writer " + writer.state() + ", view " + view.isReady() + ", nodes " + nodes.isReady());
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

    @Test
    @DisplayName("POD-4.2 a pod whose env refers to a missing ConfigMap waits in CreateContainerConfigError with the "
            + "kubelet's message and a Failed event, and starts as soon as the ConfigMap is created")
    void waitsForConfigMap() {
        createBound("needs-config", "node-1", container("app").edit(c -> c.setEnv(List.of(EnvVar.newBuilder()
                .setName("MODE").setValueFrom(EnvVarSource.newBuilder().setConfigMapKeyRef(ConfigMapKeySelector
                        .newBuilder().setName("app-config").setKey("mode").build()).build()).build()))));

        ContainerStateWaiting waiting = waiter.await(DEADLINE, () -> pod("needs-config").map(p -> waiting(p, "app"))
                        .filter(w -> "CreateContainerConfigError".equals(w.getReason())),
                () -> "needs-config: " + pod("needs-config").map(Pod::getStatus));
        assertEquals("configmap \"app-config\" not found", waiting.getMessage());
        Pod pending = pod("needs-config").orElseThrow();
        assertEquals("Pending", pending.getStatus().getPhase());
        assertEquals("False", condition(pending, "Ready"));
        sender.send(user.create(ConfigMap.newBuilder().setMetadata(meta("app-config"))
                .setData(Map.of("mode", "fast")).build()));
        sender.flush();

        Pod running = waiter.await(DEADLINE, () -> pod("needs-config").filter(p -> "True".equals(condition(p, "Ready"))),
                () -> "needs-config did not start after its ConfigMap was created: " + pod("needs-config").map(Pod::getStatus));
        Event failed = waiter.await(DEADLINE, () -> event("needs-config", "Failed"), () -> "no Failed event");
        assertEquals("Warning", failed.getType());
        assertEquals("Error: configmap \"app-config\" not found", failed.getMessage());
        assertEquals("spec.containers{app}", failed.getInvolvedObject().getFieldPath());
        assertEquals("kubelet", failed.getSource().getComponent());
        Instant startedAt = running.getStatus().getContainerStatuses().get(0).getState().getRunning().getStartedAt();
        assertTrue(startedAt.isBefore(failed.getLastTimestamp().plus(ContainerRun.CONFIG_RETRY)),
                "started when the ConfigMap appeared (" + startedAt + "), not at the kubelet's next try after "
                        + failed.getLastTimestamp());
        assertEquals(0, running.getStatus().getContainerStatuses().get(0).getRestartCount());
    }

    @Test
    @DisplayName("POD-6.11 a pod whose secret volume refers to a missing Secret stays ContainerCreating without a sandbox, "
            + "FailedMount recorded; it starts once the Secret is created. An optional missing ConfigMap does not block")
    void waitsForSecretVolume() {
        Volume certs = Volume.newBuilder().setName("certs").setSecret(SecretVolumeSource.newBuilder()
                .setSecretName("tls").build()).build();
        Volume extra = Volume.newBuilder().setName("extra").setConfigMap(ConfigMapVolumeSource.newBuilder()
                .setName("not-there").setOptional(true).build()).build();
        createBound("needs-secret", "node-2", container("app").edit(c -> c.setVolumeMounts(List.of(
                VolumeMount.newBuilder().setName("certs").setMountPath("/certs").build(),
                VolumeMount.newBuilder().setName("extra").setMountPath("/extra").build()))), certs, extra);

        Event failedMount = waiter.await(DEADLINE, () -> event("needs-secret", "FailedMount"), () -> "no FailedMount event");
        assertEquals("Warning", failedMount.getType());
        assertEquals("MountVolume.SetUp failed for volume \"certs\" : secret \"tls\" not found", failedMount.getMessage());
        Pod creating = waiter.await(DEADLINE, () -> pod("needs-secret").filter(p -> p.getStatus().getStartTime() != null),
                () -> "needs-secret: " + pod("needs-secret").map(Pod::getStatus));
        assertEquals("Pending", creating.getStatus().getPhase());
        assertNotNull(creating.getStatus().getHostIP());
        assertNull(creating.getStatus().getPodIP(), "no sandbox, no address");
        assertEquals("False", condition(creating, "PodReadyToStartContainers"));
        assertEquals("ContainerCreating", waiting(creating, "app").getReason());

        sender.send(user.create(Secret.newBuilder().setMetadata(meta("tls")).setData(Map.of("tls.crt",
                ByteBuffer.wrap("cert".getBytes(StandardCharsets.UTF_8)))).build()));
        sender.flush();

        Pod running = waiter.await(DEADLINE, () -> pod("needs-secret").filter(p -> "True".equals(condition(p, "Ready"))),
                () -> "needs-secret did not start after its Secret was created: " + pod("needs-secret").map(Pod::getStatus));
        assertTrue(running.getStatus().getPodIP().startsWith("10.244.2."), running.getStatus().getPodIP());
        assertEquals("True", condition(running, "PodReadyToStartContainers"));
    }

    // ---- helpers

    private void createBound(String name, String nodeName, ContainerBuilder container, Volume... volumes) {
        Pod pod = KubeObjects.pod(name).containers(container).spec(s -> s.setVolumes(volumes.length == 0 ? null
                : List.of(volumes))).build();
        sender.send(user.create(pod));
        sender.flush();
        Pod created = waiter.await(DEADLINE, () -> pod(name), () -> name + " was not created");
        sender.send(user.bind("default", name, created.getMetadata().getUid(), nodeName));
        sender.flush();
    }

    private Optional<Pod> pod(String name) {
        return view.get(Kinds.POD.kind(), "default", name).map(c -> (Pod) c.getObject());
    }

    private Optional<Event> event(String podName, String reason) {
        return view.list(Kinds.EVENT.kind(), "default").stream().map(c -> (Event) c.getObject())
                .filter(e -> podName.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
                .findFirst();
    }

    private static ContainerStateWaiting waiting(Pod p, String container) {
        if (p.getStatus() == null || p.getStatus().getContainerStatuses() == null) {
            return null;
        }
        return p.getStatus().getContainerStatuses().stream().filter(s -> s.getName().equals(container)).findFirst()
                .map(s -> s.getState().getWaiting()).orElse(null);
    }

    private static String condition(Pod p, String type) {
        if (p.getStatus() == null || p.getStatus().getConditions() == null) {
            return null;
        }
        return p.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst()
                .map(PodCondition::getStatus).orElse(null);
    }

    private static ObjectMeta meta(String name) {
        return ObjectMeta.newBuilder().setName(name).setNamespace("default").build();
    }
}
