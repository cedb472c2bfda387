package io.eventplane.scheduler;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.model.Pod;
import java.util.Optional;

/** The Events the scheduler records about a pod, as kube-scheduler words them. Pure. */
public final class SchedulingEvents {
    public static final String SCHEDULED = "Scheduled";
    public static final String FAILED_SCHEDULING = "FailedScheduling";

    private SchedulingEvents() {
    }

    /** {@code Scheduled}: "Successfully assigned default/nginx to node-1". */
    public static EventNotice scheduled(Pod pod, String node) {
        return EventNotice.normal(ObjectReferences.of(pod), SCHEDULED, "Successfully assigned "
                + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + " to " + node);
    }

    /**
     * {@code FailedScheduling} with the message of the PodScheduled condition ("0/3 nodes are available: ..."); none
     * for a pod held back by scheduling gates, which kube-scheduler does not try to place.
     */
    public static Optional<EventNotice> failed(Pod pod, Placement.Unschedulable why) {
        if (!"Unschedulable".equals(why.reason())) {
            return Optional.empty();
        }
        return Optional.of(EventNotice.warning(ObjectReferences.of(pod), FAILED_SCHEDULING, why.message()));
    }
}
