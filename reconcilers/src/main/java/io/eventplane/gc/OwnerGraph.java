package io.eventplane.gc;

import io.eventplane.log.ObjectChanged;
import java.util.Collection;
import java.util.Optional;

/** What the garbage collector reads about the cluster: live objects by name and by uid, and dependents by owner. */
public interface OwnerGraph {

    /** The live object of {@code kind} named {@code name} in {@code namespace} ("" for cluster-scoped kinds). */
    Optional<ObjectChanged> get(String kind, String namespace, String name);

    /** The live object with this uid, whatever its kind and namespace. */
    Optional<ObjectChanged> byUid(String uid);

    /** Live objects with an owner reference whose uid is {@code ownerUid}. */
    Collection<ObjectChanged> dependents(String ownerUid);
}
