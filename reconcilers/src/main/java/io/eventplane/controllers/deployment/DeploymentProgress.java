package io.eventplane.controllers.deployment;

import static io.eventplane.controllers.deployment.DeploymentDecider.PROGRESSING;
import static io.eventplane.controllers.deployment.DeploymentDecider.REPLICA_FAILURE;
import static io.eventplane.controllers.deployment.DeploymentStep.n;

import io.eventplane.core.meta.Conditions;
import io.eventplane.model.DeploymentCondition;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The rollout's progress (upstream's progress.go, DEP-47 to DEP-54): the Progressing condition (paused and resumed,
 * progressing, complete, past its progress deadline), ReplicaFailure copied from the ReplicaSets, and the requeue
 * that looks again when the deadline would pass.
 */
final class DeploymentProgress {
    private DeploymentProgress() {
    }

    /** Progressing=Unknown DeploymentPaused / DeploymentResumed (DEP-47, DEP-48); a timeout is never overwritten. */
    static void checkPausedConditions(DeploymentStep step) {
        if (!step.hasProgressDeadline()) {
            return;
        }
        DeploymentCondition c = DeploymentConditions.get(step.status, PROGRESSING);
        if (c != null && "ProgressDeadlineExceeded".equals(c.getReason())) {
            return;
        }
        boolean pausedCondition = c != null && "DeploymentPaused".equals(c.getReason());
        if (step.paused() && !pausedCondition) {
            DeploymentConditions.set(step.status, DeploymentConditions.of(PROGRESSING, "Unknown", "DeploymentPaused",
                    "Deployment is paused", step.now));
        } else if (!step.paused() && pausedCondition) {
            DeploymentConditions.set(step.status, DeploymentConditions.of(PROGRESSING, "Unknown", "DeploymentResumed",
                    "Deployment is resumed", step.now));
        }
    }

    /** DEP-50 to DEP-54: Progressing from the progress made since the last status, the deadline, ReplicaFailure. */
    static void syncRolloutStatus(DeploymentStep step, ReplicaSet newRsIn) {
        ReplicaSet newRs = newRsIn == null ? null : step.current(newRsIn);
        DeploymentStatus next = DeploymentSync.calculateStatus(step, newRs);
        DeploymentStatus before = step.d.getStatus() == null ? new DeploymentStatus() : step.d.getStatus();
        step.status = next;
        if (!step.hasProgressDeadline()) {
            DeploymentConditions.remove(next, PROGRESSING);
        }
        DeploymentCondition current = DeploymentConditions.get(next, PROGRESSING);
        boolean completeBefore = n(next.getReplicas()) == n(next.getUpdatedReplicas()) && current != null
                && "NewReplicaSetAvailable".equals(current.getReason());
        String rsText = newRs == null ? "Deployment \"" + step.d.getMetadata().getName() + "\""
                : "ReplicaSet \"" + newRs.getMetadata().getName() + "\"";
        if (step.hasProgressDeadline() && !completeBefore) {
            if (complete(step, next)) {
                DeploymentConditions.set(next, DeploymentConditions.of(PROGRESSING, "True", "NewReplicaSetAvailable",
                        rsText + " has successfully progressed.", step.now));
            } else if (progressing(before, next)) {
                String text = newRs == null ? rsText + " is progressing."
                        : "Replica set \"" + newRs.getMetadata().getName() + "\" is progressing.";
                DeploymentCondition c = DeploymentConditions.of(PROGRESSING, "True", "ReplicaSetUpdated", text, step.now);
                // As upstream: progress moves lastUpdateTime even with the same reason, so the condition is replaced
                // rather than set (which would keep it); a True one keeps its transition time.
                if (current != null && "True".equals(current.getStatus())) {
                    c.setLastTransitionTime(current.getLastTransitionTime());
                }
                DeploymentConditions.remove(next, PROGRESSING);
                DeploymentConditions.set(next, c);
            } else if (timedOut(step)) {
                DeploymentConditions.set(next, DeploymentConditions.of(PROGRESSING, "False", "ProgressDeadlineExceeded",
                        rsText + " has timed out progressing.", step.now));
            }
        }
        DeploymentCondition failure = replicaFailure(step, newRs);
        if (failure != null) {
            DeploymentConditions.set(next, failure);
        } else {
            DeploymentConditions.remove(next, REPLICA_FAILURE);
        }
        requeueIfStuck(step);
    }

    /** Whether {@code s} says the rollout is done: every replica updated and available, the generation observed. */
    static boolean complete(DeploymentStep step, DeploymentStatus s) {
        if (s == null) {
            return false;
        }
        int dd = step.desired();
        long observed = s.getObservedGeneration() == null ? 0 : s.getObservedGeneration();
        long generation = step.d.getMetadata().getGeneration() == null ? 0 : step.d.getMetadata().getGeneration();
        return n(s.getUpdatedReplicas()) == dd && n(s.getReplicas()) == dd && n(s.getAvailableReplicas()) == dd
                && observed >= generation;
    }

    private static boolean progressing(DeploymentStatus before, DeploymentStatus next) {
        int oldBefore = n(before.getReplicas()) - n(before.getUpdatedReplicas());
        int oldNext = n(next.getReplicas()) - n(next.getUpdatedReplicas());
        return n(next.getUpdatedReplicas()) > n(before.getUpdatedReplicas()) || oldNext < oldBefore
                || n(next.getReadyReplicas()) > n(before.getReadyReplicas())
                || n(next.getAvailableReplicas()) > n(before.getAvailableReplicas());
    }

    private static boolean timedOut(DeploymentStep step) {
        DeploymentCondition c = DeploymentConditions.get(step.status, PROGRESSING);
        if (!step.hasProgressDeadline() || c == null || "NewReplicaSetAvailable".equals(c.getReason())) {
            return false;
        }
        if ("ProgressDeadlineExceeded".equals(c.getReason())) {
            return true;
        }
        Instant from = c.getLastUpdateTime() == null ? Instant.EPOCH : c.getLastUpdateTime();
        return from.plusSeconds(step.d.getSpec().getProgressDeadlineSeconds()).isBefore(step.now);
    }

    /** Look again when the progress deadline would pass (DEP-53). */
    private static void requeueIfStuck(DeploymentStep step) {
        DeploymentCondition c = DeploymentConditions.get(step.status, PROGRESSING);
        if (!step.hasProgressDeadline() || c == null || complete(step, step.status) || timedOut(step)
                || "NewReplicaSetAvailable".equals(c.getReason())) {
            return;
        }
        Instant from = c.getLastUpdateTime() == null ? step.now : c.getLastUpdateTime();
        Duration after = Duration.between(step.now, from.plusSeconds(step.d.getSpec().getProgressDeadlineSeconds()));
        step.requeueAfter = after.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ZERO : after.plusSeconds(1);
    }

    /** The new ReplicaSet's ReplicaFailure, else the first old one's (DEP-54). */
    private static DeploymentCondition replicaFailure(DeploymentStep step, ReplicaSet newRs) {
        List<ReplicaSet> order = new ArrayList<>();
        if (newRs != null) {
            order.add(newRs);
        }
        order.addAll(step.olds(newRs));
        for (ReplicaSet rs : order) {
            ReplicaSetCondition c = rs.getStatus() == null ? null
                    : Conditions.find(rs.getStatus().getConditions(), REPLICA_FAILURE).orElse(null);
            if (c != null) {
                return DeploymentCondition.newBuilder().setType(REPLICA_FAILURE).setStatus(c.getStatus())
                        .setReason(c.getReason()).setMessage(c.getMessage())
                        .setLastUpdateTime(c.getLastTransitionTime()).setLastTransitionTime(c.getLastTransitionTime())
                        .build();
            }
        }
        return null;
    }
}
