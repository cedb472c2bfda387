package io.eventplane.client.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.events.EventAggregation.Occurrence;
import io.eventplane.core.decide.Names;
import io.eventplane.model.Event;
import io.eventplane.model.ObjectReference;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EventAggregationTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
    private static final EventOrigin SCHEDULER = new EventOrigin("default-scheduler", null, "default-scheduler-1");
    static final ObjectReference NGINX = ObjectReference.newBuilder().setKind("Pod").setApiVersion("v1")
            .setNamespace("default").setName("nginx").setUid("uid-1").setResourceVersion("7").build();

    private static Occurrence scheduled(ObjectReference ref, String message, Instant at) {
        return new Occurrence(EventNotice.normal(ref, "Scheduled", message), SCHEDULER, at);
    }

    private static Occurrence scheduled(Instant at) {
        return scheduled(NGINX, "Successfully assigned default/nginx to node-1", at);
    }

    @Test
    @DisplayName("an Event is named <involvedName>.<16 hex digits>, the same for the same object, reason, message and source")
    void names() {
        String name = scheduled(T0).name();

        assertTrue(name.matches("nginx\\.[0-9a-f]{16}"), name);
        assertEquals(name, scheduled(T0.plusSeconds(60)).name(), "the time is not part of the name");
        ObjectReference newerVersion = ObjectReference.newBuilder(NGINX).setResourceVersion("99").build();
        assertEquals(name, scheduled(newerVersion, "Successfully assigned default/nginx to node-1", T0).name(),
                "the object's resourceVersion is not part of the name");
        assertNotEquals(name, scheduled(NGINX, "Successfully assigned default/nginx to node-2", T0).name());
        assertNotEquals(name, scheduled(ObjectReference.newBuilder(NGINX).setUid("uid-2").build(),
                "Successfully assigned default/nginx to node-1", T0).name(), "another pod of the same name");
        assertNotEquals(name, new Occurrence(EventNotice.normal(NGINX, "Scheduled",
                "Successfully assigned default/nginx to node-1"), EventOrigin.kubelet("node-1"), T0).name());
        assertNotEquals(name, new Occurrence(EventNotice.normal(ObjectReferences.withFieldPath(NGINX,
                "spec.containers{nginx}"), "Scheduled", "Successfully assigned default/nginx to node-1"), SCHEDULER,
                T0).name());
    }

    @Test
    @DisplayName("a long involved name is cut so that the Event name stays a valid name of at most 253 characters")
    void longNames() {
        String longName = "a".repeat(230) + "-" + "b".repeat(22);
        String name = scheduled(ObjectReference.newBuilder(NGINX).setName(longName).build(), "m", T0).name();

        assertTrue(name.length() <= 253, name.length() + "");
        assertTrue(Names.subdomain("metadata.name", name).isEmpty(), name);
    }

    @Test
    @DisplayName("events of a namespaced object live in its namespace, those of a cluster-scoped object in default")
    void namespaces() {
        assertEquals("default", scheduled(T0).namespace());
        assertEquals("team-a", scheduled(ObjectReference.newBuilder(NGINX).setNamespace("team-a").build(), "m", T0)
                .namespace());
        Occurrence nodeEvent = new Occurrence(EventNotice.normal(ObjectReferences.node("node-1"), "Starting",
                "Starting kubelet."), EventOrigin.kubelet("node-1"), T0);
        assertEquals("default", nodeEvent.namespace());
        assertTrue(nodeEvent.name().startsWith("node-1."));
    }

    @Test
    @DisplayName("a first occurrence is a new Event: count 1, first and last timestamp now, source and reporter")
    void first() {
        Event e = EventAggregation.next(null, new Occurrence(EventNotice.warning(NGINX, "FailedScheduling",
                "0/3 nodes are available: 3 Insufficient cpu."), SCHEDULER, T0), 1);

        assertEquals("default", e.getMetadata().getNamespace());
        assertTrue(e.getMetadata().getName().startsWith("nginx."));
        assertNull(e.getMetadata().getResourceVersion());
        assertEquals(NGINX, e.getInvolvedObject());
        assertEquals("Warning", e.getType());
        assertEquals("FailedScheduling", e.getReason());
        assertEquals("0/3 nodes are available: 3 Insufficient cpu.", e.getMessage());
        assertEquals("default-scheduler", e.getSource().getComponent());
        assertNull(e.getSource().getHost());
        assertEquals("default-scheduler", e.getReportingComponent());
        assertEquals("default-scheduler-1", e.getReportingInstance());
        assertEquals(T0, e.getFirstTimestamp());
        assertEquals(T0, e.getLastTimestamp());
        assertEquals(1, e.getCount());
        assertNull(e.getSeries());
    }

    @Test
    @DisplayName("a repeat within 10 minutes counts up: count, lastTimestamp and series move, the rest stays")
    void repeat() {
        Event first = stored(EventAggregation.next(null, scheduled(T0), 1));
        Instant later = T0.plus(Duration.ofMinutes(10));

        Event second = EventAggregation.next(first, scheduled(later), 1);

        assertEquals(first.getMetadata(), second.getMetadata(), "same name, and the resourceVersion to update");
        assertEquals(2, second.getCount());
        assertEquals(T0, second.getFirstTimestamp());
        assertEquals(later, second.getLastTimestamp());
        assertEquals(2, second.getSeries().getCount());
        assertEquals(later, second.getSeries().getLastObservedTime());
        assertEquals(5, EventAggregation.next(second, scheduled(later.plusSeconds(1)), 3).getCount(),
                "repeats merged while a write was in flight count each");
    }

    @Test
    @DisplayName("a repeat after more than 10 quiet minutes starts the Event over under its name: count 1, first seen now")
    void quietWindow() {
        Event first = stored(EventAggregation.next(null, scheduled(T0), 1));
        Event counted = EventAggregation.next(first, scheduled(T0.plusSeconds(30)), 1);
        Instant much = T0.plusSeconds(30).plus(Duration.ofMinutes(10)).plusSeconds(1);

        Event again = EventAggregation.next(counted, scheduled(much), 1);

        assertEquals(first.getMetadata(), again.getMetadata());
        assertEquals(1, again.getCount());
        assertEquals(much, again.getFirstTimestamp());
        assertEquals(much, again.getLastTimestamp());
        assertNull(again.getSeries());
    }

    private static Event stored(Event e) {
        return Event.newBuilder(e).setMetadata(io.eventplane.model.ObjectMeta.newBuilder(e.getMetadata())
                .setResourceVersion("42").setUid("event-uid").build()).build();
    }
}
