package io.eventplane.client.events;

import io.eventplane.core.Digests;
import io.eventplane.model.Event;
import io.eventplane.model.EventSeries;
import io.eventplane.model.EventSource;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How an occurrence becomes an Event, and how repeats aggregate. Pure.
 *
 * <p>The same occurrence (same involved object, type, reason, message and source) always gets the same Event name,
 * {@code <involvedName>.<16 hex digits>}, so a repeat finds its Event in the view even after a restart. A repeat within
 * {@link #WINDOW} of the Event's lastTimestamp counts up (count, lastTimestamp, series); a repeat after a quiet
 * window starts the Event over (count 1, firstTimestamp now): Kubernetes would create a new Event then, and ours keeps
 * its name, while the event log keeps the history.
 */
public final class EventAggregation {
    /** Repeats closer than this to the last one update the same Event, as client-go's recorder does. */
    public static final Duration WINDOW = Duration.ofMinutes(10);
    /** Events of cluster-scoped objects live here, as in Kubernetes. */
    public static final String CLUSTER_SCOPED_NAMESPACE = "default";

    private static final int MAX_NAME = 253;
    private static final int HASH_HEX = 16;

    private EventAggregation() {
    }

    /** One occurrence of an event: what, by whom, when. */
    public record Occurrence(EventNotice notice, EventOrigin origin, Instant at) {
        public Occurrence {
            Objects.requireNonNull(notice, "notice");
            Objects.requireNonNull(origin, "origin");
            Objects.requireNonNull(at, "at");
        }

        public String namespace() {
            return EventAggregation.namespace(notice.involvedObject());
        }

        public String name() {
            return EventAggregation.name(this);
        }
    }

    /** The involved object's namespace; {@value #CLUSTER_SCOPED_NAMESPACE} for a cluster-scoped object. */
    public static String namespace(ObjectReference ref) {
        return ref.getNamespace() == null || ref.getNamespace().isEmpty() ? CLUSTER_SCOPED_NAMESPACE : ref.getNamespace();
    }

    /**
     * What makes two occurrences the same event: the involved object (not its resourceVersion, which moves on), the
     * type, reason and message, and the source.
     */
    static String key(Occurrence o) {
        ObjectReference ref = o.notice().involvedObject();
        return String.join("\n", nz(ref.getKind()), nz(ref.getApiVersion()), nz(ref.getNamespace()), nz(ref.getName()),
                nz(ref.getUid()), nz(ref.getFieldPath()), o.notice().type().name(), o.notice().reason(),
                o.notice().message(), o.origin().component(), nz(o.origin().host()));
    }

    /** {@code nginx.1a2b3c4d5e6f7081}: the involved object's name and a hash of {@link #key}. */
    public static String name(Occurrence o) {
        String base = nz(o.notice().involvedObject().getName());
        int room = MAX_NAME - HASH_HEX - 1;
        if (base.length() > room) {
            base = base.substring(0, room);
        }
        // A name is an RFC 1123 subdomain: a cut must not leave a '-' or '.' at its end.
        int end = base.length();
        while (end > 0 && !Character.isLetterOrDigit(base.charAt(end - 1))) {
            end--;
        }
        base = end == 0 ? "event" : base.substring(0, end);
        return base + "." + hash(key(o));
    }

    /**
     * The Event to write for {@code occurrences} occurrences (several when repeats were merged while a write was in
     * flight), the latest at {@code o.at()}.
     *
     * @param current the Event as last stored (with its resourceVersion), or null when there is none
     */
    public static Event next(Event current, Occurrence o, int occurrences) {
        if (occurrences < 1) {
            throw new IllegalArgumentException("at least one occurrence");
        }
        if (current == null) {
            return fresh(o, occurrences, ObjectMeta.newBuilder().setName(o.name()).setNamespace(o.namespace()).build());
        }
        if (!isRepeat(current, o.at())) {
            return fresh(o, occurrences, current.getMetadata());
        }
        int count = (current.getCount() == null ? 1 : current.getCount()) + occurrences;
        Instant last = current.getLastTimestamp() != null && current.getLastTimestamp().isAfter(o.at())
                ? current.getLastTimestamp() : o.at();
        return Event.newBuilder(current)
                .setCount(count)
                .setLastTimestamp(last)
                .setSeries(EventSeries.newBuilder().setCount(count).setLastObservedTime(last).build())
                .build();
    }

    /** Whether an occurrence at {@code at} repeats {@code current} (within the window of its last occurrence). */
    public static boolean isRepeat(Event current, Instant at) {
        Instant last = current.getLastTimestamp() != null ? current.getLastTimestamp() : current.getFirstTimestamp();
        return last != null && !at.isAfter(last.plus(WINDOW));
    }

    private static Event fresh(Occurrence o, int count, ObjectMeta meta) {
        EventOrigin origin = o.origin();
        return Event.newBuilder()
                .setMetadata(meta)
                .setInvolvedObject(o.notice().involvedObject())
                .setType(o.notice().type().name())
                .setReason(o.notice().reason())
                .setMessage(o.notice().message())
                .setSource(EventSource.newBuilder().setComponent(origin.component()).setHost(origin.host()).build())
                .setReportingComponent(origin.component())
                .setReportingInstance(origin.reportingInstance() == null ? "" : origin.reportingInstance())
                .setFirstTimestamp(o.at())
                .setLastTimestamp(o.at())
                .setCount(count)
                .setSeries(count > 1 ? EventSeries.newBuilder().setCount(count).setLastObservedTime(o.at()).build() : null)
                .build();
    }

    private static String hash(String key) {
        return Digests.sha256Hex(key).substring(0, HASH_HEX);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
