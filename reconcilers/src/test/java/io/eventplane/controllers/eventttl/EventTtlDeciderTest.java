package io.eventplane.controllers.eventttl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.model.Event;
import io.eventplane.model.EventSeries;
import io.eventplane.model.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EventTtlDeciderTest {
    static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
    static final Duration TTL = Duration.ofHours(1);
    final EventTtlDecider decider = new EventTtlDecider();

    static Event event(String name, Instant created, Instant last, Instant seriesLast) {
        return Event.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").setCreationTimestamp(created)
                        .build())
                .setLastTimestamp(last)
                .setSeries(seriesLast == null ? null : EventSeries.newBuilder().setCount(2)
                        .setLastObservedTime(seriesLast).build())
                .build();
    }

    static List<String> names(List<Event> events) {
        return events.stream().map(e -> e.getMetadata().getName()).toList();
    }

    @Test
    @DisplayName("an Event lives the TTL after it was last written: created, seen again (lastTimestamp) or its series observed")
    void expiresAfterLastWrite() {
        List<Event> events = List.of(
                event("old", NOW.minus(Duration.ofHours(2)), null, null),
                event("seen-again", NOW.minus(Duration.ofHours(2)), NOW.minus(Duration.ofMinutes(10)), null),
                event("series", NOW.minus(Duration.ofHours(3)), NOW.minus(Duration.ofHours(3)),
                        NOW.minus(Duration.ofMinutes(59))),
                event("young", NOW.minus(Duration.ofMinutes(5)), null, null),
                event("undated", null, null, null));
        assertEquals(List.of("old"), names(decider.expired(events, NOW, TTL, 100)));
    }

    @Test
    @DisplayName("a backlog is deleted oldest first, a bounded number a look")
    void oldestFirstBounded() {
        List<Event> events = List.of(
                event("b", NOW.minus(Duration.ofHours(2)), null, null),
                event("a", NOW.minus(Duration.ofHours(5)), null, null),
                event("c", NOW.minus(Duration.ofHours(1).plusSeconds(1)), null, null));
        assertEquals(List.of("a", "b"), names(decider.expired(events, NOW, TTL, 2)));
    }
}
