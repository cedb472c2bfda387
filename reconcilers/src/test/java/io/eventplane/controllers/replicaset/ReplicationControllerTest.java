package io.eventplane.controllers.replicaset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.Workloads;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.LabelSelectorRequirement;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.ReplicationControllerSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ReplicationControllerTest {
    private final SimulatedCluster cluster = new SimulatedCluster();

    private List<Pod> livePods() {
        return cluster.list(Pod.class).stream().filter(PodStates::isActive).toList();
    }

    private void scale(String name, int replicas) {
        ReplicationController rc = cluster.get(ReplicationController.class, name);
        assertTrue(cluster.update(ReplicationController.newBuilder(rc)
                .setSpec(ReplicationControllerSpec.newBuilder(rc.getSpec()).setReplicas(replicas).build()).build()).getAccepted());
    }

    @Test
    @DisplayName("AC-RC-01, AC-RC-02, RC-01, RC-09: nginx (3) runs 3 pods named nginx-<suffix>, owned by the RC (v1), with 3 creation events")
    void runsThreePods() {
        assertTrue(cluster.create(Workloads.nginxRc("nginx", 3, Map.of("app", "nginx"), Map.of("app", "nginx"))).getAccepted());
        cluster.settle();
        ReplicationController rc = cluster.get(ReplicationController.class, "nginx");
        List<Pod> pods = cluster.list(Pod.class).stream()
                .filter(p -> LabelSelectors.matches(Map.of("app", "nginx"), p.getMetadata().getLabels())).toList();
        assertEquals(3, pods.size());
        for (Pod p : pods) {
            assertTrue(p.getMetadata().getName().matches("nginx-[a-z0-9]{5}"));
            var ref = Owners.controllerOf(p.getMetadata()).orElseThrow();
            assertEquals("v1", ref.getApiVersion());
            assertEquals("ReplicationController", ref.getKind());
            assertEquals(rc.getMetadata().getUid(), ref.getUid());
            assertEquals(Boolean.TRUE, ref.getBlockOwnerDeletion());
        }
        assertEquals(3, cluster.eventsWithReason("SuccessfulCreate").size());
        assertEquals(3, rc.getStatus().getReplicas());
        assertEquals(3, rc.getStatus().getReadyReplicas());
        assertEquals(3, rc.getStatus().getAvailableReplicas());
    }

    @Test
    @DisplayName("AC-RC-03, RC-03, RC-04: an RC without selector and labels manages pods by its template labels")
    void selectorDefaultsToTemplateLabels() {
        cluster.create(Workloads.nginxRc("nginx", 2, Map.of("app", "nginx"), null));
        cluster.settle();
        ReplicationController rc = cluster.get(ReplicationController.class, "nginx");
        assertEquals(Map.of("app", "nginx"), rc.getSpec().getSelector());
        assertEquals(Map.of("app", "nginx"), rc.getMetadata().getLabels());
        assertEquals(2, cluster.podsOf("nginx").size());
    }

    @Test
    @DisplayName("AC-RC-04: an RC whose selector does not match its template labels is rejected")
    void mismatchedSelectorRejected() {
        var outcome = cluster.create(Workloads.nginxRc("nginx", 2, Map.of("app", "nginx"), Map.of("app", "other")));
        assertFalse(outcome.getAccepted());
        assertEquals(422, outcome.getCode());
    }

    @Test
    @DisplayName("RC-05, RC-06: a bare pod matching the selector is adopted and one surplus pod is deleted")
    void adoptsBarePodAndDeletesSurplus() {
        cluster.create(Workloads.nginxRc("nginx", 3, Map.of("app", "nginx"), null));
        cluster.settle();
        cluster.create(Workloads.barePod("extra", Map.of("app", "nginx")));
        cluster.settle();
        assertEquals(3, livePods().size());
        assertEquals(List.of("Deleted pod: extra"), cluster.eventsWithReason("SuccessfulDelete"));
    }

    @Test
    @DisplayName("AC-RC-06, RC-12, RC-13: after an orphaning delete, a new RC with the same selector adopts the pods and creates none")
    void newRcAdoptsOrphans() {
        cluster.create(Workloads.nginxRc("nginx", 3, Map.of("app", "nginx"), null));
        cluster.settle();
        // What the garbage collector does for an orphaning delete (there is none in this simulated cluster): release
        // the pods; then the RC goes (a v1 ReplicationController's default policy is Orphan, so ask for Background).
        for (Pod p : cluster.podsOf("nginx")) {
            cluster.update(Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setOwnerReferences(null).build()).build());
        }
        cluster.delete(Kinds.REPLICATION_CONTROLLER, "nginx", "Background");
        assertNull(cluster.get(ReplicationController.class, "nginx"));
        ReplicationController next = Workloads.nginxRc("nginx-v2", 3, Map.of("app", "nginx"), null);
        next.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("nginx:1.16.1");
        cluster.create(next);
        cluster.settle();
        assertEquals(3, cluster.eventsWithReason("SuccessfulCreate").size(), "only the first RC's creates");
        assertEquals(3, cluster.podsOf("nginx-v2").size());
        assertTrue(cluster.podsOf("nginx-v2").stream().allMatch(p -> p.getSpec().getContainers().get(0).getImage().equals("nginx")));
    }

    @Test
    @DisplayName("AC-RC-07, RC-14: a pod relabelled out of the selector is replaced")
    void relabelledPodIsReplaced() {
        cluster.create(Workloads.nginxRc("nginx", 2, Map.of("app", "nginx"), null));
        cluster.settle();
        Pod p = cluster.podsOf("nginx").get(0);
        cluster.update(Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata())
                .setLabels(new HashMap<>(Map.of("app", "debug"))).build()).build());
        cluster.settle();
        assertEquals(2, cluster.podsOf("nginx").size());
        assertEquals(3, livePods().size());
    }

    @Test
    @DisplayName("RC-07: readiness does not matter to the count; only terminated pods are excluded")
    void onlyTerminatedPodsExcluded() {
        cluster.autoReady = false;
        cluster.create(Workloads.nginxRc("nginx", 2, Map.of("app", "nginx"), null));
        cluster.settle();
        assertEquals(2, livePods().size());
        assertEquals(0, cluster.get(ReplicationController.class, "nginx").getStatus().getReadyReplicas());
        Pod p = cluster.podsOf("nginx").get(0);
        cluster.submit(new io.eventplane.client.Commands("kubelet").updateStatus(Pod.newBuilder(p)
                .setStatus(io.eventplane.model.PodStatus.newBuilder(p.getStatus()).setPhase("Succeeded").build()).build()));
        cluster.settle();
        assertEquals(2, livePods().size());
    }

    @Test
    @DisplayName("AC-RC-08, RC-17: canary: RC-stable (9) and RC-canary (1) each manage their own track; a service selector sees 10")
    void canaryTracks() {
        Map<String, String> stable = Map.of("tier", "frontend", "environment", "prod", "track", "stable");
        Map<String, String> canary = Map.of("tier", "frontend", "environment", "prod", "track", "canary");
        cluster.create(Workloads.nginxRc("frontend-stable", 9, stable, null));
        cluster.create(Workloads.nginxRc("frontend-canary", 1, canary, null));
        cluster.settle();
        assertEquals(9, cluster.podsOf("frontend-stable").size());
        assertEquals(1, cluster.podsOf("frontend-canary").size());
        LabelSelector service = LabelSelector.newBuilder().setMatchExpressions(List.of(
                LabelSelectorRequirement.newBuilder().setKey("tier").setOperator("In").setValues(List.of("frontend")).build(),
                LabelSelectorRequirement.newBuilder().setKey("environment").setOperator("In").setValues(List.of("prod")).build()))
                .build();
        assertEquals(10, livePods().stream().filter(p -> LabelSelectors.matches(service, p.getMetadata().getLabels())).count());
    }

    @Test
    @DisplayName("AC-RC-09, RC-16: a rolling update by hand (new RC at 1, then +1/-1) keeps about N pods; the old RC reaches 0 and is deleted")
    void rollingUpdateByHand() {
        Map<String, String> v1 = Map.of("app", "nginx", "deployment", "v1");
        Map<String, String> v2 = Map.of("app", "nginx", "deployment", "v2");
        cluster.create(Workloads.nginxRc("nginx-v1", 3, v1, null));
        cluster.settle();
        cluster.create(Workloads.nginxRc("nginx-v2", 1, v2, null));
        cluster.settle();
        for (int n = 1; n <= 3; n++) {
            scale("nginx-v1", 3 - n);
            if (n > 1) {
                scale("nginx-v2", n);
            }
            cluster.settle();
            int total = livePods().size();
            assertTrue(total >= 3 && total <= 4, "total " + total);
        }
        assertEquals(0, cluster.podsOf("nginx-v1").stream().filter(PodStates::isActive).count());
        assertTrue(cluster.delete(Kinds.REPLICATION_CONTROLLER, "nginx-v1").getAccepted());
        cluster.settle();
        assertEquals(3, livePods().size());
        assertEquals(3, cluster.podsOf("nginx-v2").size());
    }
}
