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
        PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        if (status.getConditions() != null) {
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
                .setConditions(Conditions.set(status.getConditions(), condition)).build();
        return Optional.of(Pod.newBuilder(pod).setStatus(next).build());
    }
}
