package io.eventplane.scheduler;

import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodDisruptionBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Preemption for a pod no node fits (kube-scheduler's DefaultPreemption PostFilter), as a pure decision:
 * <ol>
 *   <li>Eligibility: a pod with preemptionPolicy Never does not preempt; nor does one whose nominated node still has a
 *       lower-priority pod terminating because it was preempted (it waits for it to go).</li>
 *   <li>Candidates: nodes that failed only for reasons removing pods can fix (resources, ports, spread skew,
 *       anti-affinity; not taints, node affinity, cordons or a missing topology label), each tried with
 *       {@link VictimSelection#onNode}; the search stops once it has max(10% of them, 100) candidates and at least one
 *       violates no budget.</li>
 *   <li>The best candidate by {@link VictimSelection#pick}; its victims are to be evicted, the pod nominated there,
 *       and lower-priority pods nominated there lose their nomination.</li>
 * </ol>
 * Victims are only ever of lower priority than the preemptor, so a pod never preempts an equal or higher one.
 */
public final class Preemption {
    static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";
    static final String NEVER = "not eligible due to preemptionPolicy=Never.";
    static final String TERMINATING_VICTIM = "not eligible due to a terminating pod on the nominated node.";
    static final int MIN_CANDIDATE_NODES_PERCENTAGE = 10;
    static final int MIN_CANDIDATE_NODES_ABSOLUTE = 100;
    /** Filter failures no eviction on the node can cure (Kubernetes' UnschedulableAndUnresolvable). */
    private static final Set<String> UNRESOLVABLE = Set.of(NodeFilters.REASON_UNSCHEDULABLE,
            NodeFilters.REASON_NODE_NAME, NodeFilters.REASON_SELECTOR, TopologySpread.REASON_MISSING_LABEL,
            InterPodAffinity.REASON_AFFINITY);

    /**
     * What preemption reads besides the pod and the snapshot.
     *
     * @param pods      the current object of a pod in the snapshot (empty if it is gone)
     * @param nominated pending pods nominated to a node ({@code status.nominatedNodeName})
     * @param now       the start time of victims that have none yet
     */
    public record Inputs(PodPriorities priorities, List<PodDisruptionBudget> pdbs, Function<PodInfo, Optional<Pod>> pods,
                         List<Pod> nominated, Instant now) {
    }

    /** What preemption decided. */
    public sealed interface Outcome {
        /** What follows "preemption: " in the FailedScheduling message; empty when victims were found. */
        String message();
    }

    /** The pod may not preempt now; its nomination stays as it is. */
    public record NotEligible(String message) implements Outcome {
    }

    /** Evicting pods helps on no node; the pod's nomination is cleared. */
    public record NoCandidate(String message) implements Outcome {
    }

    /**
     * Evict {@code victims} (most important first) from {@code node} and nominate the pod there; {@code displaced} are
     * lower-priority pods nominated to that node, whose nomination is cleared.
     */
    public record Nominated(String node, List<Pod> victims, int pdbViolations, List<Pod> displaced) implements Outcome {
        @Override
        public String message() {
            return "";
        }
    }

    private final SchedulerDecider decider;

    public Preemption(SchedulerDecider decider) {
        this.decider = decider;
    }

    /** Decides preemption for {@code pod}, which fits no node of {@code snapshot}; leaves the snapshot as it was. */
    public Outcome preempt(Pod pod, PodInfo info, ClusterSnapshot snapshot, VolumeBinding.PodVolumes volumes, Inputs in) {
        int priority = in.priorities().priority(info);
        if (in.priorities().neverPreempts(info)) {
            return new NotEligible(NEVER);
        }
        String nominatedNode = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
        NodeState nominated = nominatedNode == null ? null : snapshot.node(nominatedNode);
        if (nominated != null && !unresolvable(info, snapshot, volumes, nominated)) {
            for (PodInfo p : nominated.pods) {
                // A pod already gone from the view but still counted in the snapshot is on its way out too.
                if (in.priorities().priority(p) < priority
                        && in.pods().apply(p).map(Preemption::terminatingByPreemption).orElse(true)) {
                    return new NotEligible(TERMINATING_VICTIM);
                }
            }
        }
        NodeState[] nodes = snapshot.nodeArray();
        Map<String, Integer> reasons = new HashMap<>();
        List<NodeState> potential = new ArrayList<>();
        for (NodeState node : nodes) {
            if (unresolvable(info, snapshot, volumes, node)) {
                reasons.merge(NOT_HELPFUL, 1, Integer::sum);
            } else {
                potential.add(node);
            }
        }
        int wanted = Math.min(potential.size(), Math.max(potential.size() * MIN_CANDIDATE_NODES_PERCENTAGE / 100,
                MIN_CANDIDATE_NODES_ABSOLUTE));
        List<VictimSelection.Candidate> candidates = new ArrayList<>();
        int nonViolating = 0;
        for (NodeState node : potential) {
            if (nonViolating > 0 && candidates.size() >= wanted) {
                reasons.merge(NOT_HELPFUL, 1, Integer::sum); // not examined: Kubernetes counts it as not helpful
                continue;
            }
            List<VictimSelection.Victim> lower = new ArrayList<>();
            for (PodInfo p : List.copyOf(node.pods)) {
                int pp = in.priorities().priority(p);
                if (pp < priority) {
                    in.pods().apply(p).ifPresent(obj -> lower.add(new VictimSelection.Victim(p, obj, pp, startTime(obj, in.now()))));
                }
            }
            VictimSelection.Result r = VictimSelection.onNode(decider, info, snapshot, volumes, node, lower, in.pdbs());
            if (r.candidate() == null) {
                for (String reason : r.reasons()) {
                    reasons.merge(reason, 1, Integer::sum);
                }
            } else {
                candidates.add(r.candidate());
                nonViolating += r.candidate().pdbViolations() == 0 ? 1 : 0;
            }
        }
        if (candidates.isEmpty()) {
            return new NoCandidate(SchedulerDecider.message(nodes.length, reasons));
        }
        VictimSelection.Candidate best = VictimSelection.pick(candidates);
        List<Pod> displaced = new ArrayList<>();
        for (Pod p : in.nominated()) {
            boolean there = p.getStatus() != null && best.node().equals(p.getStatus().getNominatedNodeName());
            if (there && !p.getMetadata().getUid().equals(info.uid) && in.priorities().priority(PodInfo.of(p)) < priority) {
                displaced.add(p);
            }
        }
        return new Nominated(best.node(), best.victims().stream().map(VictimSelection.Victim::pod).toList(),
                best.pdbViolations(), List.copyOf(displaced));
    }

    /** Whether no eviction on {@code node} can make the pod fit: it fails a filter about the node or the pod itself. */
    private boolean unresolvable(PodInfo info, ClusterSnapshot snapshot, VolumeBinding.PodVolumes volumes,
                                 NodeState node) {
        List<String> reasons = new ArrayList<>();
        if (decider.fits(info, snapshot, node, volumes, reasons)) {
            return false;
        }
        for (String r : reasons) {
            if (UNRESOLVABLE.contains(r) || r.startsWith(NodeFilters.REASON_TAINT_PREFIX)) {
                return true;
            }
        }
        return false;
    }

    /** Deleted and marked DisruptionTarget by a preemption (Kubernetes' podTerminatingByPreemption). */
    static boolean terminatingByPreemption(Pod pod) {
        if (pod.getMetadata().getDeletionTimestamp() == null || pod.getStatus() == null
                || pod.getStatus().getConditions() == null) {
            return false;
        }
        for (PodCondition c : pod.getStatus().getConditions()) {
            if (PreemptionEffects.DISRUPTION_TARGET.equals(c.getType())) {
                return "True".equals(c.getStatus()) && PreemptionEffects.PREEMPTION_BY_SCHEDULER.equals(c.getReason());
            }
        }
        return false;
    }

    private static Instant startTime(Pod pod, Instant now) {
        Instant started = pod.getStatus() == null ? null : pod.getStatus().getStartTime();
        return started == null ? now : started;
    }
}
