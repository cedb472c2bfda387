package io.eventplane.scheduler;

import static io.eventplane.scheduler.TestObjects.node;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolume;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolumeClaim;
import static io.eventplane.testkit.objects.KubeObjects.storageClass;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.ObjectStore;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.Node;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.StorageClass;
import io.eventplane.testkit.objects.KubeObjects;
import io.eventplane.testkit.objects.PersistentVolumeClaimBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scheduler's VolumeBinding for pods with claims: PreFilter's and Filter's messages as kube-scheduler words them,
 * Reserve's writes, PreBind's wait. Pods without claims never get here (their decisions are the other tests').
 */
class VolumeBindingTest {
    private static final String SIM = "sim.eventplane.io/hostpath";
    private static final StorageClass WFFC = storageClass("standard", SIM).waitForFirstConsumer().build();
    private static final StorageClass IMMEDIATE = storageClass("fast", SIM).immediate().build();
    private static final StorageClass LOCAL = storageClass("local", PersistentVolumes.NO_PROVISIONER)
            .waitForFirstConsumer().build();
    private final SchedulerDecider decider = new SchedulerDecider();

    private static PersistentVolumeClaimBuilder claim(String name) {
        return persistentVolumeClaim(name).uid("uid-" + name).resourceVersion("4").phase("Pending");
    }

    /** A claim bound to {@code volume}, as the binder leaves it. */
    private static PersistentVolumeClaim bound(String name, String volume) {
        return claim(name).storageClass("manual").volumeName(volume).phase("Bound")
                .annotations(PersistentVolumes.BIND_COMPLETED, "yes").build();
    }

    private static Pod pod(String name, String... claims) {
        var b = KubeObjects.pod(name).uid("uid-" + name).resourceVersion("7").schedulerName("default-scheduler").pending();
        for (int i = 0; i < claims.length; i++) {
            b.claimVolume("v" + i, claims[i]);
        }
        return b.build();
    }

    private static ObjectStore store(SpecificRecord... objects) {
        return ObjectStore.of(List.of(objects));
    }

    private static ClusterSnapshot three() {
        return TestObjects.states(node("node-1", "4", "16Gi", "110"), node("node-2", "4", "16Gi", "110"),
                node("node-3", "4", "16Gi", "110"));
    }

    private Placement decide(Pod pod, ObjectStore store) {
        PodInfo info = PodInfo.of(pod);
        return decider.decide(info, three(), VolumeBinding.preFilter("default", info.claims(), store));
    }

    private static String message(Placement p) {
        Placement.Unschedulable u = assertInstanceOf(Placement.Unschedulable.class, p);
        assertEquals("Unschedulable", u.reason());
        return u.message();
    }

    record Row(String name, Pod pod, List<SpecificRecord> objects, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> unschedulable() {
        PersistentVolume pinned = persistentVolume("pv-1").storageClass("manual").onNodes("node-9")
                .claimRef("default", "data", "uid-data").phase("Bound").build();
        List<Row> rows = List.of(
                new Row("a pod whose claim does not exist", pod("web", "data"), List.of(),
                        "0/3 nodes are available: persistentvolumeclaim \"data\" not found."),
                new Row("a pod whose claim is being deleted", pod("web", "data"),
                        List.of(claim("data").deletedAt(Instant.EPOCH).build()),
                        "0/3 nodes are available: persistentvolumeclaim \"data\" is being deleted."),
                new Row("a pod whose claim lost its volume", pod("web", "data"),
                        List.of(claim("data").volumeName("pv-x").phase("Lost").build()),
                        "0/3 nodes are available: persistentvolumeclaim \"data\" bound to non-existent persistentvolume "
                                + "\"pv-x\"."),
                new Row("a pod with an unbound claim of an Immediate class", pod("web", "data"),
                        List.of(IMMEDIATE, claim("data").storageClass("fast").build()),
                        "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims."),
                new Row("... also a claim of a class that does not exist", pod("web", "data"),
                        List.of(claim("data").storageClass("gold").build()),
                        "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims."),
                new Row("... also a claim pre-bound to a volume, not yet bound", pod("web", "data"),
                        List.of(WFFC, claim("data").storageClass("standard").volumeName("pv-1").build()),
                        "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims."),
                new Row("a pod whose claim is bound to a volume pinned to no node of the cluster", pod("web", "data"),
                        List.of(bound("data", "pv-1"), pinned),
                        "0/3 nodes are available: 3 node(s) had volume node affinity conflict."),
                new Row("a pod whose claim is bound to a volume that is gone", pod("web", "data"),
                        List.of(bound("data", "pv-gone")), "0/3 nodes are available: 3 node(s) unavailable due to one or "
                                + "more pvc(s) bound to non-existent pv(s)."),
                new Row("a WaitForFirstConsumer claim no volume fits and no provisioner serves", pod("web", "data"),
                        List.of(LOCAL, claim("data").storageClass("local").build(),
                                persistentVolume("small").storageClass("local").capacity("100Mi").phase("Available").build()),
                        "0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind."));
        return rows.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unschedulable")
    @DisplayName("a pod whose claims no node can serve is unschedulable with kube-scheduler's message")
    void unschedulableMessages(Row row) {
        assertEquals(row.message(), message(decide(row.pod(), store(row.objects().toArray(SpecificRecord[]::new)))));
    }

    @Test
    @DisplayName("a bound volume pinned to a node restricts the pod to it; other nodes have a volume node affinity conflict")
    void boundVolumeRestrictsNodes() {
        ObjectStore s = store(bound("data", "pv-1"), persistentVolume("pv-1").storageClass("manual").onNodes("node-2")
                .claimRef("default", "data", "uid-data").phase("Bound").build());
        assertEquals("node-2", assertInstanceOf(Placement.Bind.class, decide(pod("web", "data"), s)).node());
        Pod elsewhere = Pod.newBuilder(pod("web", "data")).setSpec(io.eventplane.model.PodSpec.newBuilder(
                pod("web", "data").getSpec()).setNodeSelector(java.util.Map.of("kubernetes.io/hostname", "node-1"))
                .build()).build();
        assertEquals("0/3 nodes are available: 1 node(s) had volume node affinity conflict, 2 node(s) didn't match "
                + "Pod's node affinity/selector.", message(decide(elsewhere, s)));
    }

    @Test
    @DisplayName("a WaitForFirstConsumer claim to provision: any node fits; Reserve annotates the claim with the node; "
            + "PreBind waits until the claim is bound, then binds")
    void provisioning() {
        ObjectStore s = store(WFFC, claim("data").storageClass("standard").build());
        Pod pod = pod("web", "data");
        VolumeBinding.PodVolumes volumes = VolumeBinding.preFilter("default", List.of("data"), s);
        assertNull(volumes.rejection());
        assertTrue(!volumes.allBound());
        ClusterSnapshot nodes = three();
        String node = assertInstanceOf(Placement.Bind.class, decider.decide(PodInfo.of(pod), nodes, volumes)).node();
        List<SpecificRecord> writes = volumes.reserve(nodes.node(node));
        PersistentVolumeClaim annotated = (PersistentVolumeClaim) writes.get(0);
        assertEquals(1, writes.size());
        assertEquals(node, annotated.getMetadata().getAnnotations().get(PersistentVolumes.SELECTED_NODE));
        assertEquals("4", annotated.getMetadata().getResourceVersion(), "written on the version read");

        assertInstanceOf(VolumeBinding.Check.Waiting.class, VolumeBinding.check("default", List.of("data"), node, s));
        ObjectStore done = store(WFFC, bound("data", "pvc-1"), persistentVolume("pvc-1").storageClass("standard")
                .onNodes(node).claimRef("default", "data", "uid-data").phase("Bound").build(),
                node(node, "4", "16Gi", "110"));
        assertInstanceOf(VolumeBinding.Check.Bound.class, VolumeBinding.check("default", List.of("data"), node, done));
        assertInstanceOf(VolumeBinding.Check.Failed.class, VolumeBinding.check("default", List.of("data"), "node-x",
                done));
    }

    @Test
    @DisplayName("a claim whose node is selected already can only go there; a claim an Available volume fits is "
            + "pre-bound to the smallest one the node may use")
    void selectedNodeAndStaticBinding() {
        ObjectStore selected = store(WFFC, claim("data").storageClass("standard")
                .annotations(PersistentVolumes.SELECTED_NODE, "node-3").build());
        assertEquals("node-3", assertInstanceOf(Placement.Bind.class, decide(pod("web", "data"), selected)).node());

        ObjectStore volumes = store(LOCAL, claim("data").storageClass("local").build(),
                persistentVolume("disk-1").storageClass("local").capacity("10Gi").onNodes("node-1").phase("Available").build(),
                persistentVolume("disk-2").storageClass("local").capacity("2Gi").onNodes("node-2").phase("Available").build(),
                persistentVolume("disk-3").storageClass("local").capacity("5Gi").onNodes("node-2").phase("Available").build());
        VolumeBinding.PodVolumes v = VolumeBinding.preFilter("default", List.of("data"), volumes);
        ClusterSnapshot nodes = three();
        List<String> reasons = new ArrayList<>();
        assertTrue(!v.fits(nodes.node("node-3"), reasons));
        assertEquals(List.of(VolumeBinding.BIND_CONFLICT), reasons);
        PersistentVolume prebound = (PersistentVolume) v.reserve(nodes.node("node-2")).get(0);
        assertEquals("disk-2", prebound.getMetadata().getName());
        assertEquals("uid-data", prebound.getSpec().getClaimRef().getUid());
        assertEquals("yes", prebound.getMetadata().getAnnotations().get(PersistentVolumes.BOUND_BY_CONTROLLER));
    }

    @Test
    @DisplayName("a pod whose claims are all bound needs no Reserve writes and is bound at once")
    void allBound() {
        ObjectStore s = store(bound("data", "pv-1"), persistentVolume("pv-1").storageClass("manual")
                .claimRef("default", "data", "uid-data").phase("Bound").build());
        VolumeBinding.PodVolumes v = VolumeBinding.preFilter("default", List.of("data"), s);
        assertTrue(v.allBound());
        Node any = node("node-1", "4", "16Gi", "110");
        assertEquals(List.of(), v.reserve(NodeState.of(any)));
    }
}
