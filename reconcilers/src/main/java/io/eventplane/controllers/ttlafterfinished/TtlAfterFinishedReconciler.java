package io.eventplane.controllers.ttlafterfinished;

import io.eventplane.client.ClusterView;
import io.eventplane.controllers.job.JobConditions;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Job;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The TTL-after-finished controller (kube-controller-manager's {@code ttl-after-finished}, workloads.md §7): a Job
 * that finished (Complete or Failed) and has {@code spec.ttlSecondsAfterFinished = T} is deleted T seconds after it
 * finished, measured from its Complete or Failed condition's lastTransitionTime (TTL-02, TTL-X01), together with its
 * pods (TTL-04). A Job without the field is never deleted (TTL-03); the field may be set or changed at any time
 * (TTL-05): every change of the Job is looked at again.
 *
 * <p>The step asks to be woken when the TTL expires ({@link Reconciliation#requeueAfter}). The delete carries the
 * resourceVersion it was decided on, so a Job changed since (its TTL extended, TTL-X01's re-check) is not deleted: the
 * writer refuses the delete and the next step decides on the changed Job. Deletion cascades in the background, as the
 * issue asks (upstream kube-controller-manager asks for Foreground); the garbage collector then deletes the pods, and
 * the job controller removes their tracking finalizers.
 */
public final class TtlAfterFinishedReconciler implements Reconciler {
    static final String PROPAGATION = "Background";

    @Override
    public String kind() {
        return Kinds.JOB.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (!change.getKind().equals(kind())) {
            return List.of();
        }
        return List.of(Keys.of(kind(), change.getNamespace(), change.getName()));
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        return view.get(key).map(c -> decide((Job) c.getObject(), now)).orElse(Reconciliation.NOTHING);
    }

    /** Delete the Job now, or look again when its TTL expires, or nothing (no TTL, not finished, being deleted). */
    static Reconciliation decide(Job job, Instant now) {
        Optional<Instant> expireAt = expireAt(job);
        if (expireAt.isEmpty() || job.getMetadata().getDeletionTimestamp() != null) {
            return Reconciliation.NOTHING;
        }
        if (now.isBefore(expireAt.get())) {
            return Reconciliation.after(Duration.between(now, expireAt.get()).plusMillis(10));
        }
        var meta = job.getMetadata();
        return Reconciliation.of(List.of(new Action.Delete(Kinds.JOB, meta.getNamespace(), meta.getName(), meta.getUid(),
                meta.getResourceVersion(), PROPAGATION, null, null, null)));
    }

    /** When a finished Job with a TTL becomes eligible for deletion: finish time plus the TTL (TTL-02, TTL-03). */
    static Optional<Instant> expireAt(Job job) {
        if (job.getSpec() == null || job.getSpec().getTtlSecondsAfterFinished() == null) {
            return Optional.empty();
        }
        return JobConditions.finishTime(job).map(t -> t.plusSeconds(job.getSpec().getTtlSecondsAfterFinished()));
    }
}
