package io.eventplane.gc;

import io.eventplane.log.ObjectChanged;
import java.util.Set;

/** One step the garbage collector asks the writer to take; every step carries the object's uid and resourceVersion. */
public sealed interface GcAction {

    /** The object the step is about, as the collector saw it. */
    ObjectChanged item();

    /** Delete {@code item} with this propagation policy (its dependents are then handled in that mode). */
    record Delete(ObjectChanged item, String propagationPolicy) implements GcAction {
    }

    /** Remove the owner references with these uids from {@code item} (orphaning, or dropping dangling owners). */
    record RemoveOwnerReferences(ObjectChanged item, Set<String> ownerUids) implements GcAction {
    }

    /** Set {@code blockOwnerDeletion=false} on every owner reference of {@code item} (breaks a foreground cycle). */
    record UnblockOwnerReferences(ObjectChanged item) implements GcAction {
    }

    /** Remove a propagation finalizer ({@code orphan} or {@code foregroundDeletion}) whose work is done. */
    record RemoveFinalizer(ObjectChanged item, String finalizer) implements GcAction {
    }

    /** A Warning Event about {@code item}. */
    record Warn(ObjectChanged item, String reason, String message) implements GcAction {
    }
}
