package io.eventplane.controllers.deployment;

import static io.eventplane.controllers.deployment.DeploymentAnnotations.DESIRED_REPLICAS;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.MAX_REPLICAS;
import static io.eventplane.controllers.deployment.DeploymentDecider.AVAILABLE;
import static io.eventplane.controllers.deployment.DeploymentStep.BY_CREATION;
import static io.eventplane.controllers.deployment.DeploymentStep.active;
import static io.eventplane.controllers.deployment.DeploymentStep.annotationsOf;
import static io.eventplane.controllers.deployment.DeploymentStep.available;
import static io.eventplane.controllers.deployment.DeploymentStep.spec;
import static io.eventplane.controllers.deployment.DeploymentStep.statusReplicas;

import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ReplicaSet;
import io.eventplane.reconcile.Action;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What upstream's sync.go does besides finding the new ReplicaSet ({@link DeploymentRevisions}): the step for a
 * paused or scaled Deployment (proportional scaling, DEP-36 to DEP-39, DEP-48), the history cleanup (DEP-43), the
 * status-only step of a Deployment being deleted, and {@link #calculateStatus}, the counts and Available condition.
 */
final class DeploymentSync {
    private DeploymentSync() {
    }

    /** A scaling event: some active ReplicaSet was sized for another replica count than the Deployment's now. */
    static boolean isScalingEvent(DeploymentStep step) {
        ReplicaSet newRs = DeploymentRevisions.syncRevision(step, false);
        for (ReplicaSet rs : active(step.all(newRs, step.olds(newRs)))) {
            Integer desired = DeploymentAnnotations.intValue(annotationsOf(rs), DESIRED_REPLICAS);
            if (desired != null && desired != step.desired()) {
                return true;
            }
        }
        return false;
    }

    /** Paused or scaled: proportional scaling (DEP-36 to DEP-39, DEP-48), history cleanup when paused, status. */
    static void syncScale(DeploymentStep step) {
        ReplicaSet newRs = DeploymentRevisions.syncRevision(step, false);
        List<ReplicaSet> olds = step.olds(newRs);
        scaleProportionally(step, newRs, olds);
        if (step.paused()) {
            cleanup(step, step.olds(newRs));
        }
        step.status = calculateStatus(step, newRs);
    }

    /** A Deployment being deleted: only its status. */
    static void syncStatusOnly(DeploymentStep step) {
        ReplicaSet newRs = DeploymentRevisions.syncRevision(step, false);
        step.status = calculateStatus(step, newRs);
    }

    private static void scaleProportionally(DeploymentStep step, ReplicaSet newRs, List<ReplicaSet> olds) {
        ReplicaSet activeOrLatest = activeOrLatest(step, newRs, olds);
        if (activeOrLatest != null) {
            step.scaleIfNeeded(activeOrLatest, step.desired());
            return;
        }
        if (isSaturated(step, newRs)) {
            for (ReplicaSet old : active(olds)) {
                step.scaleIfNeeded(old, 0);
            }
            return;
        }
        if (!RolloutMath.isRollingUpdate(step.d)) {
            return;
        }
        List<ReplicaSet> all = new ArrayList<>(active(step.all(newRs, olds)));
        int total = 0;
        for (ReplicaSet rs : all) {
            total += spec(rs);
        }
        int allowed = step.desired() > 0 ? step.desired() + RolloutMath.maxSurge(step.d) : 0;
        int toAdd = allowed - total;
        if (toAdd == 0) {
            return;
        }
        // larger first; ties: newer first when adding, older first when removing
        Comparator<ReplicaSet> bySize = Comparator.comparingInt((ReplicaSet rs) -> -spec(rs));
        all.sort(toAdd > 0 ? bySize.thenComparing(BY_CREATION.reversed()) : bySize.thenComparing(BY_CREATION));
        Map<String, Integer> sizes = new LinkedHashMap<>();
        int added = 0;
        for (ReplicaSet rs : all) {
            int proportion = proportion(step, rs, toAdd, added);
            sizes.put(rs.getMetadata().getName(), spec(rs) + proportion);
            added += proportion;
        }
        String first = all.get(0).getMetadata().getName();
        sizes.put(first, Math.max(0, sizes.get(first) + toAdd - added));
        for (ReplicaSet rs : all) {
            step.scale(rs, sizes.get(rs.getMetadata().getName()));
        }
    }

    /** DEP-39: round(rs × (D'+S') / previous max), capped by what is left to add or remove. */
    private static int proportion(DeploymentStep step, ReplicaSet rs, int toAdd, int added) {
        if (spec(rs) == 0 || toAdd == 0 || toAdd == added) {
            return 0;
        }
        int fraction;
        if (step.desired() == 0) {
            fraction = -spec(rs);
        } else {
            int allowed = step.desired() + RolloutMath.maxSurge(step.d);
            Integer annotated = DeploymentAnnotations.intValue(annotationsOf(rs), MAX_REPLICAS);
            int previous = annotated != null ? annotated
                    : (step.status.getReplicas() == null ? 0 : step.status.getReplicas());
            if (previous == 0) {
                fraction = 0;
            } else {
                fraction = (int) Math.round((double) spec(rs) * allowed / previous) - spec(rs);
            }
        }
        int left = toAdd - added;
        return toAdd > 0 ? Math.min(fraction, left) : Math.max(fraction, left);
    }

    private static ReplicaSet activeOrLatest(DeploymentStep step, ReplicaSet newRs, List<ReplicaSet> olds) {
        if (newRs == null && olds.isEmpty()) {
            return null;
        }
        List<ReplicaSet> newestFirst = new ArrayList<>(olds);
        newestFirst.sort(BY_CREATION.reversed());
        List<ReplicaSet> active = active(step.all(newRs, newestFirst));
        if (active.isEmpty()) {
            return newRs != null ? newRs : newestFirst.get(0);
        }
        return active.size() == 1 ? active.get(0) : null;
    }

    private static boolean isSaturated(DeploymentStep step, ReplicaSet newRs) {
        if (newRs == null) {
            return false;
        }
        ReplicaSet rs = step.current(newRs);
        Integer desired = DeploymentAnnotations.intValue(annotationsOf(rs), DESIRED_REPLICAS);
        return desired != null && desired == step.desired() && spec(rs) == step.desired()
                && available(rs) == step.desired();
    }

    /** DEP-43: old ReplicaSets beyond revisionHistoryLimit, lowest revision first, only when fully scaled down. */
    static void cleanup(DeploymentStep step, List<ReplicaSet> olds) {
        Integer limit = step.d.getSpec().getRevisionHistoryLimit();
        if (limit == null) {
            return;
        }
        List<ReplicaSet> cleanable = new ArrayList<>();
        for (ReplicaSet rs : olds) {
            if (rs.getMetadata().getDeletionTimestamp() == null && !step.created.contains(rs.getMetadata().getName())) {
                cleanable.add(step.current(rs));
            }
        }
        int diff = cleanable.size() - limit;
        if (diff <= 0) {
            return;
        }
        cleanable.sort(Comparator.comparingLong((ReplicaSet rs) -> DeploymentAnnotations.revision(annotationsOf(rs)))
                .thenComparing(BY_CREATION));
        for (int i = 0; i < diff; i++) {
            ReplicaSet rs = cleanable.get(i);
            long observed = rs.getStatus() == null || rs.getStatus().getObservedGeneration() == null ? 0
                    : rs.getStatus().getObservedGeneration();
            long generation = rs.getMetadata().getGeneration() == null ? 0 : rs.getMetadata().getGeneration();
            if (statusReplicas(rs) != 0 || spec(rs) != 0 || generation > observed
                    || !rs.equals(step.original.get(rs.getMetadata().getName()))) {
                continue;
            }
            ObjectMeta m = rs.getMetadata();
            step.actions.add(new Action.Delete(Kinds.REPLICA_SET, m.getNamespace(), m.getName(), m.getUid(), null, null));
            step.owned.remove(m.getName());
        }
    }

    /**
     * The status the owned ReplicaSets add up to (upstream's calculateStatus): counts from every one, updated replicas
     * from the new one, and Available from the minimum availability. Leaves the step's status as it is.
     */
    static DeploymentStatus calculateStatus(DeploymentStep step, ReplicaSet newRsIn) {
        int available = 0;
        int total = 0;
        int actual = 0;
        int ready = 0;
        for (ReplicaSet rs : step.owned.values()) {
            available += available(rs);
            total += spec(rs);
            actual += statusReplicas(rs);
            ready += rs.getStatus() == null || rs.getStatus().getReadyReplicas() == null ? 0 : rs.getStatus().getReadyReplicas();
        }
        ReplicaSet newRs = newRsIn == null ? null : step.current(newRsIn);
        DeploymentStatus status = step.status;
        DeploymentStatus next = DeploymentStatus.newBuilder(status)
                .setObservedGeneration(step.d.getMetadata().getGeneration())
                .setReplicas(actual)
                .setUpdatedReplicas(newRs == null ? 0 : statusReplicas(newRs))
                .setReadyReplicas(ready)
                .setAvailableReplicas(available)
                .setUnavailableReplicas(Math.max(0, total - available))
                .setConditions(status.getConditions() == null ? null : new ArrayList<>(status.getConditions()))
                .build();
        if (available >= step.desired() - RolloutMath.maxUnavailable(step.d)) {
            DeploymentConditions.set(next, DeploymentConditions.of(AVAILABLE, "True", "MinimumReplicasAvailable",
                    "Deployment has minimum availability.", step.now));
        } else {
            DeploymentConditions.set(next, DeploymentConditions.of(AVAILABLE, "False", "MinimumReplicasUnavailable",
                    "Deployment does not have minimum availability.", step.now));
        }
        return next;
    }
}
