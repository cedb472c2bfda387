package io.eventplane.launcher;

import static io.eventplane.testkit.objects.KubeObjects.container;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentCondition;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.Event;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicationController;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workload controllers on a real broker and registry, with the writer, the scheduler and node-sim: a Deployment
 * rolls out and rolls to a new image with its pods scheduled and run by simulated nodes; a ReplicationController
 * keeps its pods.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkloadsEndToEndTest {
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    private final Commands user = new Commands("test-user");
    private final ControlLoop loop = new ControlLoop();

    @BeforeAll
    void startTheCluster(@TempDir Path dir) {
        loop.start(dir).startControllers();
    }

    @AfterAll
    void stopTheCluster() {
        loop.close();
    }

    static PodTemplateSpec template(Map<String, String> labels, String image) {
        return KubeObjects.template().labels(labels).containers(container("nginx").image(image)).build();
    }

    private <T> Optional<T> get(Class<T> type, String name) {
        return loop.view().get(type.getSimpleName(), "default", name).map(c -> type.cast(c.getObject()));
    }

    private <T> List<T> list(Class<T> type) {
        return loop.view().list(type.getSimpleName(), "default").stream().map(c -> type.cast(c.getObject())).toList();
    }

    private List<Pod> podsOwnedBy(String uid) {
        return list(Pod.class).stream().filter(p -> p.getMetadata().getOwnerReferences() != null
                && p.getMetadata().getOwnerReferences().stream().anyMatch(r -> uid.equals(r.getUid()))).toList();
    }

    private static boolean runningAndReady(Pod p) {
        return p.getStatus() != null && "Running".equals(p.getStatus().getPhase()) && p.getStatus().getConditions() != null
                && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static boolean complete(Deployment d, String image) {
        var s = d.getStatus();
        int want = d.getSpec().getReplicas();
        boolean progressed = s != null && s.getConditions() != null && s.getConditions().stream()
                .anyMatch(c -> "Progressing".equals(c.getType()) && "NewReplicaSetAvailable".equals(c.getReason()));
        return progressed && d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().equals(image)
                && s.getObservedGeneration() != null && s.getObservedGeneration().equals(d.getMetadata().getGeneration())
                && Integer.valueOf(want).equals(s.getUpdatedReplicas()) && Integer.valueOf(want).equals(s.getAvailableReplicas())
                && Integer.valueOf(want).equals(s.getReplicas());
    }

    @Test
    @DisplayName("AC-DEP-01, AC-DEP-02, DEP-28: a Deployment rolls out on simulated nodes, then rolls to a new image; old ReplicaSet kept at 0")
    void deploymentRollsOut() {
        Deployment d = KubeObjects.deployment("web").replicas(4).containers(container("nginx").image("nginx:1.14.2"))
                .build();
        loop.sender().send(user.create(d));
        Deployment first = loop.waiter().await(DEADLINE, () -> get(Deployment.class, "web").filter(x -> complete(x, "nginx:1.14.2")),
                () -> "web not rolled out: " + get(Deployment.class, "web").map(Deployment::getStatus).orElse(null));
        assertEquals("1", first.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));
        ReplicaSet rs1 = list(ReplicaSet.class).stream().filter(rs -> rs.getMetadata().getName().startsWith("web-")).findFirst().orElseThrow();
        List<Pod> pods = podsOwnedBy(rs1.getMetadata().getUid());
        assertEquals(4, pods.size());
        assertTrue(pods.stream().allMatch(p -> p.getSpec().getNodeName() != null && runningAndReady(p)));

        Deployment current = first;
        PodTemplateSpec t = template(Map.of("app", "web"), "nginx:1.16.1");
        loop.sender().send(user.update(Deployment.newBuilder(current)
                .setSpec(DeploymentSpec.newBuilder(current.getSpec()).setTemplate(t).build()).build()));
        Deployment second = loop.waiter().await(DEADLINE, () -> get(Deployment.class, "web").filter(x -> complete(x, "nginx:1.16.1")),
                () -> "web not rolled to 1.16.1: " + get(Deployment.class, "web").map(Deployment::getStatus).orElse(null));
        assertEquals("2", second.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));
        List<ReplicaSet> rss = list(ReplicaSet.class).stream().filter(rs -> rs.getMetadata().getName().startsWith("web-")).toList();
        assertEquals(2, rss.size());
        ReplicaSet old = get(ReplicaSet.class, rs1.getMetadata().getName()).orElseThrow();
        assertEquals(0, old.getSpec().getReplicas());
        // the old pods are gone (graceful deletion by node-sim), the new ones run
        loop.waiter().awaitTrue(DEADLINE, () -> podsOwnedBy(old.getMetadata().getUid()).isEmpty(), () -> "old pods left");
        ReplicaSet fresh = rss.stream().filter(rs -> !rs.getMetadata().getName().equals(old.getMetadata().getName())).findFirst().orElseThrow();
        assertEquals(4, podsOwnedBy(fresh.getMetadata().getUid()).stream().filter(WorkloadsEndToEndTest::runningAndReady).count());
        // ScalingReplicaSet events from deployment-controller, SuccessfulCreate from replicaset-controller
        loop.waiter().awaitTrue(DEADLINE, () -> list(Event.class).stream().anyMatch(e -> "ScalingReplicaSet".equals(e.getReason())
                        && e.getMessage().equals("Scaled down replica set " + old.getMetadata().getName() + " to 0")
                        && "deployment-controller".equals(e.getSource().getComponent())),
                () -> "no ScalingReplicaSet event");
        assertTrue(list(Event.class).stream().anyMatch(e -> "SuccessfulCreate".equals(e.getReason())
                && "replicaset-controller".equals(e.getSource().getComponent())));
        Optional<DeploymentCondition> available = second.getStatus().getConditions().stream()
                .filter(c -> "Available".equals(c.getType())).findFirst();
        assertEquals("MinimumReplicasAvailable", available.orElseThrow().getReason());
    }

    @Test
    @DisplayName("AC-RC-01, RC-01, RC-15: a ReplicationController keeps 3 pods; a deleted one is replaced")
    void replicationControllerKeepsPods() {
        ReplicationController rc = KubeObjects.replicationController("nginx").replicas(3).withoutSelector()
                .templateLabels("app", "nginx-rc").containers(container("nginx")).build();
        loop.sender().send(user.create(rc));
        ReplicationController stored = loop.waiter().await(DEADLINE, () -> get(ReplicationController.class, "nginx")
                        .filter(x -> x.getStatus() != null && Integer.valueOf(3).equals(x.getStatus().getReadyReplicas())),
                () -> "rc not ready");
        String uid = stored.getMetadata().getUid();
        List<Pod> pods = podsOwnedBy(uid);
        assertEquals(3, pods.size());
        OwnerReference ref = pods.get(0).getMetadata().getOwnerReferences().get(0);
        assertEquals("ReplicationController", ref.getKind());
        assertEquals(Boolean.TRUE, ref.getController());
        Pod victim = pods.get(0);
        loop.sender().send(user.delete(io.eventplane.core.kinds.Kinds.POD, "default", victim.getMetadata().getName(), null, null));
        loop.waiter().awaitTrue(DEADLINE, () -> get(Pod.class, victim.getMetadata().getName()).isEmpty()
                && podsOwnedBy(uid).stream().filter(WorkloadsEndToEndTest::runningAndReady).count() == 3,
                () -> "no replacement: " + podsOwnedBy(uid).size());
        assertTrue(list(Event.class).stream().anyMatch(e -> "SuccessfulCreate".equals(e.getReason())
                && "replication-controller".equals(e.getSource().getComponent())));
    }

    @SuppressWarnings("unused")
    private static String describe(ObjectChanged c) {
        return c.getKind() + "/" + c.getName();
    }
}
