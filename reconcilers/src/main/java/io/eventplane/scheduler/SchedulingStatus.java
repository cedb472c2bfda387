package io.eventplane.scheduler;

import io.eventplane.core.meta.Conditions;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** The status a pod gets when it cannot be scheduled; empty when it already says so (no write needed). */
public final class SchedulingStatus {
    private SchedulingStatus() {
    }

    public static Optional<Pod> unschedulable(Pod pod, Placement.Unschedulable why, Instant now) {
        return unschedulable(pod, why, pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName(), now);
    }

    /** As {@link #unschedulable(Pod, Placement.Unschedulable, Instant)}, nominated to a node (null: none) by preemption. */
    public static Optional<Pod> unschedulable(Pod pod, Placement.Unschedulable why, String nominatedNodeName, Instant now) {
        PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        String nominated = nonEmpty(nominatedNodeName);
        if (status.getConditions() != null && Objects.equals(nominated, nonEmpty(status.getNominatedNodeName()))) {
            for (PodCondition c : status.getConditions()) {
                if ("PodScheduled".equals(c.getType()) && "False".equals(c.getStatus())
                        && Objects.equals(c.getReason(), why.reason()) && Objects.equals(c.getMessage(), why.message())) {
                    return Optional.empty();
                }
            }
        }
        PodCondition condition = PodCondition.newBuilder().setType("PodScheduled").setStatus("False")
                .setReason(why.reason()).setMessage(why.message()).setLastTransitionTime(now).build();
        PodStatus next = PodStatus.newBuilder(status)
                .setConditions(Conditions.set(status.getConditions(), condition)).setNominatedNodeName(nominated).build();
        return Optional.of(Pod.newBuilder(pod).setStatus(next).build());
    }

    private static String nonEmpty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
