package io.eventplane.gateway.console.model;

import java.util.List;

/**
 * One workload (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController) with its rollout
 * progress: how many replicas are wanted, updated to the current template, ready and available.
 *
 * @param state    Complete, Progressing, Failed, Suspended, Scheduled (a CronJob) or Stalled
 * @param message  why, from the workload's conditions when there is one
 */
public record WorkloadRow(String key, String kind, String namespace, String name, String uid, long resourceVersion,
                          int desired, int current, int updated, int ready, int available, String state,
                          String message, List<String> images, long created) {
}
