package io.eventplane.controllers.job;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.Owners;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Job;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The job controller (kube-controller-manager's {@code job}) as a {@link Reconciler}: a Job is looked at when it or
 * one of its pods changes (or an orphan pod it could adopt); the step is {@link JobSync}'s. Its keys are Jobs, and
 * also pods that still carry the tracking finalizer while no unfinished Job controls them (their Job was deleted,
 * finished, or released them): for those the step removes the finalizer, as upstream's orphan-pod queue does.
 *
 * <p>The back-off record of each Job ({@link BackoffRecord}) lives here, in memory, as upstream's store does.
 */
public final class JobReconciler implements Reconciler {
    /** Pods by their controller's uid, or {@code orphan/<namespace>} for pods without a controller. */
    static final String PODS_BY_CONTROLLER = "job-pods-by-controller";

    private final Map<String, BackoffRecord> backoff = new ConcurrentHashMap<>();

    @Override
    public String kind() {
        return Kinds.JOB.kind();
    }

    @Override
    public void index(ClusterView view) {
        if (!view.hasIndex(PODS_BY_CONTROLLER)) {
            view.addIndex(PODS_BY_CONTROLLER, Kinds.POD.kind(), c -> Owners.controllerOf(((Pod) c.getObject()).getMetadata())
                    .map(OwnerReference::getUid).orElse("orphan/" + c.getNamespace()));
        }
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (change.getKind().equals(kind())) {
            Set<String> keys = new LinkedHashSet<>();
            keys.add(Keys.of(kind(), change.getNamespace(), change.getName()));
            if (change.getType() == ChangeType.DELETED) {
                // its pods' finalizers go now that no Job counts them
                for (ObjectChanged c : view.indexed(PODS_BY_CONTROLLER, change.getUid())) {
                    if (FinalizerTracking.hasFinalizer((Pod) c.getObject())) {
                        keys.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
                    }
                }
            }
            return keys;
        }
        if (!change.getKind().equals(Kinds.POD.kind())) {
            return List.of();
        }
        Pod pod = (Pod) change.getObject();
        Set<String> keys = new LinkedHashSet<>();
        Optional<OwnerReference> controller = Owners.controllerOf(pod.getMetadata());
        boolean gone = change.getType() == ChangeType.DELETED;
        if (controller.isPresent()) {
            if (kind().equals(controller.get().getKind())) {
                keys.add(Keys.of(kind(), change.getNamespace(), controller.get().getName()));
            }
        } else if (!gone) {
            // an orphan: every Job whose selector it matches may adopt it
            for (ObjectChanged c : view.list(kind(), change.getNamespace())) {
                Job job = (Job) c.getObject();
                if (job.getSpec() != null && !LabelSelectors.isEmpty(job.getSpec().getSelector())
                        && LabelSelectors.matches(job.getSpec().getSelector(), pod.getMetadata().getLabels())) {
                    keys.add(Keys.of(kind(), c.getNamespace(), c.getName()));
                }
            }
        }
        if (previous != null && previous.getObject() instanceof Pod before) {
            Owners.controllerOf(before.getMetadata()).filter(r -> kind().equals(r.getKind()))
                    .ifPresent(r -> keys.add(Keys.of(kind(), change.getNamespace(), r.getName())));
        }
        if (!gone && FinalizerTracking.hasFinalizer(pod) && orphaned(pod, view)) {
            keys.add(Keys.of(change.getKind(), change.getNamespace(), change.getName()));
        }
        return keys;
    }

    @Override
    public Collection<String> initialKeys(ClusterView view) {
        List<String> keys = new ArrayList<>(Reconciler.super.initialKeys(view));
        for (ObjectChanged c : view.list(Kinds.POD.kind(), null)) {
            Pod p = (Pod) c.getObject();
            if (FinalizerTracking.hasFinalizer(p) && orphaned(p, view)) {
                keys.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
            }
        }
        return keys;
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        Optional<ObjectChanged> current = view.get(key);
        if (Keys.kind(key).equals(Kinds.POD.kind())) {
            return current.map(c -> orphanPod((Pod) c.getObject(), view)).orElse(Reconciliation.NOTHING);
        }
        if (current.isEmpty()) {
            backoff.remove(key);
            return Reconciliation.NOTHING;
        }
        Job job = (Job) current.get().getObject();
        JobSync.Decision d = JobSync.sync(job, candidates(view, job), backoff.getOrDefault(key, BackoffRecord.NONE), now);
        if (d.backoff() == null || d.backoff() == BackoffRecord.NONE) {
            backoff.remove(key);
        } else {
            backoff.put(key, d.backoff());
        }
        return new Reconciliation(d.actions(), d.events(), d.requeueAfter() == null ? null
                : d.requeueAfter().plusMillis(10));
    }

    /**
     * The pods a step for {@code job} can concern: those it controls, the namespace's orphans (it may adopt them) and
     * those whose names start with its pods' name prefix (a new pod's name must be free).
     */
    static List<Pod> candidates(ClusterView view, Job job) {
        String namespace = job.getMetadata().getNamespace();
        Map<String, Pod> byName = new TreeMap<>();
        if (!view.hasIndex(PODS_BY_CONTROLLER)) {
            view.list(Kinds.POD.kind(), namespace).forEach(c -> byName.put(c.getName(), (Pod) c.getObject()));
            return new ArrayList<>(byName.values());
        }
        for (ObjectChanged c : view.indexed(PODS_BY_CONTROLLER, job.getMetadata().getUid())) {
            byName.put(c.getName(), (Pod) c.getObject());
        }
        for (ObjectChanged c : view.indexed(PODS_BY_CONTROLLER, "orphan/" + namespace)) {
            byName.put(c.getName(), (Pod) c.getObject());
        }
        for (ObjectChanged c : view.listByNamePrefix(Kinds.POD.kind(), namespace,
                JobPods.namePrefix(job.getMetadata().getName()))) {
            byName.put(c.getName(), (Pod) c.getObject());
        }
        return new ArrayList<>(byName.values());
    }

    /**
     * No unfinished Job counts this pod: it has no controller, or its controller Job is gone (or is another with the
     * same name), or finished. A pod controlled by something else than a Job is left alone.
     */
    static boolean orphaned(Pod pod, ClusterView view) {
        Optional<OwnerReference> ref = Owners.controllerOf(pod.getMetadata());
        if (ref.isEmpty()) {
            return true;
        }
        if (!Kinds.JOB.kind().equals(ref.get().getKind()) || !Kinds.JOB.apiVersion().equals(ref.get().getApiVersion())) {
            return false;
        }
        Optional<Job> job = view.get(Kinds.JOB.kind(), pod.getMetadata().getNamespace(), ref.get().getName())
                .map(c -> (Job) c.getObject()).filter(j -> ref.get().getUid().equals(j.getMetadata().getUid()));
        if (job.isEmpty()) {
            return true;
        }
        String managedBy = job.get().getSpec() == null ? null : job.get().getSpec().getManagedBy();
        if (managedBy != null && !JobSync.CONTROLLER_NAME.equals(managedBy)) {
            return false;
        }
        return JobConditions.isFinished(job.get());
    }

    /** Upstream's syncOrphanPod: the finalizer goes if the pod is still orphaned. */
    private static Reconciliation orphanPod(Pod pod, ClusterView view) {
        if (!FinalizerTracking.hasFinalizer(pod) || !orphaned(pod, view)) {
            return Reconciliation.NOTHING;
        }
        return Reconciliation.of(List.of(FinalizerTracking.removeFinalizer(pod)));
    }
}
