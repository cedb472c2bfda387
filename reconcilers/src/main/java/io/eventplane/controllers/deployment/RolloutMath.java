package io.eventplane.controllers.deployment;

import io.eventplane.core.meta.IntOrPercent;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentStrategy;
import io.eventplane.model.RollingUpdateDeployment;

/**
 * The RollingUpdate arithmetic (DEP-08, DEP-09, DEP-25, DEP-32): maxSurge rounds up, maxUnavailable rounds down, and
 * when both resolve to 0 maxUnavailable is 1; the new ReplicaSet's next size. Pure.
 */
public final class RolloutMath {
    private RolloutMath() {
    }

    public static boolean isRollingUpdate(Deployment d) {
        DeploymentStrategy s = d.getSpec().getStrategy();
        return s == null || s.getType() == null || "RollingUpdate".equals(s.getType());
    }

    public static int replicas(Deployment d) {
        Integer r = d.getSpec().getReplicas();
        return r == null ? 1 : r;
    }

    /** {surge, unavailable} against {@code desired}. */
    public static int[] fenceposts(Object maxSurge, Object maxUnavailable, int desired) {
        int surge = IntOrPercent.resolve(maxSurge == null ? "25%" : maxSurge, desired, true);
        int unavailable = IntOrPercent.resolve(maxUnavailable == null ? "25%" : maxUnavailable, desired, false);
        if (surge == 0 && unavailable == 0) {
            unavailable = 1;
        }
        return new int[] {surge, unavailable};
    }

    private static int[] fenceposts(Deployment d, int desired) {
        RollingUpdateDeployment ru = d.getSpec().getStrategy() == null ? null : d.getSpec().getStrategy().getRollingUpdate();
        return fenceposts(ru == null ? null : ru.getMaxSurge(), ru == null ? null : ru.getMaxUnavailable(), desired);
    }

    /**
     * The new ReplicaSet's next size (DEP-32) when it has {@code newSpec} and all owned ReplicaSets {@code total}:
     * up to D+S in total and at most D; Recreate goes straight to D.
     */
    public static int newReplicas(Deployment d, int newSpec, int total) {
        if (!isRollingUpdate(d)) {
            return replicas(d);
        }
        int maxTotal = replicas(d) + maxSurge(d);
        if (total >= maxTotal) {
            return newSpec;
        }
        int scaleUp = Math.min(maxTotal - total, replicas(d) - newSpec);
        return newSpec + Math.max(0, scaleUp);
    }

    /** maxSurge as a number of pods; 0 for Recreate. */
    public static int maxSurge(Deployment d) {
        if (!isRollingUpdate(d)) {
            return 0;
        }
        return fenceposts(d, replicas(d))[0];
    }

    /** maxUnavailable as a number of pods, at most the replicas; 0 for Recreate or no replicas. */
    public static int maxUnavailable(Deployment d) {
        int desired = replicas(d);
        if (!isRollingUpdate(d) || desired == 0) {
            return 0;
        }
        return Math.min(fenceposts(d, desired)[1], desired);
    }
}
