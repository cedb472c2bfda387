package io.eventplane.controllers.statefulset;

import io.eventplane.core.meta.PodStates;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetStatus;
import io.eventplane.reconcile.Action;
import java.time.Instant;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;

/**
 * A StatefulSet's status as Kubernetes computes and writes it (updateStatus, computeReplicaStatus,
 * completeRollingUpdate, stateful_set_status_updater.go), field for field as kubectl and clients read it (STS-X01):
 * replicas counts the created pods, readyReplicas those Running and Ready, availableReplicas those also Ready for
 * minReadySeconds, currentReplicas and updatedReplicas those (not being deleted) of the current and the update
 * revision; a RollingUpdate is complete once every wanted pod is updated and Ready, and the update revision then
 * becomes the current one. readyReplicas, currentReplicas and updatedReplicas are omitted at 0 and collisionCount is
 * always there, as in Kubernetes' JSON. Pure.
 */
final class StatefulSetStatusUpdater {
    private StatefulSetStatusUpdater() {
    }

    /** The counts over {@code pods} (the owned pods, or the replicas and condemned pods of a step). */
    record Counts(int replicas, int ready, int available, int current, int updated) {
        Counts minusCurrent(int n) {
            return new Counts(replicas, ready, available, current - n, updated);
        }
    }

    static Counts count(Collection<Pod> pods, int minReadySeconds, Instant now, String currentRevision,
                        String updateRevision) {
        int replicas = 0;
        int ready = 0;
        int available = 0;
        int current = 0;
        int updated = 0;
        for (Pod p : pods) {
            boolean created = StatefulPods.isCreated(p);
            if (created) {
                replicas++;
            }
            if (StatefulPods.isRunningAndReady(p)) {
                ready++;
                if (StatefulPods.isRunningAndAvailable(p, minReadySeconds, now)) {
                    available++;
                }
            }
            if (created && !PodStates.isTerminating(p)) {
                String revision = StatefulPods.revision(p);
                if (revision.equals(currentRevision)) {
                    current++;
                }
                if (revision.equals(updateRevision)) {
                    updated++;
                }
            }
        }
        return new Counts(replicas, ready, available, current, updated);
    }

    /** The status a step computed, with completeRollingUpdate applied. */
    static StatefulSetStatus status(StatefulSet set, Counts c, String currentRevision, String updateRevision,
                                    int collisionCount) {
        int wanted = StatefulPods.replicas(set);
        int current = c.current();
        String currentName = currentRevision;
        if (StatefulPods.ROLLING_UPDATE.equals(StatefulPods.strategyType(set)) && c.updated() == wanted
                && c.ready() == wanted && c.replicas() == wanted) {
            current = c.updated();
            currentName = updateRevision;
        }
        return StatefulSetStatus.newBuilder()
                .setObservedGeneration(set.getMetadata().getGeneration())
                .setReplicas(c.replicas())
                .setReadyReplicas(omitZero(c.ready()))
                .setCurrentReplicas(omitZero(current))
                .setUpdatedReplicas(omitZero(c.updated()))
                .setCurrentRevision(currentName)
                .setUpdateRevision(updateRevision)
                .setCollisionCount(collisionCount)
                .setAvailableReplicas(c.available())
                .build();
    }

    private static Integer omitZero(int n) {
        return n == 0 ? null : n;
    }

    /**
     * The status update, when the status differs from the stored one; sent without a resourceVersion precondition,
     * as it is recomputed from the view at every step.
     */
    static Optional<Action> update(StatefulSet set, StatefulSetStatus next) {
        if (Objects.equals(next, set.getStatus())) {
            return Optional.empty();
        }
        return Optional.of(new Action.UpdateStatus(StatefulSet.newBuilder(set).setStatus(next)
                .setMetadata(ObjectMeta.newBuilder(set.getMetadata()).setResourceVersion(null).build()).build()));
    }
}
