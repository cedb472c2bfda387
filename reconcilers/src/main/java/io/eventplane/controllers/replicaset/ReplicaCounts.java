package io.eventplane.controllers.replicaset;

/**
 * The status a ReplicaSet or ReplicationController reports (RS-23): counts of active pods and the condition.
 *
 * @param failure the ReplicaFailure condition, or null when there is none
 */
public record ReplicaCounts(int replicas, int fullyLabeledReplicas, int readyReplicas, int availableReplicas,
                            long observedGeneration, ReplicaFailure failure) {
}
