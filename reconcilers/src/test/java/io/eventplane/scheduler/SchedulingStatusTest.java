package io.eventplane.scheduler;

import static io.eventplane.scheduler.TestObjects.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SchedulingStatusTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
    private static final Placement.Unschedulable NO_CPU =
            new Placement.Unschedulable("Unschedulable", "0/3 nodes are available: 3 Insufficient cpu.");

    private static PodCondition podScheduled(Pod pod) {
        return pod.getStatus().getConditions().stream().filter(c -> c.getType().equals("PodScheduled")).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("an unschedulable pod gets PodScheduled=False with reason Unschedulable and the scheduler's message")
    void unschedulableCondition() {
        Pod pod = pod("big", "64");

        Pod updated = SchedulingStatus.unschedulable(pod, NO_CPU, T0).orElseThrow();

        PodCondition c = podScheduled(updated);
        assertEquals("False", c.getStatus());
        assertEquals("Unschedulable", c.getReason());
        assertEquals("0/3 nodes are available: 3 Insufficient cpu.", c.getMessage());
        assertEquals(T0, c.getLastTransitionTime());
        assertEquals("7", updated.getMetadata().getResourceVersion(), "the write is conditional on the version decided on");
        assertEquals("Pending", updated.getStatus().getPhase());
    }

    @Test
    @DisplayName("a pod that already says so needs no write")
    void noWriteWhenUnchanged() {
        Pod once = SchedulingStatus.unschedulable(pod("big", "64"), NO_CPU, T0).orElseThrow();

        assertTrue(SchedulingStatus.unschedulable(once, NO_CPU, T0.plusSeconds(5)).isEmpty());
    }

    @Test
    @DisplayName("POD-6 a new message keeps lastTransitionTime while the status stays False")
    void newMessageKeepsTransitionTime() {
        Pod once = SchedulingStatus.unschedulable(pod("big", "64"), NO_CPU, T0).orElseThrow();
        Placement.Unschedulable more = new Placement.Unschedulable("Unschedulable", "0/4 nodes are available: 4 Insufficient cpu.");

        PodCondition c = podScheduled(SchedulingStatus.unschedulable(once, more, T0.plusSeconds(5)).orElseThrow());

        assertEquals(more.message(), c.getMessage());
        assertEquals(T0, c.getLastTransitionTime());
    }
}
