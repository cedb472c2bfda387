package io.eventplane.scheduler;

import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a pod should run: the pure decision of the scheduler. Filters drop the nodes that cannot take the pod, the
 * least-allocated score picks among the rest (ties go to the first name), and when no node fits the answer carries
 * Kubernetes' message. No I/O and no clock: given the same pod and nodes it always answers the same.
 */
public final class SchedulerDecider {
    public static final String DEFAULT_SCHEDULER = "default-scheduler";

    private final List<NodeFilter> filters;

    public SchedulerDecider(List<NodeFilter> filters) {
        this.filters = List.copyOf(filters);
    }

    public SchedulerDecider() {
        this(NodeFilters.defaults());
    }

    /** Whether this scheduler should place {@code pod}: unbound, not terminating, not finished, and ours. */
    public static boolean isPending(Pod pod, String schedulerName) {
        PodSpec spec = pod.getSpec();
        ObjectMeta meta = pod.getMetadata();
        if (spec == null || (spec.getNodeName() != null && !spec.getNodeName().isEmpty())) {
            return false;
        }
        if (meta != null && meta.getDeletionTimestamp() != null) {
            return false;
        }
        if (isTerminal(pod)) {
            return false;
        }
        return spec.getSchedulerName() == null || spec.getSchedulerName().equals(schedulerName);
    }

    public static boolean isTerminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    public Placement decide(Pod pod, Collection<NodeState> nodes) {
        return decide(pod, PodDemand.of(pod.getSpec()), nodes);
    }

    public Placement decide(Pod pod, PodDemand demand, Collection<NodeState> nodes) {
        if (pod.getSpec() != null && pod.getSpec().getSchedulingGates() != null
                && !pod.getSpec().getSchedulingGates().isEmpty()) {
            return new Placement.Unschedulable("SchedulingGated", "Scheduling is blocked due to non-empty scheduling gates");
        }
        Map<String, Integer> reasons = new TreeMap<>();
        NodeState best = null;
        double bestScore = -1;
        int feasible = 0;
        for (NodeState node : nodes) {
            List<String> rejected = filter(pod, demand, node);
            if (!rejected.isEmpty()) {
                rejected.forEach(r -> reasons.merge(r, 1, Integer::sum));
                continue;
            }
            feasible++;
            double score = leastAllocated(demand, node);
            if (score > bestScore || (score == bestScore && node.name().compareTo(best.name()) < 0)) {
                best = node;
                bestScore = score;
            }
        }
        if (best == null) {
            return new Placement.Unschedulable("Unschedulable", message(nodes.size(), reasons));
        }
        return new Placement.Bind(best.name(), bestScore, feasible);
    }

    /** The reasons of the first filter that rejects the node (Kubernetes stops at the first failing filter). */
    private List<String> filter(Pod pod, PodDemand demand, NodeState node) {
        for (NodeFilter f : filters) {
            List<String> reasons = f.reasons(pod, demand, node);
            if (!reasons.isEmpty()) {
                return reasons;
            }
        }
        return List.of();
    }

    /**
     * LeastAllocated over cpu and memory, equally weighted: the share of the node left free once the pod is on it,
     * 0 to 100. Kept fractional so that small pods on big nodes still tell nodes apart.
     */
    static double leastAllocated(PodDemand demand, NodeState node) {
        double sum = 0;
        for (String r : List.of("cpu", "memory")) {
            long capacity = node.allocatable().get(r);
            long requested = node.scoringRequested().get(r) + demand.scoring().get(r);
            sum += capacity <= 0 || requested > capacity ? 0 : (capacity - requested) * 100.0 / capacity;
        }
        return sum / 2;
    }

    /** "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu." (reasons counted and sorted). */
    static String message(int nodes, Map<String, Integer> reasons) {
        if (nodes == 0) {
            return "no nodes available to schedule pods";
        }
        List<String> parts = new ArrayList<>();
        reasons.forEach((reason, count) -> parts.add(count + " " + reason));
        parts.sort(null);
        return "0/" + nodes + " nodes are available: " + String.join(", ", parts) + ".";
    }
}
