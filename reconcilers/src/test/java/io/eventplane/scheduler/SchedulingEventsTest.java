package io.eventplane.scheduler;

import static io.eventplane.scheduler.TestObjects.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.EventType;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.Pod;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SchedulingEventsTest {

    @Test
    @DisplayName("POD-4.8 Scheduled (Normal): \"Successfully assigned default/nginx to node-1\", about the pod by uid")
    void scheduled() {
        Pod nginx = pod("nginx", "100m");

        EventNotice e = SchedulingEvents.scheduled(nginx, "node-1");

        assertEquals(EventType.Normal, e.type());
        assertEquals("Scheduled", e.reason());
        assertEquals("Successfully assigned default/nginx to node-1", e.message());
        ObjectReference ref = e.involvedObject();
        assertEquals("Pod", ref.getKind());
        assertEquals("v1", ref.getApiVersion());
        assertEquals("default", ref.getNamespace());
        assertEquals("nginx", ref.getName());
        assertEquals("uid-nginx", ref.getUid());
        assertEquals("7", ref.getResourceVersion());
    }

    @Test
    @DisplayName("POD-6.2 FailedScheduling (Warning) carries the PodScheduled condition's message")
    void failed() {
        Placement.Unschedulable noCpu = new Placement.Unschedulable("Unschedulable",
                "0/3 nodes are available: 3 Insufficient cpu.");

        EventNotice e = SchedulingEvents.failed(pod("huge", "64"), noCpu).orElseThrow();

        assertEquals(EventType.Warning, e.type());
        assertEquals("FailedScheduling", e.reason());
        assertEquals("0/3 nodes are available: 3 Insufficient cpu.", e.message());
        assertEquals("uid-huge", e.involvedObject().getUid());
    }

    @Test
    @DisplayName("POD-6.12 a pod held back by scheduling gates gets no FailedScheduling event")
    void gatedIsNotAFailure() {
        Placement.Unschedulable gated = new Placement.Unschedulable("SchedulingGated",
                "Scheduling is blocked due to non-empty scheduling gates");

        assertTrue(SchedulingEvents.failed(pod("gated", "100m"), gated).isEmpty());
    }
}
