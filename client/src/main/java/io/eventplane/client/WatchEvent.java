package io.eventplane.client;

import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;

/**
 * One event of a watch: Kubernetes' type (ADDED, MODIFIED, DELETED) and the change that carries the object.
 */
public record WatchEvent(String type, ObjectChanged change) {

    public static WatchEvent of(ObjectChanged change) {
        String type = change.getType() == ChangeType.CREATED ? "ADDED"
                : change.getType() == ChangeType.DELETED ? "DELETED" : "MODIFIED";
        return new WatchEvent(type, change);
    }

    /** A synthetic ADDED for an object that already existed when the watch started. */
    public static WatchEvent existing(ObjectChanged change) {
        return new WatchEvent("ADDED", change);
    }
}
