package io.eventplane.controllers;

import io.eventplane.client.events.EventNotice;
import io.eventplane.core.kinds.KindInfo;
import org.apache.avro.specific.SpecificRecord;

/**
 * One command a controller's decision asks for, as data. The shell sends it with its preconditions (an update
 * carries the resourceVersion it was decided on; a delete the uid), records {@code onAccepted} once the writer
 * accepted it, and on a rejection records a Warning with {@code failedReason} and tells the next decision.
 */
public sealed interface Action {
    /** The Event to record once the writer accepted the command, or null. */
    EventNotice onAccepted();

    /** The reason of the Warning Event recorded when the writer rejects the command (e.g. FailedCreate), or null. */
    String failedReason();

    record Create(SpecificRecord object, EventNotice onAccepted, String failedReason) implements Action {
    }

    /** A spec or metadata update, accepted only if the object is still at the resourceVersion it carries. */
    record Update(SpecificRecord object, EventNotice onAccepted, String failedReason) implements Action {
    }

    /** A status update through the status subresource. */
    record UpdateStatus(SpecificRecord object) implements Action {
        @Override
        public EventNotice onAccepted() {
            return null;
        }

        @Override
        public String failedReason() {
            return null;
        }
    }

    /** A deletion of the object with {@code uid} (never of a namesake created since). */
    record Delete(KindInfo kind, String namespace, String name, String uid, EventNotice onAccepted,
                  String failedReason) implements Action {
    }
}
