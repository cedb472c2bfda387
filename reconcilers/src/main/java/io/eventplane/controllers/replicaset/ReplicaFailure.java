package io.eventplane.controllers.replicaset;

import java.time.Instant;

/** The ReplicaFailure condition (RS-23): a pod could not be created or deleted. Always status True when present. */
public record ReplicaFailure(String reason, String message, Instant lastTransitionTime) {
    public static final String TYPE = "ReplicaFailure";
}
