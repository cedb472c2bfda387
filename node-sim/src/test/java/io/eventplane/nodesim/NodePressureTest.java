package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.Pod;
import io.eventplane.model.Toleration;
import io.eventplane.testkit.objects.KubeObjects;
import io.eventplane.testkit.objects.PodBuilder;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NodePressureTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final SimNode N1 = SimNode.of("node-", 1);

    /** Pod "p"; {@code requests} null makes it BestEffort. */
    private static Pod pod(Map<String, String> requests, Integer priority, Toleration... tolerations) {
        PodBuilder p = KubeObjects.pod("p").priority(priority).tolerations(tolerations);
        return (requests == null ? p : p.requests(requests)).build();
    }

    private static NodeCondition condition(Node n, String type) {
        return n.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("a pressure is reported True with the kubelet's reason and message, the others False with theirs")
    void conditions() {
        Node n = NodeTemplates.node(N1, NodeShape.defaults(), EnumSet.of(NodePressure.Kind.MEMORY, NodePressure.Kind.PID), T0);
        NodeCondition memory = condition(n, "MemoryPressure");
        assertEquals(List.of("True", "KubeletHasInsufficientMemory", "kubelet has insufficient memory available"),
                List.of(memory.getStatus(), memory.getReason(), memory.getMessage()));
        NodeCondition disk = condition(n, "DiskPressure");
        assertEquals(List.of("False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
                List.of(disk.getStatus(), disk.getReason(), disk.getMessage()));
        NodeCondition pid = condition(n, "PIDPressure");
        assertEquals(List.of("True", "KubeletHasInsufficientPID", "kubelet has insufficient PID available"),
                List.of(pid.getStatus(), pid.getReason(), pid.getMessage()));
        assertEquals("True", condition(n, "Ready").getStatus());
        assertEquals(EnumSet.of(NodePressure.Kind.MEMORY, NodePressure.Kind.PID), NodePressure.reported(n));

        Node later = NodeTemplates.withFreshStatus(n, N1, NodeShape.defaults(), Set.of(NodePressure.Kind.MEMORY), T0.plusSeconds(60));
        assertEquals(T0, condition(later, "MemoryPressure").getLastTransitionTime(), "unchanged: same transition time");
        assertEquals(T0.plusSeconds(60), condition(later, "MemoryPressure").getLastHeartbeatTime());
        assertEquals(T0.plusSeconds(60), condition(later, "PIDPressure").getLastTransitionTime(), "PID pressure went");
        assertEquals("KubeletHasSufficientPID", condition(later, "PIDPressure").getReason());
        assertEquals(T0, condition(later, "Ready").getLastTransitionTime());
    }

    @Test
    @DisplayName("the pressure is requested by annotation (or configuration) and the annotation is set and removed")
    void requestedByAnnotation() {
        Node n = NodeTemplates.node(N1, NodeShape.defaults(), T0);
        Node marked = NodePressure.marked(n, NodePressure.Kind.DISK, true);
        assertEquals("true", marked.getMetadata().getAnnotations().get("sim.eventplane.io/disk-pressure"));
        assertEquals(EnumSet.of(NodePressure.Kind.DISK), NodePressure.requested(marked, Set.of()));
        assertEquals(EnumSet.of(NodePressure.Kind.DISK, NodePressure.Kind.PID),
                NodePressure.requested(marked, Set.of(NodePressure.Kind.PID)));
        assertEquals(Set.of(), NodePressure.requested(NodePressure.marked(marked, NodePressure.Kind.DISK, false), Set.of()));
    }

    @Test
    @DisplayName("POD-14.4 under memory pressure alone the kubelet rejects a BestEffort pod (Evicted), admits Burstable ones and tolerating ones")
    void memoryPressureAdmission() {
        Set<NodePressure.Kind> memory = Set.of(NodePressure.Kind.MEMORY);
        Pod rejected = NodePressure.reject(pod(null, null), memory, T0).orElseThrow();
        assertEquals("Failed", rejected.getStatus().getPhase());
        assertEquals("Evicted", rejected.getStatus().getReason());
        assertEquals("The node had condition: [MemoryPressure]. ", rejected.getStatus().getMessage());
        assertEquals(T0, rejected.getStatus().getStartTime());

        assertTrue(NodePressure.reject(pod(Map.of("cpu", "100m"), null), memory, T0).isEmpty(), "Burstable is admitted");
        Toleration exists = Toleration.newBuilder().setKey("node.kubernetes.io/memory-pressure").setOperator("Exists")
                .setEffect("NoSchedule").build();
        assertTrue(NodePressure.reject(pod(null, null, exists), memory, T0).isEmpty(), "tolerates the memory-pressure taint");
        Toleration everything = Toleration.newBuilder().setOperator("Exists").build();
        assertTrue(NodePressure.reject(pod(null, null, everything), memory, T0).isEmpty(), "tolerates every taint");
        Toleration noExecute = Toleration.newBuilder().setKey("node.kubernetes.io/memory-pressure").setOperator("Exists")
                .setEffect("NoExecute").build();
        assertTrue(NodePressure.reject(pod(null, null, noExecute), memory, T0).isPresent(), "the wrong effect");
        assertTrue(NodePressure.reject(pod(null, null), Set.of(), T0).isEmpty(), "no pressure, no rejection");
    }

    @Test
    @DisplayName("under disk or PID pressure every pod is rejected, except critical ones")
    void otherPressureAdmission() {
        Pod burstable = pod(Map.of("cpu", "100m"), null);
        Pod rejected = NodePressure.reject(burstable, EnumSet.of(NodePressure.Kind.DISK), T0).orElseThrow();
        assertEquals("The node had condition: [DiskPressure]. ", rejected.getStatus().getMessage());
        Pod both = NodePressure.reject(burstable, EnumSet.of(NodePressure.Kind.MEMORY, NodePressure.Kind.PID), T0).orElseThrow();
        assertEquals("The node had condition: [MemoryPressure PIDPressure]. ", both.getStatus().getMessage());
        assertTrue(NodePressure.reject(pod(null, 2_000_001_000), EnumSet.allOf(NodePressure.Kind.class), T0).isEmpty(),
                "system-node-critical is admitted");
    }

    /** A pod using {@code usage} memory (annotated); {@code requests} null makes it BestEffort, limits then ignored. */
    private static Pod declared(String name, Map<String, String> requests, Map<String, String> limits, String usage) {
        PodBuilder p = KubeObjects.pod(name);
        if (requests != null) {
            p.requests(requests);
            if (limits != null) {
                p.limits(limits);
            }
        }
        if (usage != null) {
            p.annotations(PressureEviction.USAGE_ANNOTATION, usage);
        }
        return p.build();
    }

    @Test
    @DisplayName("W-Q4 POD-14.5 under memory pressure BestEffort goes first, then the Burstable over its request; the Burstable under its request and the Guaranteed are no candidates")
    void evictionOrder() {
        Pod bestEffort = declared("best-effort", null, null, "100Mi");
        Pod over = declared("burstable-over", Map.of("memory", "64Mi"), null, "200Mi");
        Pod under = declared("burstable-under", Map.of("memory", "200Mi"), null, "100Mi");
        Pod guaranteed = declared("guaranteed", Map.of("memory", "100Mi", "cpu", "100m"), Map.of("memory", "100Mi", "cpu", "100m"), "100Mi");
        List<Pod> running = new java.util.ArrayList<>(List.of(guaranteed, under, over, bestEffort));
        List<String> order = new java.util.ArrayList<>();
        for (var victim = PressureEviction.next(running); victim.isPresent(); victim = PressureEviction.next(running)) {
            order.add(victim.get().getMetadata().getName());
            running.remove(victim.get());
        }
        assertEquals(List.of("best-effort", "burstable-over"), order);
        assertTrue(PressureEviction.next(List.of(declared("quiet", null, null, null))).isEmpty(),
                "a pod that declares no use uses its requests: no candidate");
    }

    @Test
    @DisplayName("POD-14.5 an evicted pod is Failed (Evicted) with DisruptionTarget TerminationByKubelet, not ready, its containers killed")
    void evictedStatus() {
        Instant started = T0.minusSeconds(60);
        Pod running = Pod.newBuilder(declared("p", null, null, "1Gi")).setStatus(io.eventplane.model.PodStatus.newBuilder()
                .setPhase("Running").setQosClass("BestEffort")
                .setConditions(List.of(io.eventplane.model.PodCondition.newBuilder().setType("Ready").setStatus("True").build()))
                .setContainerStatuses(List.of(io.eventplane.model.ContainerStatus.newBuilder().setName("c").setImage("nginx")
                        .setImageID("").setReady(true).setRestartCount(0).setContainerID("containerd://1")
                        .setState(io.eventplane.model.ContainerState.newBuilder().setRunning(
                                io.eventplane.model.ContainerStateRunning.newBuilder().setStartedAt(started).build()).build())
                        .build())).build()).build();
        Pod evicted = PressureEviction.evicted(running, T0);
        assertEquals("Failed", evicted.getStatus().getPhase());
        assertEquals("Evicted", evicted.getStatus().getReason());
        assertEquals("The node was low on resource: memory. ", evicted.getStatus().getMessage());
        var terminated = evicted.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals(137, terminated.getExitCode());
        assertEquals(started, terminated.getStartedAt());
        assertEquals(T0, terminated.getFinishedAt());
        assertEquals(List.of("Ready/False", "DisruptionTarget/True/TerminationByKubelet"), evicted.getStatus().getConditions().stream()
                .map(c -> c.getType() + "/" + c.getStatus() + (c.getType().equals("DisruptionTarget") ? "/" + c.getReason() : "")).toList());
    }

    @Test
    @DisplayName("EVENTPLANE_NODESIM_PRESSURE names nodes and their pressures; a bad rule is refused precisely")
    void configuration() {
        assertEquals(Map.of("node-3", EnumSet.of(NodePressure.Kind.MEMORY),
                        "node-5", EnumSet.of(NodePressure.Kind.DISK, NodePressure.Kind.PID)),
                NodePressure.parseConfig("node-3=memory; node-5=disk,pid"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodePressure.parseConfig("node-3=cpu"));
        assertEquals("no pressure \"cpu\": memory, disk or pid", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NodePressure.parseConfig("node-3"));
    }
}
