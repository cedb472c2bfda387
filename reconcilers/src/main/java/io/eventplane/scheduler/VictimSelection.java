package io.eventplane.scheduler;

import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.model.Pod;
import io.eventplane.model.PodDisruptionBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Which pods on one node a preemptor would evict, as kube-scheduler's DefaultPreemption selects victims on a node:
 * every pod of lower priority is taken off the node; if the preemptor still does not fit, the node is no candidate.
 * Otherwise the pods are put back one at a time, most important first (higher priority, then the one started
 * earlier), those whose PodDisruptionBudget their eviction would violate before the others, and each one the preemptor
 * still fits beside is reprieved; the rest are the victims. QoS plays no part (POD-14.8). The trial runs on the
 * snapshot itself, so every filter (resources, ports, spread, anti-affinity) judges it; the snapshot is left as found.
 */
final class VictimSelection {
    static final String NO_VICTIMS = "No preemption victims found for incoming pod";

    /** A pod that could be evicted: its scheduling info, the object, its priority and start time (now if not started). */
    record Victim(PodInfo info, Pod pod, int priority, Instant startTime) {
    }

    /** A node where evicting {@code victims} (most important first) makes the preemptor fit. */
    record Candidate(String node, List<Victim> victims, int pdbViolations) {
    }

    /** One node's answer: a candidate, or why it is none. */
    record Result(Candidate candidate, List<String> reasons) {
    }

    /** Kubernetes' MoreImportantPod: higher priority first, then the earlier start. */
    static final Comparator<Victim> MORE_IMPORTANT_FIRST = Comparator.comparingInt(Victim::priority).reversed()
            .thenComparing(Victim::startTime);

    private VictimSelection() {
    }

    /**
     * @param lower the node's pods of lower priority than the preemptor
     */
    static Result onNode(SchedulerDecider decider, PodInfo preemptor, ClusterSnapshot snapshot,
                         VolumeBinding.PodVolumes volumes, NodeState node, List<Victim> lower,
                         List<PodDisruptionBudget> pdbs) {
        if (lower.isEmpty()) {
            return new Result(null, List.of(NO_VICTIMS));
        }
        List<Victim> off = new ArrayList<>();
        try {
            for (Victim v : lower) {
                snapshot.remove(node.name(), v.info());
                off.add(v);
            }
            List<String> reasons = new ArrayList<>();
            if (!decider.fits(preemptor, snapshot, node, volumes, reasons)) {
                return new Result(null, reasons);
            }
            List<Victim> ordered = new ArrayList<>(lower);
            ordered.sort(MORE_IMPORTANT_FIRST);
            boolean[] violating = violatesBudget(ordered, pdbs);
            List<Victim> victims = new ArrayList<>();
            int violations = 0;
            for (boolean violatingPass : new boolean[] {true, false}) {
                for (int i = 0; i < ordered.size(); i++) {
                    if (violating[i] != violatingPass) {
                        continue;
                    }
                    Victim v = ordered.get(i);
                    snapshot.add(node.name(), v.info());
                    off.remove(v);
                    if (!decider.fits(preemptor, snapshot, node, volumes, new ArrayList<>())) {
                        snapshot.remove(node.name(), v.info());
                        off.add(v);
                        victims.add(v);
                        if (violatingPass) {
                            violations++;
                        }
                    }
                }
            }
            victims.sort(MORE_IMPORTANT_FIRST);
            return new Result(new Candidate(node.name(), List.copyOf(victims), violations), List.of());
        } finally {
            for (Victim v : off) {
                snapshot.add(node.name(), v.info());
            }
        }
    }

    /**
     * Kubernetes' filterPodsWithPDBViolation over pods in importance order: each pod takes one disruption from every
     * budget that selects it (unless the budget already counts it as disrupted); a pod that takes a budget below zero
     * violates it.
     */
    static boolean[] violatesBudget(List<Victim> ordered, List<PodDisruptionBudget> pdbs) {
        int[] allowed = new int[pdbs.size()];
        for (int i = 0; i < allowed.length; i++) {
            PodDisruptionBudget pdb = pdbs.get(i);
            allowed[i] = pdb.getStatus() == null || pdb.getStatus().getDisruptionsAllowed() == null ? 0
                    : pdb.getStatus().getDisruptionsAllowed();
        }
        boolean[] violating = new boolean[ordered.size()];
        for (int k = 0; k < ordered.size(); k++) {
            PodInfo pod = ordered.get(k).info();
            if (pod.labels.isEmpty()) {
                continue;
            }
            for (int i = 0; i < pdbs.size(); i++) {
                PodDisruptionBudget pdb = pdbs.get(i);
                if (!pod.namespace.equals(pdb.getMetadata().getNamespace()) || pdb.getSpec() == null
                        || pdb.getSpec().getSelector() == null || LabelSelectors.isEmpty(pdb.getSpec().getSelector())
                        || !LabelSelectors.matches(pdb.getSpec().getSelector(), pod.labels)) {
                    continue;
                }
                Map<String, Instant> disrupted = pdb.getStatus() == null ? null : pdb.getStatus().getDisruptedPods();
                if (disrupted != null && disrupted.containsKey(pod.name)) {
                    continue; // the API already counted this pod's eviction
                }
                if (--allowed[i] < 0) {
                    violating[k] = true;
                }
            }
        }
        return violating;
    }

    /**
     * Kubernetes' pickOneNodeForPreemption: fewest budget violations, then the lowest highest-priority victim, the
     * smallest sum of priorities, the fewest victims, the latest start among the highest-priority victims, and then
     * the first candidate.
     */
    static Candidate pick(List<Candidate> candidates) {
        List<Candidate> best = candidates;
        List<java.util.function.ToLongFunction<Candidate>> scores = List.of(
                c -> -c.pdbViolations(),
                c -> -(long) c.victims().get(0).priority(),
                c -> -c.victims().stream().mapToLong(v -> (long) v.priority() + Integer.MAX_VALUE + 1L).sum(),
                c -> -c.victims().size(),
                c -> earliestStartOfHighest(c).toEpochMilli());
        for (java.util.function.ToLongFunction<Candidate> score : scores) {
            if (best.size() <= 1) {
                break;
            }
            long max = Long.MIN_VALUE;
            List<Candidate> next = new ArrayList<>();
            for (Candidate c : best) {
                long s = score.applyAsLong(c);
                if (s > max) {
                    max = s;
                    next.clear();
                }
                if (s == max) {
                    next.add(c);
                }
            }
            best = next;
        }
        return best.isEmpty() ? null : best.get(0);
    }

    /** The earliest start among the victims of the highest priority (Kubernetes' GetEarliestPodStartTime). */
    static Instant earliestStartOfHighest(Candidate c) {
        int highest = c.victims().get(0).priority();
        Instant earliest = null;
        for (Victim v : c.victims()) {
            if (v.priority() > highest) {
                highest = v.priority();
                earliest = v.startTime();
            } else if (v.priority() == highest && (earliest == null || v.startTime().isBefore(earliest))) {
                earliest = v.startTime();
            }
        }
        return earliest;
    }
}
