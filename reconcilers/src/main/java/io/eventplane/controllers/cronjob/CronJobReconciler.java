package io.eventplane.controllers.cronjob;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.CronJob;
import io.eventplane.model.Job;
import io.eventplane.model.OwnerReference;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The CronJob controller (kube-controller-manager's {@code cronjob}) as a {@link Reconciler}: a CronJob is looked at
 * when it changes, when a Job it controls changes or goes, and at its next scheduled time (the decision's
 * requeueAfter). The decision is {@link CronJobDecider}'s.
 */
public final class CronJobReconciler implements Reconciler {
    /** Jobs by their controller's uid. */
    static final String JOBS_BY_CONTROLLER = "jobs-by-controller";

    private final ZoneId zone;

    /** Schedules without a timeZone use this process's zone, as kube-controller-manager's (CJ-02). */
    public CronJobReconciler() {
        this(ZoneId.systemDefault());
    }

    public CronJobReconciler(ZoneId zone) {
        this.zone = zone;
    }

    @Override
    public String kind() {
        return Kinds.CRON_JOB.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (change.getKind().equals(kind())) {
            return List.of(Keys.of(kind(), change.getNamespace(), change.getName()));
        }
        if (!change.getKind().equals(Kinds.JOB.kind())) {
            return List.of();
        }
        Set<String> keys = new LinkedHashSet<>();
        owner(change).ifPresent(keys::add);
        if (previous != null) {
            owner(previous).ifPresent(keys::add); // a Job whose controller changed concerns the old one too
        }
        return keys;
    }

    private static Optional<String> owner(ObjectChanged c) {
        return Owners.controllerOf(((Job) c.getObject()).getMetadata())
                .filter(r -> Kinds.CRON_JOB.kind().equals(r.getKind()))
                .map(r -> Keys.of(Kinds.CRON_JOB.kind(), c.getNamespace(), r.getName()));
    }

    @Override
    public void index(ClusterView view) {
        if (!view.hasIndex(JOBS_BY_CONTROLLER)) {
            view.addIndex(JOBS_BY_CONTROLLER, Kinds.JOB.kind(), c -> Owners.controllerOf(((Job) c.getObject()).getMetadata())
                    .map(OwnerReference::getUid).orElse(null));
        }
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        Optional<ObjectChanged> current = view.get(key);
        if (current.isEmpty()) {
            return Reconciliation.NOTHING;
        }
        CronJob cj = (CronJob) current.get().getObject();
        if (cj.getMetadata() == null || cj.getMetadata().getUid() == null) {
            return Reconciliation.NOTHING;
        }
        String ns = Keys.namespace(key);
        List<Job> jobs = new ArrayList<>();
        String uid = cj.getMetadata().getUid();
        Collection<ObjectChanged> candidates = view.hasIndex(JOBS_BY_CONTROLLER) ? view.indexed(JOBS_BY_CONTROLLER, uid)
                : view.list(Kinds.JOB.kind(), ns);
        for (ObjectChanged c : candidates) {
            Job j = (Job) c.getObject();
            if (Owners.isControlledBy(j.getMetadata(), uid)) {
                jobs.add(j);
            }
        }
        return CronJobDecider.decide(cj, jobs, name -> view.get(Kinds.JOB.kind(), ns, name).isPresent(), now, zone);
    }
}
