package io.eventplane.controllers.deployment;

import static io.eventplane.controllers.deployment.DeploymentStep.active;
import static io.eventplane.controllers.deployment.DeploymentStep.available;
import static io.eventplane.controllers.deployment.DeploymentStep.spec;

import io.eventplane.model.ReplicaSet;
import java.util.List;

/**
 * The RollingUpdate strategy (upstream's rolling.go, DEP-32): scale the new ReplicaSet up to at most D+S pods in all,
 * then, on a later step that sees the result, old ones down, never below D−U available. One change per step: when the
 * new ReplicaSet grew, the old ones wait for the next step.
 */
final class RollingRollout {
    private RollingRollout() {
    }

    static void rollout(DeploymentStep step) {
        ReplicaSet newRs = DeploymentRevisions.syncRevision(step, true);
        if (newRs == null) {
            step.status = DeploymentSync.calculateStatus(step, null); // a name collision was counted; the next step retries
            return;
        }
        if (reconcileNew(step, newRs)) {
            DeploymentProgress.syncRolloutStatus(step, newRs);
            return;
        }
        if (reconcileOld(step, newRs)) {
            DeploymentProgress.syncRolloutStatus(step, newRs);
            return;
        }
        if (DeploymentProgress.complete(step, step.d.getStatus())) {
            DeploymentSync.cleanup(step, step.olds(newRs));
        }
        DeploymentProgress.syncRolloutStatus(step, newRs);
    }

    private static boolean reconcileNew(DeploymentStep step, ReplicaSet newRs) {
        ReplicaSet rs = step.current(newRs);
        if (spec(rs) == step.desired()) {
            return false;
        }
        if (spec(rs) > step.desired()) {
            return step.scale(rs, step.desired());
        }
        return step.scale(rs, RolloutMath.newReplicas(step.d, spec(rs), step.ownedReplicas()));
    }

    /** DEP-32: first unhealthy old pods, then old ReplicaSets oldest first, never below D−U available. */
    private static boolean reconcileOld(DeploymentStep step, ReplicaSet newRsIn) {
        ReplicaSet newRs = step.current(newRsIn);
        List<ReplicaSet> olds = active(step.olds(newRs));
        int oldPods = 0;
        for (ReplicaSet rs : olds) {
            oldPods += spec(rs);
        }
        if (oldPods == 0) {
            return false;
        }
        int allPods = oldPods + spec(newRs);
        int minAvailable = step.desired() - RolloutMath.maxUnavailable(step.d);
        int newUnavailable = spec(newRs) - available(newRs);
        int maxScaledDown = allPods - minAvailable - newUnavailable;
        if (maxScaledDown <= 0) {
            return false;
        }
        int cleaned = cleanupUnhealthy(step, olds, maxScaledDown);
        int scaledDown = scaleDownOld(step, newRs, active(step.olds(newRs)));
        return cleaned + scaledDown > 0;
    }

    private static int cleanupUnhealthy(DeploymentStep step, List<ReplicaSet> olds, int maxCleanup) {
        int total = 0;
        for (ReplicaSet rs : olds) {
            if (total >= maxCleanup) {
                break;
            }
            ReplicaSet cur = step.current(rs);
            if (spec(cur) == 0 || spec(cur) == available(cur)) {
                continue;
            }
            int down = Math.min(maxCleanup - total, spec(cur) - available(cur));
            step.scale(cur, spec(cur) - down);
            total += down;
        }
        return total;
    }

    private static int scaleDownOld(DeploymentStep step, ReplicaSet newRs, List<ReplicaSet> olds) {
        int minAvailable = step.desired() - RolloutMath.maxUnavailable(step.d);
        int available = available(newRs);
        for (ReplicaSet rs : olds) {
            available += available(rs);
        }
        if (available <= minAvailable) {
            return 0;
        }
        int totalDown = available - minAvailable;
        int total = 0;
        for (ReplicaSet rs : olds) {
            if (total >= totalDown) {
                break;
            }
            ReplicaSet cur = step.current(rs);
            if (spec(cur) == 0) {
                continue;
            }
            int down = Math.min(spec(cur), totalDown - total);
            step.scale(cur, spec(cur) - down);
            total += down;
        }
        return total;
    }
}
