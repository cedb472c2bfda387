package io.eventplane.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PriorityClass;
import io.eventplane.testkit.objects.KubeObjects;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Preemption in a simulated cluster: the writer's rules, the controllers, the scheduler's attempt, a kubelet. */
class PreemptionScenarioTest {
    private final SimulatedCluster cluster = new SimulatedCluster();
    /** Each pod's DisruptionTarget condition as last seen before it went. */
    private final Map<String, PodCondition> disruption = new HashMap<>();

    PreemptionScenarioTest() {
        cluster.invariant(c -> c.list(Pod.class).forEach(p -> {
            if (p.getStatus() != null && p.getStatus().getConditions() != null) {
                p.getStatus().getConditions().stream().filter(x -> x.getType().equals("DisruptionTarget"))
                        .forEach(x -> disruption.put(p.getMetadata().getName(), x));
            }
        }));
    }

    private void priorityClass(String name, int value) {
        assertTrue(cluster.create(PriorityClass.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).build())
                .setValue(value).build()).getAccepted());
    }

    private Pod pod(String name) {
        return cluster.get(Pod.class, "default", name);
    }

    @Test
    @DisplayName("POD-14.6 POD-17.14 a full node, a pod of PriorityClass high: one low Deployment pod gets DisruptionTarget "
            + "PreemptionByScheduler and is deleted, the preemptor is nominated and then runs there; the replacement "
            + "stays Pending and preempts nothing")
    void highPodPreemptsLowDeploymentPod() {
        priorityClass("low", 0);
        priorityClass("high", 1000);
        cluster.create(KubeObjects.node("node-1").capacity("2", "8Gi", "110").ready().build());
        cluster.create(KubeObjects.deployment("filler").replicas(2)
                .template(t -> t.requests("1", null).priorityClassName("low")).build());
        cluster.settle();
        List<Pod> before = cluster.list(Pod.class);
        assertEquals(2, before.stream().filter(p -> "Running".equals(p.getStatus().getPhase())).count());

        cluster.create(KubeObjects.pod("important").requests("1", null).priorityClassName("high").build());
        cluster.step();
        assertEquals("node-1", pod("important").getStatus().getNominatedNodeName());
        cluster.settle();

        Pod important = pod("important");
        assertEquals("node-1", important.getSpec().getNodeName());
        assertEquals("Running", important.getStatus().getPhase());
        assertEquals(1, disruption.size(), "exactly one victim: " + disruption.keySet());
        String victim = disruption.keySet().iterator().next();
        PodCondition c = disruption.get(victim);
        assertEquals("True", c.getStatus());
        assertEquals("PreemptionByScheduler", c.getReason());
        assertEquals("default-scheduler: preempting to accommodate a higher priority pod", c.getMessage());
        assertNull(pod(victim), "the victim is gone");
        assertEquals(List.of("Preempted by pod " + important.getMetadata().getUid() + " on node node-1"),
                cluster.eventsWithReason("Preempted"));
        List<Pod> filler = cluster.list(Pod.class).stream().filter(p -> p.getMetadata().getName().startsWith("filler-"))
                .toList();
        assertEquals(1, filler.stream().filter(p -> "node-1".equals(p.getSpec().getNodeName())).count());
        assertEquals(1, filler.stream().filter(p -> p.getSpec().getNodeName() == null).count(),
                "the replacement of equal priority preempts nobody");
    }

    @Test
    @DisplayName("preemptionPolicy Never: a higher pod waits Pending and evicts nothing")
    void neverWaits() {
        priorityClass("high", 1000);
        assertTrue(cluster.create(PriorityClass.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("polite").build())
                .setValue(1000).setPreemptionPolicy("Never").build()).getAccepted());
        cluster.create(KubeObjects.node("node-1").capacity("1", "8Gi", "110").ready().build());
        cluster.create(KubeObjects.pod("low").requests("1", null).build());
        cluster.settle();
        cluster.create(KubeObjects.pod("polite").requests("1", null).priorityClassName("polite").build());
        cluster.settle();

        assertNull(pod("polite").getSpec().getNodeName());
        assertEquals("Running", pod("low").getStatus().getPhase());
        assertTrue(disruption.isEmpty());
    }

    @Test
    @DisplayName("DS-08 a daemon pod of system-node-critical priority preempts a lower pod on a full node")
    void daemonPodPreempts() {
        priorityClass("system-node-critical", 2_000_001_000);
        cluster.create(KubeObjects.node("node-1").capacity("1", "8Gi", "110").ready().build());
        cluster.create(KubeObjects.pod("app").requests("1", null).build());
        cluster.settle();

        cluster.create(KubeObjects.daemonSet("agent").namespace("kube-system")
                .template(t -> t.requests("500m", null).priorityClassName("system-node-critical")).build());
        cluster.settle();

        List<Pod> daemons = cluster.podsOf("agent");
        assertEquals(1, daemons.size());
        assertEquals("node-1", daemons.get(0).getSpec().getNodeName());
        assertEquals("Running", daemons.get(0).getStatus().getPhase());
        assertNull(pod("app"));
        assertEquals("PreemptionByScheduler", disruption.get("app").getReason());
    }
}
