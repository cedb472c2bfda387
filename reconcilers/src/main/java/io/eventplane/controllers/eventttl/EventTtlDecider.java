package io.eventplane.controllers.eventttl;

import io.eventplane.model.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Which Events have outlived the event TTL (kube-apiserver's {@code --event-ttl}, 1 h): an Event lives that long after
 * it was last written (created, or seen again: {@code lastTimestamp}, {@code series.lastObservedTime}), as etcd's lease
 * on it is renewed by every write. Oldest first, at most {@code limit} a look, so a large backlog is spread out.
 */
public final class EventTtlDecider {

    public List<Event> expired(List<Event> events, Instant now, Duration ttl, int limit) {
        Instant cutoff = now.minus(ttl);
        return events.stream()
                .filter(e -> lastWritten(e) != null && lastWritten(e).isBefore(cutoff))
                .sorted(Comparator.comparing(EventTtlDecider::lastWritten))
                .limit(limit)
                .toList();
    }

    /** The latest of the times the Event carries; null when it carries none (never expired: nothing to judge by). */
    static Instant lastWritten(Event e) {
        return Stream.of(e.getMetadata() == null ? null : e.getMetadata().getCreationTimestamp(), e.getLastTimestamp(),
                        e.getEventTime(), e.getSeries() == null ? null : e.getSeries().getLastObservedTime())
                .filter(Objects::nonNull).max(Comparator.naturalOrder()).orElse(null);
    }
}
