package io.eventplane.nodelifecycle;

import io.eventplane.core.meta.Taints;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Node health, taints, rate limits and NoExecute evictions, decided on a virtual clock (no Kafka). */
class NodeLifecycleDeciderTest {
    static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    final NodeLifecycleDecider decider = new NodeLifecycleDecider(NodeLifecycleConfig.defaults());

    static Node node(String name, String ready, Taint... taints) {
        return KubeObjects.node(name).uid("uid-" + name).resourceVersion("3").taints(taints)
                .condition(NodeCondition.newBuilder().setType("Ready").setStatus(ready).setReason("KubeletReady").build())
                .condition("MemoryPressure", "False").build();
    }

    static Taint noExecute(String key, Instant added) {
        return Taint.newBuilder().setKey(key).setEffect("NoExecute").setTimeAdded(added).build();
    }

    /** A running pod on {@code node}; its tolerations are set even when there are none (an empty list). */
    static Pod pod(String name, String node, Toleration... tolerations) {
        return KubeObjects.pod(name).uid("uid-" + name).onNode(node).spec(s -> s.setTolerations(List.of(tolerations)))
                .running().build();
    }

    static Toleration tolerate(String key, Long seconds) {
        return KubeObjects.toleration(key, "NoExecute", seconds);
    }

    static Toleration[] defaults() {
        return new Toleration[] {tolerate(Taints.NOT_READY, 300L), tolerate(Taints.UNREACHABLE, 300L)};
    }

    @Test
    @DisplayName("POD-13.5 a node whose lease is not renewed for 40 s becomes Ready=Unknown (NodeStatusUnknown); renewed, it does not")
    void leaseExpiry() {
        List<Node> nodes = List.of(node("n1", "True"), node("n2", "True"));
        NodeLifecycleDecider.Decision first = decider.decide(T0, nodes, Map.of("n1", T0, "n2", T0), List.of(),
                NodeLifecycleDecider.State.empty());
        assertEquals(List.of(), first.statusUpdates());
        NodeLifecycleDecider.Decision at40 = decider.decide(T0.plusSeconds(40), nodes,
                Map.of("n1", T0, "n2", T0.plusSeconds(30)), List.of(), first.state());
        assertEquals(List.of(), at40.statusUpdates(), "not later than the grace period");
        NodeLifecycleDecider.Decision at41 = decider.decide(T0.plusSeconds(41), nodes,
                Map.of("n1", T0, "n2", T0.plusSeconds(30)), List.of(), at40.state());
        assertEquals(1, at41.statusUpdates().size());
        Node n1 = at41.statusUpdates().get(0);
        assertEquals("n1", n1.getMetadata().getName());
        for (NodeCondition c : n1.getStatus().getConditions()) {
            assertEquals("Unknown", c.getStatus(), c.getType());
            assertEquals("NodeStatusUnknown", c.getReason());
            assertEquals("Kubelet stopped posting node status.", c.getMessage());
            assertEquals(T0.plusSeconds(41), c.getLastTransitionTime());
        }
    }

    @Test
    @DisplayName("POD-13.5 an Unknown node gets the unreachable NoSchedule and NoExecute taints (timeAdded now); a Ready node loses them")
    void taints() {
        List<Node> nodes = List.of(node("n1", "Unknown"), node("n2", "True"));
        NodeLifecycleDecider.Decision d = decider.decide(T0, nodes, Map.of(), List.of(), NodeLifecycleDecider.State.empty());
        assertEquals(1, d.taintUpdates().size());
        List<Taint> taints = d.taintUpdates().get(0).getSpec().getTaints();
        assertTrue(taints.contains(Taint.newBuilder().setKey(Taints.UNREACHABLE).setEffect("NoSchedule").build()), taints.toString());
        assertTrue(taints.contains(noExecute(Taints.UNREACHABLE, T0)), taints.toString());
        Node recovered = node("n1", "True", taints.toArray(new Taint[0]));
        NodeLifecycleDecider.Decision back = decider.decide(T0.plusSeconds(5), List.of(recovered, node("n2", "True")), Map.of(),
                List.of(), d.state());
        assertEquals(null, back.taintUpdates().get(0).getSpec().getTaints(), "untainted once Ready again");
        NodeLifecycleDecider.Decision notReady = decider.decide(T0, List.of(node("n1", "False"), node("n2", "True")), Map.of(),
                List.of(), NodeLifecycleDecider.State.empty());
        assertTrue(Taints.has(notReady.taintUpdates().get(0).getSpec().getTaints(), Taints.NOT_READY, "NoExecute"));
    }

    static Node pressured(String name, String ready, String memory, String disk, String pid, Taint... taints) {
        return Node.newBuilder(node(name, ready, taints)).setStatus(NodeStatus.newBuilder().setConditions(List.of(
                NodeCondition.newBuilder().setType("MemoryPressure").setStatus(memory).build(),
                NodeCondition.newBuilder().setType("DiskPressure").setStatus(disk).build(),
                NodeCondition.newBuilder().setType("PIDPressure").setStatus(pid).build(),
                NodeCondition.newBuilder().setType("Ready").setStatus(ready).build())).build()).build();
    }

    @Test
    @DisplayName("a node reporting memory, disk or PID pressure gets the matching NoSchedule taint, removed when the pressure goes")
    void pressureTaints() {
        Taint other = Taint.newBuilder().setKey("dedicated").setValue("db").setEffect("NoSchedule").build();
        NodeLifecycleDecider.Decision d = decider.decide(T0, List.of(pressured("n1", "True", "True", "False", "True", other),
                pressured("n2", "True", "False", "True", "False")), Map.of(), List.of(), NodeLifecycleDecider.State.empty());
        assertEquals(2, d.taintUpdates().size());
        Taint memory = Taint.newBuilder().setKey(Taints.MEMORY_PRESSURE).setEffect("NoSchedule").build();
        Taint pid = Taint.newBuilder().setKey(Taints.PID_PRESSURE).setEffect("NoSchedule").build();
        Taint disk = Taint.newBuilder().setKey(Taints.DISK_PRESSURE).setEffect("NoSchedule").build();
        assertEquals(java.util.Set.of(other, memory, pid), new java.util.HashSet<>(d.taintUpdates().get(0).getSpec().getTaints()));
        assertEquals(List.of(disk), d.taintUpdates().get(1).getSpec().getTaints());

        NodeLifecycleDecider.Decision steady = decider.decide(T0.plusSeconds(1),
                List.of(pressured("n1", "True", "True", "False", "True", other, memory, pid)), Map.of(), List.of(), d.state());
        assertEquals(List.of(), steady.taintUpdates(), "nothing to change while the pressure lasts");

        NodeLifecycleDecider.Decision relieved = decider.decide(T0.plusSeconds(2),
                List.of(pressured("n1", "True", "False", "False", "False", other, memory, pid)), Map.of(), List.of(), d.state());
        assertEquals(List.of(other), relieved.taintUpdates().get(0).getSpec().getTaints());

        NodeLifecycleDecider.Decision unknown = decider.decide(T0.plusSeconds(3),
                List.of(pressured("n1", "Unknown", "Unknown", "Unknown", "Unknown", memory)), Map.of(), List.of(), d.state());
        assertTrue(!Taints.has(unknown.taintUpdates().get(0).getSpec().getTaints(), Taints.MEMORY_PRESSURE, "NoSchedule"),
                "an Unknown pressure is no pressure");
    }

    @Test
    @DisplayName("POD-13.5 POD-17.14 pods with the default 300 s tolerations are evicted 300 s after the NoExecute taint, with DisruptionTarget (DeletionByTaintManager); intolerant pods at once")
    void evictions() {
        Node tainted = node("n1", "Unknown", noExecute(Taints.UNREACHABLE, T0),
                Taint.newBuilder().setKey(Taints.UNREACHABLE).setEffect("NoSchedule").build());
        List<Node> nodes = List.of(tainted, node("n2", "True"));
        List<Pod> pods = List.of(pod("tolerant", "n1", defaults()), pod("bare", "n1"), pod("forever", "n1",
                tolerate(Taints.UNREACHABLE, null)), pod("elsewhere", "n2"));
        NodeLifecycleDecider.Decision at299 = decider.decide(T0.plusSeconds(299), nodes, Map.of(), pods, NodeLifecycleDecider.State.empty());
        assertEquals(List.of("bare"), names(at299.evictions()));
        assertEquals(Optional.of(T0.plusSeconds(300)), at299.nextEviction());
        NodeLifecycleDecider.Decision at300 = decider.decide(T0.plusSeconds(300), nodes, Map.of(), pods, at299.state());
        assertEquals(List.of("tolerant", "bare"), names(at300.evictions()));
        PodCondition c = at300.evictions().get(0).withCondition().getStatus().getConditions().stream()
                .filter(x -> "DisruptionTarget".equals(x.getType())).findFirst().orElseThrow();
        assertEquals("True", c.getStatus());
        assertEquals("DeletionByTaintManager", c.getReason());
    }

    @Test
    @DisplayName("evictions are rate limited as Kubernetes does: one NoExecute taint per 10 s in a healthy zone, none when every node is down")
    void rateLimit() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            nodes.add(node("n" + i, i <= 2 ? "Unknown" : "True"));
        }
        NodeLifecycleDecider.Decision d = decider.decide(T0, nodes, Map.of(), List.of(), NodeLifecycleDecider.State.empty());
        assertEquals(1, countNoExecute(d), "one token: one node tainted now");
        NodeLifecycleDecider.Decision d5 = decider.decide(T0.plusSeconds(5), nodes, Map.of(), List.of(), d.state());
        assertEquals(0, countNoExecute(d5));
        NodeLifecycleDecider.Decision d10 = decider.decide(T0.plusSeconds(10), nodes, Map.of(), List.of(), d5.state());
        assertEquals(1, countNoExecute(d10), "0.1 nodes per second");

        List<Node> down = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            down.add(node("n" + i, "Unknown"));
        }
        NodeLifecycleDecider.Decision all = decider.decide(T0, down, Map.of(), List.of(), NodeLifecycleDecider.State.empty());
        assertEquals(0, countNoExecute(all), "full disruption everywhere: no NoExecute taints");

        List<Node> partial = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            partial.add(node("n" + i, i <= 6 ? "Unknown" : "True"));
        }
        NodeLifecycleDecider.Decision p = decider.decide(T0, partial, Map.of(), List.of(), NodeLifecycleDecider.State.empty());
        assertEquals(1, countNoExecute(p), "the burst token");
        NodeLifecycleDecider.Decision p100 = decider.decide(T0.plusSeconds(100), partial, Map.of(), List.of(), p.state());
        assertEquals(0, countNoExecute(p100), "a partially disrupted small cluster stops adding NoExecute taints");
    }

    private static long countNoExecute(NodeLifecycleDecider.Decision d) {
        return d.taintUpdates().stream().filter(n -> Taints.has(n.getSpec().getTaints(), Taints.UNREACHABLE, "NoExecute")).count();
    }

    private static List<String> names(List<NodeLifecycleDecider.Eviction> evictions) {
        return evictions.stream().map(e -> e.pod().getMetadata().getName()).toList();
    }
}
