package io.eventplane.scheduler;

import io.eventplane.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One pod's scheduling attempt with priorities, as kube-scheduler's scheduling cycle runs it: pods nominated to a node
 * by an earlier preemption, of the same or higher priority, are counted on that node while the pod is filtered, so
 * the room freed for them is not taken; a pod with a nominated node tries that node first; a pod that fits nowhere may
 * preempt ({@link Preemption}). The FailedScheduling message carries what preemption found ("... preemption: 0/3 nodes
 * are available: ..."). Pure but for the snapshot, which it leaves as it was.
 *
 * @param placement         where the pod goes, or why it cannot go anywhere now
 * @param nominatedNodeName the pod's {@code status.nominatedNodeName} after this attempt (null: none)
 * @param preemption        what preemption decided; null when the pod was placed or is gated
 */
public record SchedulingAttempt(Placement placement, String nominatedNodeName, Preemption.Outcome preemption) {

    /**
     * @param volumes VolumeBinding's PreFilter for a pod with claims, null for one without
     * @param in     priorities, budgets, pod lookup, the pods nominated to nodes ({@code in.nominated()}), the time
     * @param infoOf a pod's scheduling info (cached by the caller)
     */
    public static SchedulingAttempt of(SchedulerDecider decider, Pod pod, PodInfo info, ClusterSnapshot snapshot,
                                       VolumeBinding.PodVolumes volumes, Preemption.Inputs in, Function<Pod, PodInfo> infoOf) {
        String nominated = pod.getStatus() == null || pod.getStatus().getNominatedNodeName() == null
                || pod.getStatus().getNominatedNodeName().isEmpty() ? null : pod.getStatus().getNominatedNodeName();
        List<PodInfo> held = new ArrayList<>();
        List<String> heldOn = new ArrayList<>();
        if (!in.nominated().isEmpty()) {
            int priority = in.priorities().priority(info);
            for (Pod other : in.nominated()) {
                String node = other.getStatus().getNominatedNodeName();
                PodInfo o = infoOf.apply(other);
                if (!other.getMetadata().getUid().equals(info.uid) && snapshot.hasNode(node)
                        && in.priorities().priority(o) >= priority) {
                    snapshot.add(node, o);
                    held.add(o);
                    heldOn.add(node);
                }
            }
        }
        try {
            if (nominated != null && snapshot.hasNode(nominated) && (volumes == null || volumes.rejection() == null)
                    && decider.fits(info, snapshot, snapshot.node(nominated), volumes, new ArrayList<>())) {
                return new SchedulingAttempt(new Placement.Bind(nominated, 0, 1), nominated, null);
            }
            Placement placement = decider.decide(info, snapshot, volumes);
            if (!(placement instanceof Placement.Unschedulable why) || !"Unschedulable".equals(why.reason())
                    || (volumes != null && volumes.rejection() != null)) {
                return new SchedulingAttempt(placement, nominated, null);
            }
            Preemption.Outcome outcome = new Preemption(decider).preempt(pod, info, snapshot, volumes, in);
            String message = outcome.message().isEmpty() ? why.message()
                    : why.message() + " preemption: " + outcome.message();
            String next = outcome instanceof Preemption.Nominated n ? n.node()
                    : outcome instanceof Preemption.NoCandidate ? null : nominated;
            return new SchedulingAttempt(new Placement.Unschedulable(why.reason(), message), next, outcome);
        } finally {
            for (int i = 0; i < held.size(); i++) {
                snapshot.remove(heldOn.get(i), held.get(i));
            }
        }
    }
}
