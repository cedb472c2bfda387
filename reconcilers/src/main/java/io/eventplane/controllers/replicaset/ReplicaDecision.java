package io.eventplane.controllers.replicaset;

import io.eventplane.reconcile.Action;
import java.time.Duration;
import java.util.List;

/**
 * One step of a ReplicaSet or ReplicationController: pod commands (create, delete, adopt, release), the status the
 * pods add up to, and when to look again (a Ready pod becomes available after minReadySeconds), or null.
 */
public record ReplicaDecision(List<Action> actions, ReplicaCounts status, Duration requeueAfter) {
    public ReplicaDecision {
        actions = List.copyOf(actions);
    }
}
