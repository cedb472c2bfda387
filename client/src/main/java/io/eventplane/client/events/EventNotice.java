package io.eventplane.client.events;

import io.eventplane.model.ObjectReference;
import java.util.Objects;

/**
 * An event to record, as data: what happened to which object. Pure decisions return these; their shells hand them to
 * an {@link EventRecorder}.
 *
 * @param involvedObject the object the event is about (with a {@code fieldPath} for a container)
 * @param type           Normal or Warning
 * @param reason         a short UpperCamelCase reason, e.g. {@code Scheduled}
 * @param message        what a human reads in {@code kubectl describe}
 */
public record EventNotice(ObjectReference involvedObject, EventType type, String reason, String message) {

    public EventNotice {
        Objects.requireNonNull(involvedObject, "involvedObject");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
    }

    public static EventNotice normal(ObjectReference involvedObject, String reason, String message) {
        return new EventNotice(involvedObject, EventType.Normal, reason, message);
    }

    public static EventNotice warning(ObjectReference involvedObject, String reason, String message) {
        return new EventNotice(involvedObject, EventType.Warning, reason, message);
    }
}
