package io.eventplane.controllers.disruption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.PodDisruptionBudgetStatus;
import io.eventplane.model.PodStatus;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DisruptionDeciderTest {
    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static final OwnerReference RS = KubeObjects.ownerRef("ReplicaSet", "web-1", "rs-uid").controller().build();

    private static Pod pod(String name, boolean ready) {
        return Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default")
                        .setLabels(Map.of("app", "web")).setOwnerReferences(List.of(RS)).build())
                .setStatus(PodStatus.newBuilder().setPhase("Running").setConditions(List.of(PodCondition.newBuilder()
                        .setType("Ready").setStatus(ready ? "True" : "False").build())).build()).build();
    }

    /** Generation 1, selecting app=web, without a namespace. */
    private static PodDisruptionBudget pdb(Object minAvailable, Object maxUnavailable) {
        return KubeObjects.podDisruptionBudget("web").namespace(null).generation(1L).minAvailable(minAvailable)
                .maxUnavailable(maxUnavailable).build();
    }

    private static List<Pod> pods(int ready, int notReady) {
        List<Pod> out = new ArrayList<>();
        for (int i = 0; i < ready; i++) {
            out.add(pod("r" + i, true));
        }
        for (int i = 0; i < notReady; i++) {
            out.add(pod("n" + i, false));
        }
        return out;
    }

    @Test
    @DisplayName("POD-17.4 minAvailable 2 of 3 ready pods allows one disruption; the condition says SufficientPods")
    void minAvailableInteger() {
        PodDisruptionBudgetStatus s = DisruptionDecider.decide(pdb(2, null), pods(3, 0), o -> 3, NOW).status();
        assertEquals(1, s.getDisruptionsAllowed());
        assertEquals(3, s.getCurrentHealthy());
        assertEquals(2, s.getDesiredHealthy());
        assertEquals(3, s.getExpectedPods());
        assertEquals(1L, s.getObservedGeneration());
        assertEquals("SufficientPods", s.getConditions().get(0).getReason());
    }

    @Test
    @DisplayName("POD-17.8 maxUnavailable 1 counts the controller's scale: 4 replicas, 3 ready leaves none to disrupt")
    void maxUnavailableUsesScale() {
        PodDisruptionBudgetStatus s = DisruptionDecider.decide(pdb(null, 1), pods(3, 0), o -> 4, NOW).status();
        assertEquals(4, s.getExpectedPods());
        assertEquals(3, s.getDesiredHealthy());
        assertEquals(0, s.getDisruptionsAllowed());
        assertEquals("InsufficientPods", s.getConditions().get(0).getReason());
        assertEquals("False", s.getConditions().get(0).getStatus());
    }

    @Test
    @DisplayName("POD-17.9 POD-17.13 minAvailable 50% of a scale of 5 rounds up to 3; not-ready pods are not healthy")
    void percentRoundsUp() {
        PodDisruptionBudgetStatus s = DisruptionDecider.decide(pdb("50%", null), pods(4, 1), o -> 5, NOW).status();
        assertEquals(3, s.getDesiredHealthy());
        assertEquals(4, s.getCurrentHealthy());
        assertEquals(1, s.getDisruptionsAllowed());
    }

    @Test
    @DisplayName("an eviction the API granted counts against the budget until the pod goes or two minutes pass")
    void disruptedPodsExpire() {
        PodDisruptionBudget budget = pdb(2, null);
        budget.setStatus(PodDisruptionBudgetStatus.newBuilder().setDisruptedPods(Map.of("r0", NOW.minusSeconds(30)))
                .setDisruptionsAllowed(0).build());
        DisruptionDecider.Result held = DisruptionDecider.decide(budget, pods(3, 0), o -> 3, NOW);
        assertEquals(2, held.status().getCurrentHealthy());
        assertEquals(0, held.status().getDisruptionsAllowed());
        assertEquals(NOW.plusSeconds(90), held.recheckAt());
        DisruptionDecider.Result expired = DisruptionDecider.decide(budget, pods(3, 0), o -> 3, NOW.plusSeconds(91));
        assertNull(expired.status().getDisruptedPods());
        assertEquals(1, expired.status().getDisruptionsAllowed());
    }
}
