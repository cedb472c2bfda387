package io.eventplane.scheduler;

import io.eventplane.core.meta.Taints;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PreferredSchedulingTerm;
import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import io.eventplane.model.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a pod should run: the pure decision of the scheduler, shaped like kube-scheduler's default profile.
 *
 * <p>PreFilter computes what needs the whole cluster once per pod (pod affinity counts per topology pair, topology
 * spread counts per domain); Filter runs, per node and in Kubernetes' order, NodeUnschedulable, NodeName,
 * TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, VolumeBinding (pods with claims only),
 * PodTopologySpread and InterPodAffinity, and stops at the first that rejects the node. Like Kubernetes it stops
 * searching once it has found enough feasible nodes
 * (percentageOfNodesToScore, adaptive by default: 50% minus 1% per 125 nodes, at least 5% and 100 nodes), starting
 * where the previous search stopped. Score: NodeResourcesFit least-allocated (weight 1), balanced allocation (1),
 * TaintToleration (3), NodeAffinity preferred (2), InterPodAffinity preferred (2), PodTopologySpread ScheduleAnyway
 * (2), each 0..100. Equal totals are broken by a hash of the seed, the pod's uid and the node's name, so a given state
 * and seed always give the same node while equal nodes still share the load.
 *
 * <p>When no node fits the answer carries Kubernetes' message, every reason counted. No I/O and no clock.
 */
public final class SchedulerDecider {
    public static final String DEFAULT_SCHEDULER = "default-scheduler";
    static final int MIN_FEASIBLE_NODES_TO_FIND = 100;
    static final int MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

    /**
     * The profile: the tie-break seed, percentageOfNodesToScore (0 for adaptive, 100 for all), and the
     * PodTopologySpread default constraints ({@code null} for Kubernetes' system defaults, POD-16.16; an empty list
     * disables them, POD-16.18).
     */
    public record Profile(long seed, int percentageOfNodesToScore, List<TopologySpreadConstraint> defaultConstraints) {
        public static Profile defaults() {
            return new Profile(0, 0, null);
        }

        boolean systemDefaulted() {
            return defaultConstraints == null;
        }

        List<TopologySpreadConstraint> spreadDefaults() {
            return defaultConstraints == null ? TopologySpread.SYSTEM_DEFAULTS : defaultConstraints;
        }
    }

    private final Profile profile;

    public SchedulerDecider(Profile profile) {
        this.profile = profile;
    }

    public SchedulerDecider() {
        this(Profile.defaults());
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

    public Placement decide(Pod pod, ClusterSnapshot snapshot) {
        return decide(PodInfo.of(pod), snapshot);
    }

    /** Decides one pod; moves the snapshot's search start past the nodes it examined. Does not add the pod. */
    public Placement decide(PodInfo pod, ClusterSnapshot snapshot) {
        return decide(pod, snapshot, null);
    }

    /**
     * As {@link #decide(PodInfo, ClusterSnapshot)}, for a pod with claims: {@code volumes} is VolumeBinding's
     * PreFilter ({@link VolumeBinding#preFilter}), null for a pod without.
     */
    public Placement decide(PodInfo pod, ClusterSnapshot snapshot, VolumeBinding.PodVolumes volumes) {
        if (pod.gated) {
            return new Placement.Unschedulable("SchedulingGated", "Scheduling is blocked due to non-empty scheduling gates");
        }
        NodeState[] nodes = snapshot.nodeArray();
        int all = nodes.length;
        if (all == 0) {
            return new Placement.Unschedulable("Unschedulable", message(0, Map.of()));
        }
        if (volumes != null && volumes.rejection() != null) {
            // A PreFilter rejection is the whole message: no node was looked at.
            return new Placement.Unschedulable("Unschedulable", "0/" + all + " nodes are available: "
                    + volumes.rejection() + ".");
        }
        Cycle cycle = new Cycle(pod, snapshot, volumes);
        int wanted = numFeasibleNodesToFind(all);
        NodeState[] feasible = new NodeState[wanted];
        int found = 0;
        int start = snapshot.nextStartNodeIndex;
        int processed = 0;
        Map<String, Integer> reasons = null;
        List<String> buffer = new ArrayList<>(4);
        while (processed < all && found < wanted) {
            NodeState node = nodes[(start + processed) % all];
            processed++;
            if (cycle.passes(node, buffer)) {
                feasible[found++] = node;
            } else {
                if (reasons == null) {
                    reasons = new HashMap<>();
                }
                for (String r : buffer) {
                    reasons.merge(r, 1, Integer::sum);
                }
                buffer.clear();
            }
        }
        snapshot.nextStartNodeIndex = (start + processed) % all;
        if (found == 0) {
            return new Placement.Unschedulable("Unschedulable", message(all, reasons == null ? Map.of() : reasons));
        }
        long[] totals = score(pod, snapshot, cycle, feasible, found);
        int best = 0;
        long bestHash = tieHash(pod, feasible[0]);
        for (int k = 1; k < found; k++) {
            if (totals[k] > totals[best]) {
                best = k;
                bestHash = tieHash(pod, feasible[k]);
            } else if (totals[k] == totals[best]) {
                long h = tieHash(pod, feasible[k]);
                if (h > bestHash) {
                    best = k;
                    bestHash = h;
                }
            }
        }
        return new Placement.Bind(feasible[best].name(), totals[best], found);
    }

    /** Every node that passes all filters, in name order, searching all nodes: for tests and explanations. */
    public List<String> feasibleNodes(PodInfo pod, ClusterSnapshot snapshot) {
        Cycle cycle = new Cycle(pod, snapshot, null);
        List<String> out = new ArrayList<>();
        List<String> buffer = new ArrayList<>();
        for (NodeState node : snapshot.nodeArray()) {
            if (cycle.passes(node, buffer)) {
                out.add(node.name());
            }
            buffer.clear();
        }
        return out;
    }

    /** Whether {@code pod} passes every filter on {@code node} as the snapshot stands now; if not, why, in {@code reasons}. */
    boolean fits(PodInfo pod, ClusterSnapshot snapshot, NodeState node, VolumeBinding.PodVolumes volumes,
                 List<String> reasons) {
        return new Cycle(pod, snapshot, volumes).passes(node, reasons);
    }

    /** Kubernetes' numFeasibleNodesToFind. */
    int numFeasibleNodesToFind(int all) {
        if (all < MIN_FEASIBLE_NODES_TO_FIND || profile.percentageOfNodesToScore() >= 100) {
            return all;
        }
        int percentage = profile.percentageOfNodesToScore();
        if (percentage <= 0) {
            percentage = Math.max(50 - all / 125, MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND);
        }
        int n = (int) ((long) all * percentage / 100);
        return Math.max(n, MIN_FEASIBLE_NODES_TO_FIND);
    }

    /** The per-pod state of one decision (Kubernetes' CycleState after PreFilter). */
    private final class Cycle {
        final PodInfo pod;
        final TopologySpread.Filter spread;
        final InterPodAffinity.Filter affinity;
        final VolumeBinding.PodVolumes volumes;

        Cycle(PodInfo pod, ClusterSnapshot snapshot, VolumeBinding.PodVolumes volumes) {
            this.pod = pod;
            this.volumes = volumes;
            List<TopologySpread.Constraint> hard = TopologySpread.constraints(pod, snapshot, profile.spreadDefaults(),
                    "DoNotSchedule");
            spread = hard.isEmpty() ? null : snapshot.spreadMemo.computeIfAbsent(TopologySpread.Filter.key(pod, hard),
                    k -> new TopologySpread.Filter(pod, snapshot, hard));
            InterPodAffinity.Filter a = snapshot.affinityMemo.computeIfAbsent(InterPodAffinity.Filter.key(pod),
                    k -> new InterPodAffinity.Filter(pod, snapshot));
            affinity = a.trivial() ? null : a;
        }

        boolean passes(NodeState node, List<String> reasons) {
            String r = NodeFilters.unschedulable(pod, node);
            if (r == null) {
                r = NodeFilters.nodeName(pod, node);
            }
            if (r == null) {
                r = NodeFilters.taints(pod, node);
            }
            if (r == null) {
                r = NodeFilters.nodeAffinity(pod, node);
            }
            if (r == null) {
                r = NodeFilters.ports(pod, node);
            }
            if (r == null && !NodeFilters.resources(pod, node, reasons)) {
                return false;
            }
            if (r == null && volumes != null && !volumes.fits(node, reasons)) {
                return false;
            }
            if (r == null && spread != null) {
                r = spread.reject(node);
            }
            if (r == null && affinity != null) {
                r = affinity.reject(node);
            }
            if (r != null) {
                reasons.add(r);
                return false;
            }
            return true;
        }
    }

    private long[] score(PodInfo pod, ClusterSnapshot snapshot, Cycle cycle, NodeState[] feasible, int n) {
        long[] total = new long[n];
        for (int k = 0; k < n; k++) {
            NodeState node = feasible[k];
            total[k] = leastAllocated(pod, node) + balancedAllocation(pod, node);
        }
        addTaintToleration(pod, feasible, n, total);
        addNodeAffinity(pod, feasible, n, total);
        int[] affinity = InterPodAffinity.scores(pod, snapshot, feasible, n);
        if (affinity != null) {
            for (int k = 0; k < n; k++) {
                total[k] += 2L * affinity[k];
            }
        }
        List<TopologySpread.Constraint> soft = TopologySpread.constraints(pod, snapshot, profile.spreadDefaults(),
                "ScheduleAnyway");
        if (!soft.isEmpty()) {
            boolean systemDefaulted = pod.spreadConstraints.isEmpty() && profile.systemDefaulted();
            int[] spread = TopologySpread.scores(pod, snapshot, soft, systemDefaulted, feasible, n);
            for (int k = 0; k < n; k++) {
                total[k] += 2L * spread[k];
            }
        }
        return total;
    }

    /** LeastAllocated over cpu and memory (requests with the non-zero defaults), equally weighted, 0..100. */
    static long leastAllocated(PodInfo pod, NodeState node) {
        long cpu = leastRequested(node.nonZeroCpu + pod.nonZeroCpu, node.offer.cpu());
        long memory = leastRequested(node.nonZeroMemory + pod.nonZeroMemory, node.offer.memory());
        return (cpu + memory) / 2;
    }

    private static long leastRequested(long requested, long capacity) {
        if (capacity <= 0 || requested > capacity) {
            return 0;
        }
        return (capacity - requested) * 100 / capacity;
    }

    /** BalancedAllocation: 100 times one minus the standard deviation of the cpu and memory fractions requested. */
    static long balancedAllocation(PodInfo pod, NodeState node) {
        if (node.offer.cpu() <= 0 || node.offer.memory() <= 0) {
            return 0;
        }
        double cpu = Math.min(1, (double) (node.cpu + pod.cpu) / node.offer.cpu());
        double memory = Math.min(1, (double) (node.memory + pod.memory) / node.offer.memory());
        return (long) ((1 - Math.abs(cpu - memory) / 2) * 100);
    }

    /** TaintToleration: fewer untolerated PreferNoSchedule taints score higher (weight 3). */
    private static void addTaintToleration(PodInfo pod, NodeState[] feasible, int n, long[] total) {
        int[] counts = null;
        int max = 0;
        for (int k = 0; k < n; k++) {
            List<Taint> taints = feasible[k].offer.taints();
            if (taints.isEmpty()) {
                continue;
            }
            int c = 0;
            for (Taint t : taints) {
                if ("PreferNoSchedule".equals(t.getEffect()) && !toleratesSoft(pod.tolerations, t)) {
                    c++;
                }
            }
            if (c > 0) {
                if (counts == null) {
                    counts = new int[n];
                }
                counts[k] = c;
                max = Math.max(max, c);
            }
        }
        for (int k = 0; k < n; k++) {
            total[k] += 3L * (max == 0 ? 100 : 100 - (long) (counts == null ? 0 : counts[k]) * 100 / max);
        }
    }

    private static boolean toleratesSoft(List<Toleration> tolerations, Taint taint) {
        for (Toleration t : tolerations) {
            boolean effect = t.getEffect() == null || t.getEffect().isEmpty() || "PreferNoSchedule".equals(t.getEffect());
            if (effect && Taints.tolerates(t, taint)) {
                return true;
            }
        }
        return false;
    }

    /** NodeAffinity: the weights of the matching preferred terms, normalized to the best node (weight 2). */
    private static void addNodeAffinity(PodInfo pod, NodeState[] feasible, int n, long[] total) {
        if (pod.preferredNodeAffinity.isEmpty()) {
            return;
        }
        long[] raw = new long[n];
        long max = 0;
        for (int k = 0; k < n; k++) {
            for (PreferredSchedulingTerm t : pod.preferredNodeAffinity) {
                if (t.getPreference() != null && NodeMatch.matches(t.getPreference(), feasible[k].offer)) {
                    raw[k] += t.getWeight() == null ? 0 : t.getWeight();
                }
            }
            max = Math.max(max, raw[k]);
        }
        if (max > 0) {
            for (int k = 0; k < n; k++) {
                total[k] += 2L * (raw[k] * 100 / max);
            }
        }
    }

    private long tieHash(PodInfo pod, NodeState node) {
        long h = profile.seed() * 0x9E3779B97F4A7C15L;
        h ^= (pod.uid == null ? 0 : pod.uid.hashCode()) * 0xC2B2AE3D27D4EB4FL;
        h ^= node.name().hashCode() * 0x165667B19E3779F9L;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
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
