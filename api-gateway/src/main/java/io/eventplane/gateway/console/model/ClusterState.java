package io.eventplane.gateway.console.model;

import io.eventplane.log.ObjectChanged;
import java.time.Instant;
import java.util.Optional;

/** The cluster at one moment, as the console reads it: now (kept up to date by the view) or in the past (rebuilt). */
public interface ClusterState {

    ClusterRows rows();

    /** True for the live cluster, false for a moment rebuilt from the log. */
    boolean live();

    /** The moment shown: now for the live cluster, the moment asked for in the past. */
    Instant time();

    /** The position of the state in the log, as a Kubernetes resourceVersion. */
    String resourceVersion();

    /** The latest change of the object with {@code key} ({@code Kind/namespace/name}), if it exists at this moment. */
    Optional<ObjectChanged> object(String key);
}
