package io.eventplane.controllers.deployment;

import static io.eventplane.controllers.deployment.DeploymentStep.active;

import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The Recreate strategy (upstream's recreate.go, DEP-35): every old ReplicaSet goes to 0 first; the new one is
 * created, at full size, only once no old pod is left in the API.
 */
final class RecreateRollout {
    private RecreateRollout() {
    }

    static void rollout(DeploymentStep step) {
        ReplicaSet newRs = DeploymentRevisions.syncRevision(step, false);
        boolean scaledDown = false;
        for (ReplicaSet old : active(step.olds(newRs))) {
            scaledDown |= step.scaleIfNeeded(old, 0);
        }
        if (scaledDown || oldPodsRunning(step, newRs)) {
            DeploymentProgress.syncRolloutStatus(step, newRs);
            return;
        }
        if (newRs == null) {
            newRs = DeploymentRevisions.syncRevision(step, true);
            if (newRs == null) {
                step.status = DeploymentSync.calculateStatus(step, null);
                return;
            }
        }
        step.scaleIfNeeded(newRs, step.desired());
        if (DeploymentProgress.complete(step, step.d.getStatus())) {
            DeploymentSync.cleanup(step, step.olds(newRs));
        }
        DeploymentProgress.syncRolloutStatus(step, newRs);
    }

    /** An old ReplicaSet still reports pods, or a pod it controls is not terminal yet. */
    private static boolean oldPodsRunning(DeploymentStep step, ReplicaSet newRs) {
        List<ReplicaSet> olds = step.olds(newRs);
        for (ReplicaSet rs : olds) {
            if (rs.getStatus() != null && rs.getStatus().getReplicas() != null && rs.getStatus().getReplicas() > 0) {
                return true;
            }
        }
        Set<String> oldUids = new HashSet<>();
        for (ReplicaSet rs : olds) {
            oldUids.add(rs.getMetadata().getUid());
        }
        for (Pod p : step.pods) {
            Optional<OwnerReference> c = Owners.controllerOf(p.getMetadata());
            if (c.isPresent() && oldUids.contains(c.get().getUid()) && !PodStates.isTerminal(p)) {
                return true;
            }
        }
        return false;
    }
}
