package io.eventplane.controllers;

import io.eventplane.client.ObjectView;
import io.eventplane.log.ObjectChanged;
import java.time.Instant;
import java.util.Collection;

/**
 * A controller as the shell ({@link ControllerService}) runs it: which objects a change concerns, and one step for
 * one object. The step reads the view (the whole current state, level-triggered) and returns a decision made by a
 * pure function; it sends nothing itself.
 */
public interface Reconciler {
    /** The kind this controller owns ({@code ReplicaSet}, {@code Deployment}, ...). */
    String kind();

    /** The keys of owned objects a change may concern (the object itself, the owner of a pod, ...). */
    Collection<String> keysFor(ObjectChanged change, ObjectView view);

    /**
     * @param key         the owned object's key
     * @param lastFailure the message of the last rejected command for this key since its last successful step, or null
     */
    Reconciliation reconcile(String key, ObjectView view, Instant now, String lastFailure);

    /** Adds the indexes this controller reads to its view; called before the view starts. */
    default void index(ObjectView view) {
    }
}
