package io.eventplane.gateway.console.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.Event;
import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.model.ResourceRequirements;
import io.eventplane.model.Taint;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The console's rows, fed change by change: what each kind's row says, the indexes, and sharing rows with another state. */
class ClusterRowsTest {
    private static final Instant T = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    @DisplayName("a pod's row: kubectl's status, ready containers, restarts, node, controller, and requests summed as the scheduler does")
    void podRow() {
        ClusterRows rows = new ClusterRows();
        rows.apply(change("Pod", "shop", "cart-1", 5, ChangeType.CREATED, pod("cart-1", "n1", "Running")));
        PodRow p = rows.pods("shop").iterator().next();
        assertEquals("Running", p.phase());
        assertEquals("Running", p.status());
        assertEquals("1/2", p.ready() + "/" + p.containers());
        assertEquals(3, p.restarts());
        assertEquals("n1", p.node());
        assertEquals("ReplicaSet/cart-7d9", p.owner());
        assertEquals(350, p.cpuMilli(), "100m + 250m; the init container's 300m is less than their sum");
        assertEquals(192L << 20, p.memoryBytes(), "64Mi + 128Mi");
        assertEquals(Map.of("app", "cart"), p.labels());
    }

    @Test
    @DisplayName("a node's row: Ready, the other true conditions as problems, taints, allocatable; workloads with rollout state")
    void nodeAndWorkloadRows() {
        ClusterRows rows = new ClusterRows();
        Node node = Node.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("n1").setUid("u-n1").build())
                .setSpec(NodeSpec.newBuilder().setUnschedulable(true).setTaints(List.of(Taint.newBuilder()
                        .setKey("node.kubernetes.io/unschedulable").setEffect("NoSchedule").build())).build())
                .setStatus(NodeStatus.newBuilder().setAllocatable(Map.of("cpu", "4", "memory", "16Gi", "pods", "110"))
                        .setConditions(List.of(cond("Ready", "False"), cond("MemoryPressure", "True"), cond("DiskPressure", "False")))
                        .build()).build();
        rows.apply(change("Node", "", "n1", 1, ChangeType.CREATED, node));
        NodeRow n = rows.node("n1");
        assertEquals("False", n.ready());
        assertTrue(n.unschedulable());
        assertEquals(List.of("MemoryPressure"), n.problems());
        assertEquals(List.of("node.kubernetes.io/unschedulable:NoSchedule"), n.taints());
        assertEquals(4000, n.cpuMilli());
        assertEquals(16L << 30, n.memoryBytes());
        assertEquals(110, n.pods());

        Deployment d = Deployment.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("web").setNamespace("shop")
                        .setUid("u-web").setGeneration(2L).build())
                .setSpec(DeploymentSpec.newBuilder().setReplicas(4).build())
                .setStatus(DeploymentStatus.newBuilder().setObservedGeneration(2L).setReplicas(5).setUpdatedReplicas(2)
                        .setReadyReplicas(4).setAvailableReplicas(4).build()).build();
        rows.apply(change("Deployment", "shop", "web", 2, ChangeType.CREATED, d));
        WorkloadRow w = rows.workloads().iterator().next();
        assertEquals("Progressing", w.state());
        assertEquals(List.of(4, 5, 2, 4, 4), List.of(w.desired(), w.current(), w.updated(), w.ready(), w.available()));
        Deployment done = Deployment.newBuilder(d).setStatus(DeploymentStatus.newBuilder(d.getStatus()).setReplicas(4)
                .setUpdatedReplicas(4).build()).build();
        rows.apply(change("Deployment", "shop", "web", 3, ChangeType.STATUS_UPDATED, done));
        assertEquals("Complete", rows.workloads().iterator().next().state());
        assertEquals(Map.of("Deployment", 1, "Node", 1), rows.countsByKind());
    }

    @Test
    @DisplayName("owners find their dependents and objects their events; an older change than the row is ignored; a deletion removes everything")
    void indexesAndDeletion() {
        ClusterRows rows = new ClusterRows();
        rows.apply(change("Pod", "shop", "cart-1", 5, ChangeType.CREATED, pod("cart-1", "n1", "Running")));
        Event e = Event.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("cart-1.a").setNamespace("shop").build())
                .setInvolvedObject(ObjectReference.newBuilder().setKind("Pod").setName("cart-1").setNamespace("shop")
                        .setUid("u-cart-1").build())
                .setReason("Pulled").setType("Normal").setCount(2).setLastTimestamp(T).build();
        rows.apply(change("Event", "shop", "cart-1.a", 6, ChangeType.CREATED, e));
        assertEquals("cart-1", rows.dependentsOf("u-rs").get(0).name());
        assertEquals("Pulled", rows.eventsAbout("u-cart-1").get(0).reason());
        assertEquals(2, rows.eventsAbout("u-cart-1").get(0).count());

        rows.apply(change("Pod", "shop", "cart-1", 4, ChangeType.STATUS_UPDATED, pod("cart-1", "n1", "Pending")));
        assertEquals("Running", rows.pods().iterator().next().phase(), "a change older than the row is ignored");

        rows.apply(change("Pod", "shop", "cart-1", 9, ChangeType.DELETED, pod("cart-1", "n1", "Running")));
        assertTrue(rows.pods().isEmpty());
        assertTrue(rows.dependentsOf("u-rs").isEmpty());
        assertNull(rows.ref("Pod/shop/cart-1"));
        assertEquals(Map.of("Event", 1), rows.countsByKind());
    }

    @Test
    @DisplayName("a past state takes the rows of objects unchanged since from the live state, and only those")
    void sharesUnchangedRows() {
        ClusterRows live = new ClusterRows();
        live.apply(change("Pod", "shop", "cart-1", 5, ChangeType.CREATED, pod("cart-1", "n1", "Running")));
        ClusterRows past = new ClusterRows();
        assertTrue(past.copy(live, "Pod/shop/cart-1", 5, T));
        assertSame(live.pods().iterator().next(), past.pods().iterator().next());
        assertEquals("cart-1", past.dependentsOf("u-rs").get(0).name());
        assertFalse(past.copy(live, "Pod/shop/cart-1", 4, T), "another version: decode it instead");
        assertFalse(past.copy(live, "Pod/shop/other", 1, T));
    }

    private static NodeCondition cond(String type, String status) {
        return NodeCondition.newBuilder().setType(type).setStatus(status).build();
    }

    private static Pod pod(String name, String node, String phase) {
        return Pod.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("shop").setUid("u-" + name)
                        .setLabels(Map.of("app", "cart")).setCreationTimestamp(T)
                        .setOwnerReferences(List.of(OwnerReference.newBuilder().setApiVersion("apps/v1").setKind("ReplicaSet")
                                .setName("cart-7d9").setUid("u-rs").setController(true).build())).build())
                .setSpec(PodSpec.newBuilder().setNodeName(node)
                        .setInitContainers(List.of(container("init", "300m", "32Mi")))
                        .setContainers(List.of(container("app", "100m", "64Mi"), container("side", "250m", "128Mi"))).build())
                .setStatus(PodStatus.newBuilder().setPhase(phase).setContainerStatuses(List.of(
                        ContainerStatus.newBuilder().setName("app").setReady(true).setRestartCount(3).build(),
                        ContainerStatus.newBuilder().setName("side").setReady(false).setRestartCount(0).build())).build())
                .build();
    }

    private static Container container(String name, String cpu, String memory) {
        return Container.newBuilder().setName(name).setImage("img")
                .setResources(ResourceRequirements.newBuilder().setRequests(Map.of("cpu", cpu, "memory", memory)).build())
                .build();
    }

    private static ObjectChanged change(String kind, String ns, String name, long rv, ChangeType type, SpecificRecord o) {
        return ObjectChanged.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("test").setRequestId("r" + rv).setTime(T.plusSeconds(rv)).build())
                .setType(type).setKind(kind).setNamespace(ns).setName(name).setUid("u-" + name).setResourceVersion(rv)
                .setObject(o).build();
    }
}
