package io.eventplane.scheduler;

import static io.eventplane.scheduler.TestObjects.container;
import static io.eventplane.scheduler.TestObjects.cordoned;
import static io.eventplane.scheduler.TestObjects.node;
import static io.eventplane.scheduler.TestObjects.pod;
import static io.eventplane.scheduler.TestObjects.states;
import static io.eventplane.scheduler.TestObjects.withSpec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Container;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSchedulingGate;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.model.Toleration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SchedulerDeciderTest {
    private final SchedulerDecider decider = new SchedulerDecider();

    private Placement.Bind bound(Placement p) {
        return assertInstanceOf(Placement.Bind.class, p);
    }

    private String unschedulable(Placement p) {
        Placement.Unschedulable u = assertInstanceOf(Placement.Unschedulable.class, p);
        assertEquals("Unschedulable", u.reason());
        return u.message();
    }

    @Test
    @DisplayName("a pod that fits goes to the node with the most room left")
    void fitsOnLeastAllocatedNode() {
        ClusterSnapshot cluster = TestObjects.snapshot(List.of(node("node-1", "4", "16Gi", "110"),
                node("node-2", "4", "16Gi", "110")));
        cluster.add("node-1", PodInfo.of(pod("busy", "2")));

        assertEquals("node-2", bound(decider.decide(pod("web", "100m"), cluster)).node());
    }

    @Test
    @DisplayName("a pod too big for every node is unschedulable: \"0/3 nodes are available: 3 Insufficient cpu.\"")
    void tooBigForEveryNode() {
        Placement p = decider.decide(pod("huge", "64"), states(node("node-1", "4", "16Gi", "110"),
                node("node-2", "4", "16Gi", "110"), node("node-3", "4", "16Gi", "110")));

        assertEquals("0/3 nodes are available: 3 Insufficient cpu.", unschedulable(p));
    }

    @Test
    @DisplayName("what the bound pods already request is not available to the next pod")
    void boundPodsTakeTheirRequests() {
        ClusterSnapshot cluster = TestObjects.snapshot(List.of(node("node-1", "1", "16Gi", "110")));
        cluster.add("node-1", PodInfo.of(pod("a", "600m")));

        assertEquals("0/1 nodes are available: 1 Insufficient cpu.",
                unschedulable(decider.decide(pod("b", "500m"), cluster)));
        assertEquals("node-1", bound(decider.decide(pod("c", "400m"), cluster)).node());
    }

    @Test
    @DisplayName("every resource a node lacks is a reason of its own; the counted reasons are sorted as text")
    void reasonsAreCountedAndSorted() {
        Pod pod = pod("p", container("c", "3", "12Gi"));
        Placement bothShort = decider.decide(pod, states(node("node-1", "2", "8Gi", "110")));
        Placement mixed = decider.decide(pod, states(node("node-1", "2", "16Gi", "110"),
                node("node-2", "2", "16Gi", "110"), node("node-3", "4", "8Gi", "110")));

        assertEquals("0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.", unschedulable(bothShort));
        assertEquals("0/3 nodes are available: 1 Insufficient memory, 2 Insufficient cpu.", unschedulable(mixed));
    }

    @Test
    @DisplayName("a node with no pod slot left says \"Too many pods\"")
    void tooManyPods() {
        ClusterSnapshot cluster = TestObjects.snapshot(List.of(node("node-1", "4", "16Gi", "1")));
        cluster.add("node-1", PodInfo.of(pod("a", "100m")));

        assertEquals("0/1 nodes are available: 1 Too many pods.",
                unschedulable(decider.decide(pod("b", "100m"), cluster)));
    }

    @Test
    @DisplayName("spec.nodeSelector keeps a pod to nodes whose labels match")
    void nodeSelector() {
        Node a = node("node-a", "4", "16Gi", "110", "True", Map.of("topology.kubernetes.io/zone", "zone-a"));
        Node b = node("node-b", "4", "16Gi", "110", "True", Map.of("topology.kubernetes.io/zone", "zone-b"));
        Pod web = pod("web", "100m");
        Pod inB = withSpec(web, PodSpec.newBuilder(web.getSpec()).setNodeSelector(Map.of("topology.kubernetes.io/zone", "zone-b")).build());
        Pod nowhere = withSpec(web, PodSpec.newBuilder(web.getSpec()).setNodeSelector(Map.of("disk", "ssd")).build());

        assertEquals("node-b", bound(decider.decide(inB, states(a, b))).node());
        assertEquals("0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.",
                unschedulable(decider.decide(nowhere, states(a, b))));
    }

    @Test
    @DisplayName("different filters' reasons are reported together: \"1 node(s) didn't match ..., 2 Insufficient cpu.\"")
    void mixedReasons() {
        Node small1 = node("node-1", "1", "16Gi", "110", "True", Map.of("disk", "ssd"));
        Node small2 = node("node-2", "1", "16Gi", "110", "True", Map.of("disk", "ssd"));
        Node big = node("node-3", "8", "16Gi", "110", "True", Map.of("disk", "hdd"));
        Pod p = pod("p", "2");
        p = withSpec(p, PodSpec.newBuilder(p.getSpec()).setNodeSelector(Map.of("disk", "ssd")).build());

        assertEquals("0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu.",
                unschedulable(decider.decide(p, states(small1, small2, big))));
    }

    @Test
    @DisplayName("a node that is not Ready is tainted not-ready, which ordinary pods do not tolerate")
    void notReadyNode() {
        Node down = node("node-1", "4", "16Gi", "110", "False", Map.of());

        assertEquals("0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }.",
                unschedulable(decider.decide(pod("p", "100m"), states(down))));
    }

    @Test
    @DisplayName("a cordoned node takes no pods, unless they tolerate node.kubernetes.io/unschedulable")
    void cordonedNode() {
        Node cordoned = cordoned(node("node-1", "4", "16Gi", "110"));
        Pod p = pod("p", "100m");
        Pod tolerant = withSpec(p, PodSpec.newBuilder(p.getSpec()).setTolerations(List.of(Toleration.newBuilder()
                .setKey("node.kubernetes.io/unschedulable").setOperator("Exists").setEffect("NoSchedule").build())).build());

        assertEquals("0/1 nodes are available: 1 node(s) were unschedulable.",
                unschedulable(decider.decide(p, states(cordoned))));
        assertEquals("node-1", bound(decider.decide(tolerant, states(cordoned))).node());
    }

    @Test
    @DisplayName("no node at all: \"no nodes available to schedule pods\"")
    void noNodes() {
        assertEquals("no nodes available to schedule pods", unschedulable(decider.decide(pod("p", "1"), TestObjects.snapshot(List.of()))));
    }

    @Test
    @DisplayName("POD-6.12 a pod with scheduling gates is not scheduled: PodScheduled=False, SchedulingGated")
    void schedulingGates() {
        Pod p = pod("p", "100m");
        p = withSpec(p, PodSpec.newBuilder(p.getSpec()).setSchedulingGates(List.of(PodSchedulingGate.newBuilder()
                .setName("example.com/wait").build())).build());

        Placement.Unschedulable u = assertInstanceOf(Placement.Unschedulable.class,
                decider.decide(p, states(node("node-1", "4", "16Gi", "110"))));
        assertEquals("SchedulingGated", u.reason());
    }

    @Test
    @DisplayName("equal nodes tie; the seeded hash breaks the tie, so one state and seed always give the same node")
    void deterministicTieBreak() {
        Node[] nodes = {node("node-b", "4", "16Gi", "110"), node("node-c", "4", "16Gi", "110"),
                node("node-a", "4", "16Gi", "110")};
        SchedulerDecider seeded = new SchedulerDecider(new SchedulerDecider.Profile(42, 0, null));
        String first = bound(seeded.decide(pod("p", "100m"), states(nodes))).node();
        for (int i = 0; i < 3; i++) {
            assertEquals(first, bound(seeded.decide(pod("p", "100m"), states(nodes))).node());
        }
        Set<String> chosen = new TreeSet<>();
        for (int i = 0; i < 30; i++) {
            chosen.add(bound(seeded.decide(pod("p" + i, "100m"), states(nodes))).node());
        }
        assertEquals(Set.of("node-a", "node-b", "node-c"), chosen, "different pods break ties differently");
    }

    @Test
    @DisplayName("least-allocated spreads pods evenly (within two pods) over equal nodes, also pods that request nothing")
    void leastAllocatedSpreads() {
        ClusterSnapshot cluster = TestObjects.snapshot(List.of(node("node-1", "4", "16Gi", "110"),
                node("node-2", "4", "16Gi", "110"), node("node-3", "4", "16Gi", "110")));
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < 30; i++) {
            Pod p = i % 2 == 0 ? pod("p" + i, "100m") : pod("p" + i, container("c", null, null));
            PodInfo info = PodInfo.of(p);
            String node = bound(decider.decide(info, cluster)).node();
            cluster.add(node, info);
            counts.merge(node, 1, Integer::sum);
        }

        // Integer scores (as Kubernetes computes them) can tie nodes a pod or two apart; the spread stays that close.
        assertEquals(3, counts.size());
        int max = counts.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        int min = counts.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
        assertTrue(max - min <= 2, counts::toString);
    }

    static Stream<Arguments> effectiveRequests() {
        return Stream.of(
                Arguments.of("POD-10.2 init containers 2 and 1 cpu, apps 0.5 and 0.5: the largest init wins",
                        List.of(container("i1", "2", null), container("i2", "1", null)),
                        List.of(container("a1", "500m", null), container("a2", "500m", null)), 2000L),
                Arguments.of("POD-10.2 init containers 2 and 1 cpu, apps 1.5 and 1.5: the apps' sum wins",
                        List.of(container("i1", "2", null), container("i2", "1", null)),
                        List.of(container("a1", "1500m", null), container("a2", "1500m", null)), 3000L),
                Arguments.of("POD-10.6 a sidecar runs beside the apps and beside every later init container",
                        List.of(sidecar("s", "1"), container("i", "2", null)),
                        List.of(container("a", "500m", null)), 3000L),
                Arguments.of("no init containers: the sum of the apps",
                        List.of(), List.of(container("a1", "250m", null), container("a2", "250m", null)), 500L));
    }

    private static Container sidecar(String name, String cpu) {
        return Container.newBuilder(container(name, cpu, null)).setRestartPolicy("Always").build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("effectiveRequests")
    void effectiveCpuRequest(String name, List<Container> init, List<Container> apps, long milliCpu) {
        PodSpec spec = PodSpec.newBuilder().setInitContainers(init).setContainers(apps).build();

        assertEquals(milliCpu, PodDemand.of(spec).requests().get("cpu"));
    }

    @Test
    @DisplayName("POD-10.3 init containers reserve what they request: 2 cpu do not fit on a node with 1.5 free")
    void initContainersReserve() {
        Pod p = pod("p", container("a1", "500m", null), container("a2", "500m", null));
        p = withSpec(p, PodSpec.newBuilder(p.getSpec()).setInitContainers(List.of(container("i1", "2", null),
                container("i2", "1", null))).build());

        assertEquals("0/1 nodes are available: 1 Insufficient cpu.",
                unschedulable(decider.decide(p, states(node("node-1", "1500m", "16Gi", "110")))));
    }

    static Stream<Arguments> pendingPods() {
        Pod p = pod("p", "100m");
        return Stream.of(
                Arguments.of("an unbound pod of the default scheduler", p, true),
                Arguments.of("a pod that names no scheduler",
                        withSpec(p, PodSpec.newBuilder(p.getSpec()).setSchedulerName(null).build()), true),
                Arguments.of("a pod bound to a node", withSpec(p, PodSpec.newBuilder(p.getSpec()).setNodeName("n").build()), false),
                Arguments.of("a pod of another scheduler",
                        withSpec(p, PodSpec.newBuilder(p.getSpec()).setSchedulerName("other").build()), false),
                Arguments.of("a terminating pod", Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata())
                        .setDeletionTimestamp(Instant.EPOCH).build()).build(), false),
                Arguments.of("a finished pod",
                        Pod.newBuilder(p).setStatus(PodStatus.newBuilder().setPhase("Failed").build()).build(), false));
    }

    @ParameterizedTest(name = "{0} is pending: {2}")
    @MethodSource("pendingPods")
    void whichPodsArePending(String name, Pod pod, boolean pending) {
        assertEquals(pending, SchedulerDecider.isPending(pod, SchedulerDecider.DEFAULT_SCHEDULER));
    }
}
