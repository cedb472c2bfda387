package io.eventplane.controllers.statefulset;

import io.eventplane.controllers.history.Revisions;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetStatus;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * One level-triggered step of the StatefulSet controller for one set (Kubernetes' sync and UpdateStatefulSet,
 * stateful_set_control.go): claim its pods (STS-07), make its revision history current ({@link StatefulSetHistory}),
 * then update the set:
 * <ol>
 *   <li>every ordinal in {@code start .. start+replicas-1} gets its pod, of the current revision below the partition
 *   and of the update revision from it (STS-08, STS-09, STS-23, STS-X02); a failed pod is deleted and, once gone,
 *   created again under its name (STS-13); under OrderedReady one at a time, each after its predecessors are Running,
 *   Ready and available (STS-15, STS-16, STS-X04), under Parallel all at once (STS-18);</li>
 *   <li>pods beyond the range are condemned: their claims' references set for whenScaled (STS-X03), then they are
 *   deleted, under OrderedReady from the highest ordinal, one at a time, only while every other pod is healthy
 *   (STS-15, STS-17);</li>
 *   <li>under RollingUpdate, pods of another revision from the partition up are deleted from the highest ordinal,
 *   at most maxUnavailable at a time and only while no more are unavailable, and step 1 recreates them at the update
 *   revision (STS-22, STS-23, STS-X04); OnDelete waits for the user (STS-21). A pod of the new revision that never
 *   becomes Ready stops the rollout, also after the template is reverted, until it is deleted (STS-24);</li>
 * </ol>
 * then writes the status ({@link StatefulSetStatusUpdater}) and truncates the history. Pure.
 */
final class StatefulSetControl {
    /** Kubernetes' MaxBatchSize: at most this many pods asked for in one Parallel step. */
    static final int MAX_BATCH = 500;

    /**
     * What one step reads.
     *
     * @param pods      the namespace's pods named {@code <set>-...} (the only ones the set may own or adopt)
     * @param revisions the namespace's ControllerRevisions
     * @param claims    the set's claims ({@code <template>-<set>-...}) by name
     */
    record Observed(StatefulSet set, Collection<Pod> pods, Collection<ControllerRevision> revisions,
                    Map<String, PersistentVolumeClaim> claims) {
    }

    private final StatefulSet set;
    private final Instant now;
    private final int minReadySeconds;
    private final boolean deleting;
    private final List<Action> actions = new ArrayList<>();
    private final StatefulPodControl podControl;
    /** The pods the set controls, claimed this step. */
    private final List<Pod> owned = new ArrayList<>();

    private StatefulSetControl(Observed o, Instant now) {
        this.set = o.set();
        this.now = now;
        this.minReadySeconds = StatefulPods.minReadySeconds(set);
        this.deleting = set.getMetadata().getDeletionTimestamp() != null;
        this.podControl = new StatefulPodControl(set, o.claims());
    }

    static Reconciliation sync(Observed o, Instant now) {
        StatefulSet set = o.set();
        if (set.getSpec() == null || set.getMetadata() == null || set.getMetadata().getUid() == null
                || set.getSpec().getTemplate() == null || LabelSelectors.isEmpty(set.getSpec().getSelector())) {
            return Reconciliation.NOTHING;
        }
        return new StatefulSetControl(o, now).step(o);
    }

    private Reconciliation step(Observed o) {
        claimPods(o.pods());
        StatefulSetHistory.Revs revs = StatefulSetHistory.revisions(set, o.revisions());
        if (!revs.ready()) {
            if (deleting) {
                return Reconciliation.NOTHING; // no new revision for a set on its way out
            }
            actions.addAll(revs.actions());
            StatefulSetStatus s = set.getStatus() == null ? new StatefulSetStatus() : set.getStatus();
            StatefulSetStatusUpdater.update(set, StatefulSetStatus.newBuilder(s)
                    .setCollisionCount(revs.collisionCount()).build()).ifPresent(actions::add);
            return result(null);
        }
        if (!deleting) {
            actions.addAll(revs.actions());
        }
        StatefulSetStatus status = updateStatefulSet(revs);
        StatefulSetStatusUpdater.update(set, status).ifPresent(actions::add);
        if (!deleting) {
            actions.addAll(StatefulSetHistory.truncate(set, revs, owned));
        }
        return result(untilAvailable());
    }

    private Reconciliation result(Duration requeueAfter) {
        List<Action> all = new ArrayList<>(actions);
        all.addAll(podControl.actions);
        return new Reconciliation(all, podControl.events, requeueAfter);
    }

    /** When the next Ready pod becomes available (minReadySeconds), as Kubernetes' sync re-queues the set. */
    private Duration untilAvailable() {
        Duration soonest = null;
        for (Pod p : owned) {
            Optional<Duration> d = PodStates.untilAvailable(p, minReadySeconds, now);
            if (d.isPresent() && (soonest == null || d.get().compareTo(soonest) < 0)) {
                soonest = d.get();
            }
        }
        return soonest == null ? null : soonest.plusMillis(10);
    }

    // ------------------------------------------------------------------ claiming (getPodsForStatefulSet)

    /**
     * Kubernetes' ClaimPods with the isMemberOf filter: a pod of the set's that no longer matches (selector, or a name
     * that is not {@code <set>-<ordinal>}) is released; a matching orphan is adopted, unless either is being deleted.
     */
    private void claimPods(Collection<Pod> pods) {
        String uid = set.getMetadata().getUid();
        OwnerReference ref = Owners.controllerRef(Kinds.STATEFUL_SET, set.getMetadata());
        for (Pod pod : pods) {
            ObjectMeta meta = pod.getMetadata();
            if (!Objects.equals(meta.getNamespace(), set.getMetadata().getNamespace())) {
                continue;
            }
            boolean matches = LabelSelectors.matches(set.getSpec().getSelector(), meta.getLabels())
                    && StatefulPods.isMemberOf(set, pod);
            Optional<OwnerReference> controller = Owners.controllerOf(meta);
            if (controller.isPresent()) {
                if (!uid.equals(controller.get().getUid())) {
                    continue;
                }
                if (matches) {
                    owned.add(pod);
                } else if (!deleting) {
                    actions.add(new Action.Update(Pod.newBuilder(pod).setMetadata(Owners.release(meta, uid)).build()));
                }
            } else if (matches && !deleting && !PodStates.isTerminating(pod)) {
                Pod adopted = Pod.newBuilder(pod).setMetadata(Owners.adopt(meta, ref)).build();
                actions.add(new Action.Update(adopted));
                owned.add(adopted);
            }
        }
    }

    // ------------------------------------------------------------------ updateStatefulSet

    private StatefulSetStatus updateStatefulSet(StatefulSetHistory.Revs revs) {
        String currentName = revs.current().getMetadata().getName();
        String updateName = revs.update().getMetadata().getName();
        PodTemplateSpec currentTemplate = templateOf(revs.current());
        PodTemplateSpec updateTemplate = templateOf(revs.update());
        StatefulSetStatusUpdater.Counts counts = StatefulSetStatusUpdater.count(owned, minReadySeconds, now,
                currentName, updateName);

        int start = StatefulPods.startOrdinal(set);
        Pod[] replicas = new Pod[StatefulPods.replicas(set)];
        List<Pod> condemned = new ArrayList<>();
        for (Pod pod : owned) {
            if (StatefulPods.inOrdinalRange(set, pod)) {
                replicas[StatefulPods.ordinal(pod) - start] = pod;
            } else if (StatefulPods.ordinal(pod) >= 0) {
                condemned.add(pod);
            }
        }
        for (int i = 0; i < replicas.length; i++) {
            if (replicas[i] == null) {
                replicas[i] = newVersionedPod(currentTemplate, updateTemplate, currentName, updateName, start + i);
            }
        }
        condemned.sort(Comparator.comparingInt((Pod p) -> StatefulPods.ordinal(p)).reversed());
        List<Pod> all = new ArrayList<>(List.of(replicas));
        all.addAll(condemned);

        // the first unhealthy pod: among the replicas in order, else among the condemned from the lowest ordinal
        Pod firstUnavailable = null;
        for (Pod p : replicas) {
            if (firstUnavailable == null && StatefulPods.isUnavailable(p, minReadySeconds, now)) {
                firstUnavailable = p;
            }
        }
        for (int i = condemned.size() - 1; i >= 0 && firstUnavailable == null; i--) {
            if (StatefulPods.isUnavailable(condemned.get(i), minReadySeconds, now)) {
                firstUnavailable = condemned.get(i);
            }
        }
        if (deleting) {
            return status(counts, revs);
        }
        boolean monotonic = !StatefulPods.allowsBurst(set);

        if (runForAll(replicas.length, i -> processReplica(replicas[i], monotonic), monotonic)) {
            return status(recount(all, currentName, updateName), revs);
        }
        // the condemned pods' claims first take the references whenScaled asks for, then the pods go
        boolean claimsFixed = false;
        for (Pod pod : condemned) {
            if (!podControl.claimsMatchRetention(pod)) {
                claimsFixed |= podControl.updateClaimsForRetention(pod);
            }
        }
        if (claimsFixed) {
            return status(recount(all, currentName, updateName), revs);
        }
        Pod firstUnhealthy = firstUnavailable;
        if (runForAll(condemned.size(), i -> processCondemned(condemned.get(i), firstUnhealthy, monotonic), monotonic)) {
            return status(recount(all, currentName, updateName), revs);
        }
        StatefulSetStatusUpdater.Counts after = recount(all, currentName, updateName);
        if (StatefulPods.ON_DELETE.equals(StatefulPods.strategyType(set))) {
            return status(after, revs); // STS-21: pods change only when the user deletes them
        }
        return status(after.minusCurrent(rollingUpdate(replicas, updateName)), revs);
    }

    private PodTemplateSpec templateOf(ControllerRevision r) {
        PodTemplateSpec t = Revisions.template(r);
        return t == null ? set.getSpec().getTemplate() : t;
    }

    private StatefulSetStatusUpdater.Counts recount(List<Pod> pods, String currentName, String updateName) {
        return StatefulSetStatusUpdater.count(pods, minReadySeconds, now, currentName, updateName);
    }

    private StatefulSetStatus status(StatefulSetStatusUpdater.Counts counts, StatefulSetHistory.Revs revs) {
        return StatefulSetStatusUpdater.status(set, counts, revs.current().getMetadata().getName(),
                revs.update().getMetadata().getName(), revs.collisionCount());
    }

    /**
     * Kubernetes' newVersionedStatefulSetPod: below the partition (or, with RollingUpdate but no parameters, below the
     * number of current replicas) a new pod is of the current revision, else of the update revision (under OnDelete
     * always the update revision: the current template, STS-21).
     */
    private Pod newVersionedPod(PodTemplateSpec current, PodTemplateSpec update, String currentName, String updateName,
                                int ordinal) {
        int start = StatefulPods.startOrdinal(set);
        boolean rolling = StatefulPods.ROLLING_UPDATE.equals(StatefulPods.strategyType(set));
        int currentReplicas = set.getStatus() == null || set.getStatus().getCurrentReplicas() == null ? 0
                : set.getStatus().getCurrentReplicas();
        boolean old = StatefulPods.rollingUpdate(set) == null
                ? rolling && ordinal < start + currentReplicas
                : ordinal < start + StatefulPods.partition(set);
        return old ? StatefulPods.newPod(set, current, ordinal, currentName)
                : StatefulPods.newPod(set, update, ordinal, updateName);
    }

    /**
     * Kubernetes' runForAll: under OrderedReady one after the other until one says stop; under Parallel all of them
     * (up to {@link #MAX_BATCH} pod commands a step). Answers whether the step stops here.
     */
    private boolean runForAll(int n, IntPredicate fn, boolean monotonic) {
        for (int i = 0; i < n; i++) {
            boolean stop = fn.test(i);
            if (monotonic && stop) {
                return true;
            }
            if (!monotonic && podControl.actions.size() >= MAX_BATCH) {
                return true;
            }
        }
        return false;
    }

    /** Kubernetes' processReplica; answers whether an OrderedReady step stops at this pod. */
    private boolean processReplica(Pod pod, boolean monotonic) {
        if (StatefulPods.isFailed(pod) || StatefulPods.isSucceeded(pod)) {
            if (!PodStates.isTerminating(pod)) {
                podControl.deletePod(pod); // STS-13: created again under its name once it is gone
            }
            return true;
        }
        if (!StatefulPods.isCreated(pod)) {
            if (podControl.claimIsStale(pod)) {
                return true;
            }
            podControl.createPod(pod);
            return monotonic;
        }
        if (StatefulPods.isPending(pod)) {
            podControl.createMissingClaims(pod);
        }
        if (monotonic && (PodStates.isTerminating(pod) || !StatefulPods.isRunningAndReady(pod)
                || !StatefulPods.isRunningAndAvailable(pod, minReadySeconds, now))) {
            return true;
        }
        if (StatefulPods.identityMatches(set, pod) && StatefulPods.storageMatches(set, pod)
                && podControl.claimsMatchRetention(pod)) {
            return false;
        }
        podControl.updatePod(pod);
        return false;
    }

    /** Kubernetes' processCondemned; answers whether an OrderedReady step stops at this pod. */
    private boolean processCondemned(Pod pod, Pod firstUnhealthy, boolean monotonic) {
        if (PodStates.isTerminating(pod)) {
            return monotonic; // STS-17: the next one waits until this one is gone
        }
        if (monotonic && pod != firstUnhealthy && (!StatefulPods.isRunningAndReady(pod)
                || !StatefulPods.isRunningAndAvailable(pod, minReadySeconds, now))) {
            return true;
        }
        podControl.deletePod(pod);
        return true;
    }

    /**
     * The RollingUpdate (Kubernetes' updateStatefulSetAfterInvariantEstablished, STS-22, STS-23, STS-X04): with at
     * most maxUnavailable replicas unavailable, delete the pods of another revision from the highest ordinal down to
     * the partition until that many are. Answers how many it deleted.
     */
    private int rollingUpdate(Pod[] replicas, String updateName) {
        int maxUnavailable = StatefulPods.maxUnavailable(set);
        int unavailable = 0;
        for (Pod p : replicas) {
            if (StatefulPods.isUnavailable(p, minReadySeconds, now)) {
                unavailable++;
            }
        }
        if (unavailable > maxUnavailable) {
            return 0;
        }
        int toDelete = maxUnavailable - unavailable;
        int deleted = 0;
        for (int target = replicas.length - 1; target >= StatefulPods.partition(set) && deleted < toDelete; target--) {
            Pod p = replicas[target];
            if (StatefulPods.isCreated(p) && !podControl.touched(p) && !PodStates.isTerminating(p)
                    && !StatefulPods.revision(p).equals(updateName)) {
                podControl.deletePod(p);
                deleted++;
            }
        }
        return deleted;
    }
}
