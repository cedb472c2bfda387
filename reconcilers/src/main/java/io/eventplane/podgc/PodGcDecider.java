package io.eventplane.podgc;

import io.eventplane.core.meta.Conditions;
import io.eventplane.core.meta.Taints;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pod garbage collector's decision (Kubernetes' PodGC, pods.md POD-13.2 to 13.4, workloads.md GC-19). Pure. Every
 * pod it removes is deleted with grace period 0; one still in a non-terminal phase is first marked Failed (with a
 * DisruptionTarget condition when it was orphaned).
 *
 * <ol>
 *   <li>Terminating pods on a not-Ready node tainted {@code node.kubernetes.io/out-of-service} (W-G4).</li>
 *   <li>Terminated pods (Succeeded or Failed) above {@code threshold}: the oldest by creationTimestamp (W-G1).</li>
 *   <li>Orphans: pods bound to a node that does not exist, terminating or not (W-G2).</li>
 *   <li>Unscheduled terminating pods (W-G3).</li>
 * </ol>
 */
public final class PodGcDecider {

    /** Delete {@code pod} at once; {@code failFirst}, when not null, is the status to write before (phase Failed). */
    public record Removal(Pod pod, Pod failFirst, String why) {
    }

    public List<Removal> decide(Instant now, List<Pod> pods, List<Node> nodes, int threshold) {
        Map<String, Node> byName = new HashMap<>();
        nodes.forEach(n -> byName.put(n.getMetadata().getName(), n));
        List<Removal> out = new ArrayList<>();
        Set<String> taken = new HashSet<>();

        for (Pod pod : pods) {
            Node node = byName.get(nodeName(pod));
            if (pod.getMetadata().getDeletionTimestamp() != null && node != null
                    && !"True".equals(Conditions.nodeReady(node))
                    && node.getSpec() != null && node.getSpec().getTaints() != null
                    && node.getSpec().getTaints().stream().anyMatch(t -> Taints.OUT_OF_SERVICE.equals(t.getKey()))) {
                add(out, taken, pod, failed(pod, null, now), "terminating on an out-of-service node");
            }
        }

        if (threshold > 0) {
            List<Pod> terminated = pods.stream().filter(PodGcDecider::terminal)
                    .filter(p -> !taken.contains(p.getMetadata().getUid()))
                    .sorted(Comparator.comparing((Pod p) -> p.getMetadata().getCreationTimestamp(),
                            Comparator.nullsFirst(Comparator.naturalOrder())).thenComparing(p -> p.getMetadata().getName()))
                    .toList();
            int excess = terminated.size() - threshold;
            for (int i = 0; i < excess; i++) {
                add(out, taken, terminated.get(i), null, "terminated pods above the threshold of " + threshold);
            }
        }

        for (Pod pod : pods) {
            String nodeName = nodeName(pod);
            if (nodeName != null && !byName.containsKey(nodeName)) {
                PodCondition c = PodCondition.newBuilder().setType("DisruptionTarget").setStatus("True")
                        .setReason("DeletionByPodGC").setMessage("PodGC: node no longer exists")
                        .setLastTransitionTime(now).build();
                add(out, taken, pod, failed(pod, c, now), "bound to node " + nodeName + ", which no longer exists");
            } else if (nodeName == null && pod.getMetadata().getDeletionTimestamp() != null) {
                add(out, taken, pod, failed(pod, null, now), "unscheduled and terminating");
            }
        }
        return out;
    }

    private static void add(List<Removal> out, Set<String> taken, Pod pod, Pod failFirst, String why) {
        if (taken.add(pod.getMetadata().getUid())) {
            out.add(new Removal(pod, failFirst, why));
        }
    }

    /** The status PodGC writes before deleting a pod that has not finished: phase Failed (and the condition). */
    private static Pod failed(Pod pod, PodCondition condition, Instant now) {
        if (terminal(pod)) {
            return null;
        }
        if (condition == null) {
            return Pod.newBuilder(pod).setStatus(io.eventplane.model.PodStatus.newBuilder(
                    pod.getStatus() == null ? new io.eventplane.model.PodStatus() : pod.getStatus()).setPhase("Failed").build()).build();
        }
        return Conditions.withPodCondition(pod, condition, "Failed");
    }

    private static String nodeName(Pod pod) {
        String n = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        return n == null || n.isEmpty() ? null : n;
    }

    static boolean terminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
}
