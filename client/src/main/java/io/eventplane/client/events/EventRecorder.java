package io.eventplane.client.events;

import io.eventplane.model.ObjectReference;

/**
 * Records Kubernetes Events about objects, as client-go's recorder does: never blocks and never fails the caller (an
 * event is best effort); a repeated event updates the Event already recorded instead of adding another.
 */
public interface EventRecorder {

    /**
     * @param involvedObject kind, namespace, name, uid, apiVersion, resourceVersion and optionally fieldPath of the object
     */
    void record(ObjectReference involvedObject, EventType type, String reason, String message);

    default void record(EventNotice notice) {
        record(notice.involvedObject(), notice.type(), notice.reason(), notice.message());
    }

    /** A recorder that records nothing (tools and tests that do not care about events). */
    static EventRecorder discarding() {
        return (involvedObject, type, reason, message) -> {
        };
    }
}
