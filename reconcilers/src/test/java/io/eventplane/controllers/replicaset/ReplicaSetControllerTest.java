package io.eventplane.controllers.replicaset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.reconcile.Action;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.reconcile.Reconciliation;
import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.Workloads;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetCondition;
import io.eventplane.model.ReplicaSetSpec;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ReplicaSetControllerTest {
    private final SimulatedCluster cluster = new SimulatedCluster();

    private List<Pod> livePods() {
        return cluster.list(Pod.class).stream().filter(PodStates::isActive).toList();
    }

    @Test
    @DisplayName("AC-RS-01, RS-01, RS-06, RS-07: frontend (3) gets 3 pods named frontend-<suffix>, each with one controller reference, and 3 SuccessfulCreate events")
    void createsPodsWithOwnerReferences() {
        assertTrue(cluster.create(Workloads.frontend(3)).getAccepted());
        cluster.settle();
        ReplicaSet rs = cluster.get(ReplicaSet.class, "frontend");
        List<Pod> pods = cluster.podsOf("frontend");
        assertEquals(3, pods.size());
        for (Pod p : pods) {
            assertEquals("frontend-", p.getMetadata().getGenerateName());
            assertTrue(p.getMetadata().getName().matches("frontend-[bcdfghjklmnpqrstvwxz2456789]{5}"), p.getMetadata().getName());
            assertEquals(List.of(OwnerReference.newBuilder().setApiVersion("apps/v1").setKind("ReplicaSet")
                    .setName("frontend").setUid(rs.getMetadata().getUid()).setController(true)
                    .setBlockOwnerDeletion(true).build()), p.getMetadata().getOwnerReferences());
            assertEquals("frontend", p.getMetadata().getLabels().get("tier"));
        }
        assertEquals(pods.stream().map(p -> "Created pod: " + p.getMetadata().getName()).collect(Collectors.toSet()),
                Set.copyOf(cluster.eventsWithReason("SuccessfulCreate")));
        assertEquals(3, cluster.eventsWithReason("SuccessfulCreate").size());
        // get rs: frontend 3 3 3; RS-23 status
        assertEquals(3, rs.getStatus().getReplicas());
        assertEquals(3, rs.getStatus().getReadyReplicas());
        assertEquals(3, rs.getStatus().getAvailableReplicas());
        assertEquals(3, rs.getStatus().getFullyLabeledReplicas());
        assertEquals(rs.getMetadata().getGeneration(), rs.getStatus().getObservedGeneration());
    }

    @Test
    @DisplayName("POD-21.1 replication means more pods, not more containers: frontend scaled from 3 to 5 has 5 pods, "
            + "each with the template's one container")
    void replicationIsMorePods() {
        assertTrue(cluster.create(Workloads.frontend(3)).getAccepted());
        cluster.settle();
        ReplicaSet rs = cluster.get(ReplicaSet.class, "frontend");
        assertTrue(cluster.update(ReplicaSet.newBuilder(rs).setSpec(ReplicaSetSpec.newBuilder(rs.getSpec()).setReplicas(5)
                .build()).build()).getAccepted());
        cluster.settle();
        List<Pod> pods = livePods();
        assertEquals(5, pods.size());
        assertEquals(1, rs.getSpec().getTemplate().getSpec().getContainers().size());
        for (Pod p : pods) {
            assertEquals(rs.getSpec().getTemplate().getSpec().getContainers().stream().map(c -> c.getName()).toList(),
                    p.getSpec().getContainers().stream().map(c -> c.getName()).toList());
        }
    }

    @Test
    @DisplayName("POD-2.5 POD-1.15 a node fails: PodGC removes its pod (Failed first), the ReplicaSet creates a "
            + "replacement (a new pod, a new uid) and the scheduler places it on a healthy node")
    void replacementAfterNodeFailure() {
        cluster.nodes(3);
        assertTrue(cluster.create(Workloads.frontend(3)).getAccepted());
        cluster.settle();
        List<Pod> before = livePods();
        assertEquals(3, before.size());
        String failed = before.get(0).getSpec().getNodeName();
        List<Pod> lostPods = before.stream().filter(p -> failed.equals(p.getSpec().getNodeName())).toList();
        List<String> lost = lostPods.stream().map(p -> p.getMetadata().getName()).toList();
        List<String> lostUids = lostPods.stream().map(p -> p.getMetadata().getUid()).toList();

        assertTrue(cluster.deleteClusterScoped(Kinds.NODE, failed).getAccepted());
        List<io.eventplane.podgc.PodGcDecider.Removal> removals = new io.eventplane.podgc.PodGcDecider().decide(
                cluster.clock.instant(), cluster.list(Pod.class), cluster.list(io.eventplane.model.Node.class), 12_500);
        assertEquals(lost, removals.stream().map(r -> r.pod().getMetadata().getName()).toList());
        for (io.eventplane.podgc.PodGcDecider.Removal r : removals) {
            assertEquals("Failed", r.failFirst().getStatus().getPhase());
            assertTrue(cluster.updateStatus(r.failFirst()).getAccepted());
            assertTrue(cluster.delete(Kinds.POD, r.pod().getMetadata().getName()).getAccepted());
        }
        cluster.settle();

        List<Pod> after = livePods();
        assertEquals(3, after.size());
        assertTrue(after.stream().noneMatch(p -> lostUids.contains(p.getMetadata().getUid())),
                "the lost pod is not brought back; a new pod (a new uid) replaces it");
        assertTrue(after.stream().noneMatch(p -> failed.equals(p.getSpec().getNodeName())),
                after.stream().map(p -> p.getSpec().getNodeName()).toList().toString());
    }

    @Test
    @DisplayName("POD-2.12 a bare pod is not resilient to a node failure: removed with its node and never replaced, "
            + "while the ReplicaSet's pod on that node is replaced on a healthy node")
    void barePodIsNotReplacedAfterNodeFailure() {
        cluster.nodes(3);
        assertTrue(cluster.create(Workloads.frontend(3)).getAccepted());
        assertTrue(cluster.create(Workloads.barePod("solo", Map.of("app", "solo"))).getAccepted());
        cluster.settle();
        String failed = cluster.get(Pod.class, "solo").getSpec().getNodeName();
        List<Pod> onFailed = livePods().stream().filter(p -> failed.equals(p.getSpec().getNodeName())).toList();
        long frontendLost = onFailed.stream().filter(p -> !p.getMetadata().getName().equals("solo")).count();
        assertTrue(frontendLost >= 1, "the default spread puts a frontend pod beside the bare one");

        assertTrue(cluster.deleteClusterScoped(Kinds.NODE, failed).getAccepted());
        for (io.eventplane.podgc.PodGcDecider.Removal r : new io.eventplane.podgc.PodGcDecider().decide(
                cluster.clock.instant(), cluster.list(Pod.class), cluster.list(io.eventplane.model.Node.class), 12_500)) {
            assertTrue(cluster.updateStatus(r.failFirst()).getAccepted());
            assertTrue(cluster.delete(Kinds.POD, r.pod().getMetadata().getName()).getAccepted());
        }
        cluster.settle();

        List<Pod> after = livePods();
        assertTrue(after.stream().noneMatch(p -> p.getMetadata().getName().equals("solo")),
                "nothing brings the bare pod back: " + after.stream().map(p -> p.getMetadata().getName()).toList());
        assertEquals(3, cluster.podsOf("frontend").stream().filter(PodStates::isActive).count(),
                "the ReplicaSet replaced its " + frontendLost + " pod(s) on the failed node");
        assertTrue(after.stream().noneMatch(p -> failed.equals(p.getSpec().getNodeName())));
    }

    @Test
    @DisplayName("AC-RS-02, RS-08, RS-10: bare pods created after a full frontend are acquired and then deleted, the 3 template pods keep running")
    void acquiresAndDeletesSurplusBarePods() {
        cluster.create(Workloads.frontend(3));
        cluster.settle();
        List<String> templatePods = cluster.podsOf("frontend").stream().map(p -> p.getMetadata().getName()).sorted().toList();
        cluster.create(Workloads.barePod("pod1", Map.of("tier", "frontend")));
        cluster.create(Workloads.barePod("pod2", Map.of("tier", "frontend")));
        cluster.stepReplicaSets();
        assertEquals(Set.of("Deleted pod: pod1", "Deleted pod: pod2"), Set.copyOf(cluster.eventsWithReason("SuccessfulDelete")));
        cluster.settle();
        assertEquals(templatePods, livePods().stream().map(p -> p.getMetadata().getName()).sorted().toList());
    }

    @Test
    @DisplayName("AC-RS-03, RS-09, RS-11: bare pods that exist first are acquired and only one pod is created")
    void acquiresExistingPodsFirst() {
        cluster.create(Workloads.barePod("pod1", Map.of("tier", "frontend")));
        cluster.create(Workloads.barePod("pod2", Map.of("tier", "frontend")));
        cluster.settle();
        cluster.create(Workloads.frontend(3));
        cluster.settle();
        String uid = cluster.get(ReplicaSet.class, "frontend").getMetadata().getUid();
        assertEquals(1, cluster.eventsWithReason("SuccessfulCreate").size());
        assertEquals(3, livePods().size());
        assertTrue(Owners.isControlledBy(cluster.get(Pod.class, "pod1").getMetadata(), uid));
        assertTrue(Owners.isControlledBy(cluster.get(Pod.class, "pod2").getMetadata(), uid));
        // RS-09: the adopted pods count though they were not made from the template (a non-homogeneous set)
        assertEquals(3, cluster.get(ReplicaSet.class, "frontend").getStatus().getReplicas());
        assertEquals("gcr.io/google-samples/hello-app:2.0",
                cluster.get(Pod.class, "pod1").getSpec().getContainers().get(0).getImage());
    }

    @Test
    @DisplayName("AC-RS-05, RS-18: a new ReplicaSet with the same selector adopts orphaned pods, creates none and does not change them")
    void adoptsOrphansWithoutChangingThem() {
        cluster.create(Workloads.frontend(3));
        cluster.settle();
        // the pods of a deleted (orphaning) ReplicaSet: no owner reference left
        for (Pod p : cluster.podsOf("frontend")) {
            cluster.update(Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setOwnerReferences(null).build()).build());
        }
        ReplicaSet rs = cluster.get(ReplicaSet.class, "frontend");
        cluster.submit(new io.eventplane.client.Commands("gc").delete(Kinds.REPLICA_SET, "default", "frontend", null,
                rs.getMetadata().getUid()));
        assertNull(cluster.get(ReplicaSet.class, "frontend"));
        int created = cluster.eventsWithReason("SuccessfulCreate").size();
        ReplicaSet changed = Workloads.frontend(3);
        changed.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("gcr.io/google_samples/gb-frontend:v4");
        cluster.create(changed);
        cluster.settle();
        assertEquals(created, cluster.eventsWithReason("SuccessfulCreate").size());
        String uid = cluster.get(ReplicaSet.class, "frontend").getMetadata().getUid();
        assertEquals(3, livePods().size());
        for (Pod p : livePods()) {
            assertTrue(Owners.isControlledBy(p.getMetadata(), uid));
            assertEquals("gcr.io/google_samples/gb-frontend:v3", p.getSpec().getContainers().get(0).getImage());
        }
    }

    @Test
    @DisplayName("AC-RS-06, RS-13: a pod relabelled out of the selector is released (owner reference removed) and replaced")
    void releasesRelabelledPod() {
        cluster.create(Workloads.frontend(3));
        cluster.settle();
        Pod p = cluster.podsOf("frontend").get(0);
        Map<String, String> labels = new HashMap<>(p.getMetadata().getLabels());
        labels.put("tier", "debug");
        cluster.update(Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setLabels(labels).build()).build());
        cluster.settle();
        Pod released = cluster.get(Pod.class, p.getMetadata().getName());
        assertTrue(PodStates.isActive(released));
        assertNull(released.getMetadata().getOwnerReferences());
        assertEquals(3, cluster.podsOf("frontend").size());
        assertEquals(4, cluster.eventsWithReason("SuccessfulCreate").size());
    }

    @Test
    @DisplayName("AC-RS-07, RS-12: two ReplicaSets with the same selector and different templates ignore each other's pods")
    void overlappingReplicaSetsIgnoreEachOther() {
        cluster.create(Workloads.replicaSet("a", 3, Map.of("app", "x"), Map.of("app", "x", "v", "1"), "nginx:1"));
        cluster.settle();
        cluster.create(Workloads.replicaSet("b", 2, Map.of("app", "x"), Map.of("app", "x", "v", "2"), "nginx:2"));
        cluster.settle();
        assertEquals(3, cluster.podsOf("a").size());
        assertEquals(2, cluster.podsOf("b").size());
        assertTrue(cluster.eventsWithReason("SuccessfulDelete").isEmpty());
    }

    @Test
    @DisplayName("RS-14, RS-22: scaling down deletes unscheduled, then Pending, then not-Ready pods before Ready ones")
    void scaleDownOrder() {
        cluster.create(Workloads.frontend(3));
        cluster.settle();
        // 3 Ready pods; now scale to 6 with the kubelet stopped: 3 new pods stay unscheduled
        ReplicaSet rs = cluster.get(ReplicaSet.class, "frontend");
        cluster.update(ReplicaSet.newBuilder(rs).setSpec(ReplicaSetSpec.newBuilder(rs.getSpec()).setReplicas(6).build()).build());
        cluster.stepReplicaSets();
        Set<String> ready = cluster.podsOf("frontend").stream().filter(PodStates::isReady)
                .map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        assertEquals(3, ready.size());
        rs = cluster.get(ReplicaSet.class, "frontend");
        cluster.update(ReplicaSet.newBuilder(rs).setSpec(ReplicaSetSpec.newBuilder(rs.getSpec()).setReplicas(3).build()).build());
        cluster.stepReplicaSets();
        assertEquals(ready, livePods().stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet()));
    }

    @Test
    @DisplayName("RS-22: among running pods, lower pod-deletion-cost and more crowded nodes go first, then the younger")
    void victimRanking() {
        java.time.Instant now = java.time.Instant.parse("2026-01-01T01:00:00Z");
        Pod a = running("a", "n1", now.minusSeconds(3000), null);
        Pod b = running("b", "n1", now.minusSeconds(3000), null);
        Pod c = running("c", "n2", now.minusSeconds(3000), null);
        Pod cheap = running("cheap", "n4", now.minusSeconds(3000), "-5");
        Pod young = running("young", "n3", now.minusSeconds(2), null);
        List<Pod> order = ReplicaSetDecider.victims(List.of(a, b, c, cheap, young), 5, now);
        assertEquals(List.of("cheap", "b", "a", "young", "c"), order.stream().map(p -> p.getMetadata().getName()).toList());
    }

    private static Pod running(String name, String node, java.time.Instant readySince, String cost) {
        Pod p = Workloads.barePod(name, Map.of("tier", "frontend"));
        p.getSpec().setNodeName(node);
        p.getMetadata().setCreationTimestamp(readySince);
        if (cost != null) {
            p.getMetadata().setAnnotations(Map.of(ReplicaSetDecider.DELETION_COST, cost));
        }
        p.setStatus(io.eventplane.model.PodStatus.newBuilder().setPhase("Running").setConditions(List.of(
                io.eventplane.model.PodCondition.newBuilder().setType("Ready").setStatus("True")
                        .setLastTransitionTime(readySince).build())).build());
        return p;
    }

    @Test
    @DisplayName("RS-15: a pod that failed is replaced")
    void replacesFailedPods() {
        cluster.create(Workloads.frontend(2));
        cluster.settle();
        Pod p = cluster.podsOf("frontend").get(0);
        cluster.submit(new io.eventplane.client.Commands("kubelet").updateStatus(Pod.newBuilder(p)
                .setStatus(io.eventplane.model.PodStatus.newBuilder(p.getStatus()).setPhase("Failed").build()).build()));
        cluster.settle();
        assertEquals(2, livePods().size());
        assertEquals(3, cluster.eventsWithReason("SuccessfulCreate").size());
    }

    @Test
    @DisplayName("RS-16, X-09: a terminating pod no longer counts; its replacement is created before it is gone")
    void replacesTerminatingPodAtOnce() {
        cluster.create(Workloads.frontend(3));
        cluster.settle();
        Pod p = cluster.podsOf("frontend").get(0);
        cluster.delete(Kinds.POD, p.getMetadata().getName());
        assertNotNull(cluster.get(Pod.class, p.getMetadata().getName()).getMetadata().getDeletionTimestamp());
        cluster.stepReplicaSets();
        assertNotNull(cluster.get(Pod.class, p.getMetadata().getName()), "the old pod is still terminating");
        assertEquals(3, livePods().size());
    }

    @Test
    @DisplayName("RS-23, COM-08: a Ready pod is available only after minReadySeconds; the controller looks again then")
    void availableAfterMinReadySeconds() {
        ReplicaSet rs = Workloads.frontend(2);
        rs.getSpec().setMinReadySeconds(10);
        cluster.create(rs);
        cluster.settle();
        ReplicaSet now = cluster.get(ReplicaSet.class, "frontend");
        assertEquals(2, now.getStatus().getReadyReplicas());
        assertTrue(now.getStatus().getAvailableReplicas() < 2);
        Reconciliation r = ReplicaReconciler.replicaSets().decide(now, cluster.list(Pod.class), cluster.clock.instant(), null);
        assertNotNull(r.requeueAfter());
        assertTrue(r.requeueAfter().compareTo(Duration.ofSeconds(10)) <= 0);
        cluster.clock.advance(Duration.ofSeconds(10));
        cluster.settle();
        assertEquals(2, cluster.get(ReplicaSet.class, "frontend").getStatus().getAvailableReplicas());
    }

    @Test
    @DisplayName("RS-23: a rejected create sets ReplicaFailure=True/FailedCreate with the error; it goes once pods can be created")
    void replicaFailureCondition() {
        cluster.podQuota = 2;
        cluster.create(Workloads.frontend(3));
        cluster.settle();
        ReplicaSetCondition c = cluster.get(ReplicaSet.class, "frontend").getStatus().getConditions().get(0);
        assertEquals("ReplicaFailure", c.getType());
        assertEquals("True", c.getStatus());
        assertEquals("FailedCreate", c.getReason());
        assertTrue(c.getMessage().startsWith("Error creating: pods \"frontend-\" is forbidden: exceeded"), c.getMessage());
        assertFalse(cluster.eventsWithReason("FailedCreate").isEmpty());
        cluster.podQuota = -1;
        cluster.settle();
        assertNull(cluster.get(ReplicaSet.class, "frontend").getStatus().getConditions());
        assertEquals(3, livePods().size());
    }

    @Test
    @DisplayName("COM-06: names are deterministic, so deciding twice on the same view never makes a twin")
    void noTwinOnRedecision() {
        cluster.create(Workloads.frontend(3));
        ReplicaSet rs = cluster.get(ReplicaSet.class, "frontend");
        Reconciliation first = ReplicaReconciler.replicaSets().decide(rs, List.of(), cluster.clock.instant(), null);
        Reconciliation second = ReplicaReconciler.replicaSets().decide(rs, List.of(), cluster.clock.instant(), null);
        List<String> names1 = creates(first);
        assertEquals(names1, creates(second));
        io.eventplane.client.Commands cmds = new io.eventplane.client.Commands("rsc");
        for (Action a : first.actions()) {
            if (a instanceof Action.Create c) {
                assertTrue(cluster.submit(cmds.create(c.object())).getAccepted());
            }
        }
        for (Action a : second.actions()) {
            if (a instanceof Action.Create c) {
                assertEquals("AlreadyExists", cluster.submit(cmds.create(c.object())).getReason());
            }
        }
        assertEquals(3, cluster.list(Pod.class).size());
    }

    private static List<String> creates(Reconciliation r) {
        return r.actions().stream().filter(a -> a instanceof Action.Create)
                .map(a -> ((Pod) ((Action.Create) a).object()).getMetadata().getName()).toList();
    }
}
