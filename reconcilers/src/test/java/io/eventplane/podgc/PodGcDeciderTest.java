package io.eventplane.podgc;

import io.eventplane.core.meta.Taints;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.Taint;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** PodGC's decisions (pods.md 24.10), no Kafka. */
class PodGcDeciderTest {
    static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    final PodGcDecider decider = new PodGcDecider();

    static Pod pod(String name, String node, String phase, Instant created, boolean terminating) {
        return KubeObjects.pod(name).uid("uid-" + name).createdAt(created).deletedAt(terminating ? T0 : null)
                .onNode(node).phase(phase).build();
    }

    static Node node(String name, String ready, Taint... taints) {
        return KubeObjects.node(name).taints(taints).ready(ready).build();
    }

    static List<String> names(List<PodGcDecider.Removal> r) {
        return r.stream().map(x -> x.pod().getMetadata().getName()).toList();
    }

    @Test
    @DisplayName("W-G1 GC-19 POD-13.1 POD-13.2 threshold 5 and 7 terminated pods: the 2 oldest are deleted, running pods are not counted")
    void threshold() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 7; i >= 1; i--) {
            pods.add(pod("done-" + i, "n1", i % 2 == 0 ? "Succeeded" : "Failed", T0.plusSeconds(i), false));
        }
        pods.add(pod("running", "n1", "Running", T0, false));
        List<PodGcDecider.Removal> r = decider.decide(T0.plusSeconds(60), pods, List.of(node("n1", "True")), 5);
        assertEquals(List.of("done-1", "done-2"), names(r));
        assertNull(r.get(0).failFirst(), "already terminal: deleted without a status write");
        assertEquals(List.of(), decider.decide(T0, pods, List.of(node("n1", "True")), 0), "threshold 0 turns it off");
    }

    @Test
    @DisplayName("W-G2 POD-13.3 POD-13.4 a running pod bound to a deleted node is marked Failed with DisruptionTarget (DeletionByPodGC), then deleted")
    void orphan() {
        List<PodGcDecider.Removal> r = decider.decide(T0, List.of(pod("lost", "gone-node", "Running", T0, false),
                pod("terminating-lost", "gone-node", "Running", T0, true), pod("fine", "n1", "Running", T0, false)),
                List.of(node("n1", "True")), 12_500);
        assertEquals(List.of("lost", "terminating-lost"), names(r));
        Pod failed = r.get(0).failFirst();
        assertEquals("Failed", failed.getStatus().getPhase());
        PodCondition c = failed.getStatus().getConditions().get(0);
        assertEquals("DisruptionTarget", c.getType());
        assertEquals("DeletionByPodGC", c.getReason());
        assertEquals("PodGC: node no longer exists", c.getMessage());
    }

    @Test
    @DisplayName("POD-3.11 POD-17.15 the pods of a lost node: Pending and Running ones are marked Failed before they are "
            + "deleted; a Succeeded one keeps its phase and is deleted as it is")
    void lostNodeFailsNonTerminalPods() {
        List<PodGcDecider.Removal> r = decider.decide(T0, List.of(pod("pending", "lost-node", "Pending", T0, false),
                pod("running", "lost-node", "Running", T0, false), pod("done", "lost-node", "Succeeded", T0, false)),
                List.of(node("n1", "True")), 12_500);
        assertEquals(List.of("pending", "running", "done"), names(r));
        for (PodGcDecider.Removal removal : r.subList(0, 2)) {
            assertEquals("Failed", removal.failFirst().getStatus().getPhase(), removal.why());
            assertEquals("DisruptionTarget", removal.failFirst().getStatus().getConditions().get(0).getType());
        }
        assertEquals(null, r.get(2).failFirst(), "a terminal pod is not marked again");
    }

    @Test
    @DisplayName("W-G3 POD-13.3 an unscheduled pod with deletionTimestamp is deleted by PodGC")
    void unscheduledTerminating() {
        List<PodGcDecider.Removal> r = decider.decide(T0, List.of(pod("u", null, "Pending", T0, true),
                pod("pending", null, "Pending", T0, false)), List.of(), 12_500);
        assertEquals(List.of("u"), names(r));
        assertEquals("Failed", r.get(0).failFirst().getStatus().getPhase());
    }

    @Test
    @DisplayName("W-G4 POD-13.3 a terminating pod on a NotReady node tainted out-of-service is deleted (marked Failed first)")
    void outOfService() {
        Taint oos = Taint.newBuilder().setKey("node.kubernetes.io/out-of-service").setValue("nodeshutdown").setEffect("NoExecute").build();
        List<Pod> pods = List.of(pod("t", "n1", "Running", T0, true), pod("alive", "n1", "Running", T0, false),
                pod("t2", "n2", "Running", T0, true));
        List<PodGcDecider.Removal> r = decider.decide(T0, pods, List.of(node("n1", "False", oos), node("n2", "True", oos)), 12_500);
        assertEquals(List.of("t"), names(r));
        assertEquals("Failed", r.get(0).failFirst().getStatus().getPhase());
    }
}
