package io.eventplane.controllers.statefulset;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.Owners;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.StatefulSet;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The StatefulSet controller (workloads.md §3) as a {@link Reconciler}, with Kubernetes' event handlers
 * (stateful_set.go): a set is looked at when it changes; when a pod it controls changes (or an orphan it could adopt
 * appears or is relabelled); when one of its ControllerRevisions changes; and when one of its claims goes or starts
 * going, or its owner references change (a pod may wait for a claim that is being deleted). The step is
 * {@link StatefulSetControl}'s.
 */
public final class StatefulSetReconciler implements Reconciler {

    @Override
    public String kind() {
        return Kinds.STATEFUL_SET.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        String kind = change.getKind();
        if (kind.equals(Kinds.STATEFUL_SET.kind())) {
            return List.of(Keys.of(kind, change.getNamespace(), change.getName()));
        }
        if (kind.equals(Kinds.POD.kind())) {
            return ownedKeys(((Pod) change.getObject()).getMetadata(),
                    previous == null ? null : ((Pod) previous.getObject()).getMetadata(), change, view);
        }
        if (kind.equals(Kinds.CONTROLLER_REVISION.kind())) {
            return ownedKeys(((ControllerRevision) change.getObject()).getMetadata(),
                    previous == null ? null : ((ControllerRevision) previous.getObject()).getMetadata(), change, view);
        }
        if (kind.equals(Kinds.PERSISTENT_VOLUME_CLAIM.kind())) {
            return claimKeys((PersistentVolumeClaim) change.getObject(),
                    previous == null ? null : (PersistentVolumeClaim) previous.getObject(), change, view);
        }
        return List.of();
    }

    /**
     * A pod's or revision's controlling set (and the previous one when it changed); for an orphan that appeared or
     * whose labels changed, every set of its namespace that selects it (it may adopt it).
     */
    private static Collection<String> ownedKeys(ObjectMeta meta, ObjectMeta before, ObjectChanged change, ClusterView view) {
        Set<String> keys = new LinkedHashSet<>();
        Optional<OwnerReference> controller = Owners.controllerOf(meta);
        Optional<OwnerReference> previousController = before == null ? Optional.empty() : Owners.controllerOf(before);
        previousController.filter(r -> !previousController.equals(controller)).ifPresent(r -> addOwner(keys, r, change));
        if (controller.isPresent()) {
            addOwner(keys, controller.get(), change);
            return keys;
        }
        boolean relabelled = before == null || !Objects.equals(before.getLabels(), meta.getLabels())
                || previousController.isPresent();
        if (change.getType() != ChangeType.DELETED && relabelled) {
            for (ObjectChanged c : view.list(Kinds.STATEFUL_SET.kind(), change.getNamespace())) {
                StatefulSet set = (StatefulSet) c.getObject();
                if (set.getSpec() != null && !LabelSelectors.isEmpty(set.getSpec().getSelector())
                        && LabelSelectors.matches(set.getSpec().getSelector(), meta.getLabels())) {
                    keys.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
                }
            }
        }
        return keys;
    }

    private static void addOwner(Set<String> keys, OwnerReference ref, ObjectChanged change) {
        if (Kinds.STATEFUL_SET.kind().equals(ref.getKind())) {
            keys.add(Keys.of(Kinds.STATEFUL_SET.kind(), change.getNamespace(), ref.getName()));
        }
    }

    /**
     * The sets a claim's change may hold up or release: only its going (deleted, or being deleted) and its owner
     * references count, not its binding. The set is found by reference (the set, or the pod whose name names it),
     * or for a claim without one by its name {@code <template>-<set>-<ordinal>}.
     */
    private static Collection<String> claimKeys(PersistentVolumeClaim claim, PersistentVolumeClaim before,
                                                ObjectChanged change, ClusterView view) {
        ObjectMeta meta = claim.getMetadata();
        boolean relevant = change.getType() == ChangeType.DELETED || before == null
                || !Objects.equals(before.getMetadata().getDeletionTimestamp(), meta.getDeletionTimestamp())
                || !Objects.equals(before.getMetadata().getOwnerReferences(), meta.getOwnerReferences());
        if (!relevant) {
            return List.of();
        }
        Set<String> keys = new LinkedHashSet<>();
        List<OwnerReference> refs = meta.getOwnerReferences() == null ? List.of() : meta.getOwnerReferences();
        for (OwnerReference r : refs) {
            if (Kinds.STATEFUL_SET.kind().equals(r.getKind())) {
                keys.add(Keys.of(Kinds.STATEFUL_SET.kind(), change.getNamespace(), r.getName()));
            } else if (Kinds.POD.kind().equals(r.getKind()) && StatefulPods.parentName(r.getName()) != null) {
                keys.add(Keys.of(Kinds.STATEFUL_SET.kind(), change.getNamespace(), StatefulPods.parentName(r.getName())));
            }
        }
        if (!keys.isEmpty() || change.getType() == ChangeType.CREATED) {
            return keys;
        }
        for (ObjectChanged c : view.list(Kinds.STATEFUL_SET.kind(), change.getNamespace())) {
            StatefulSet set = (StatefulSet) c.getObject();
            if (set.getSpec() != null && isClaimOf(set, meta.getName())) {
                keys.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
            }
        }
        return keys;
    }

    private static boolean isClaimOf(StatefulSet set, String claimName) {
        for (PersistentVolumeClaim t : StatefulPods.claimTemplates(set)) {
            String prefix = t.getMetadata().getName() + "-" + set.getMetadata().getName() + "-";
            if (claimName.startsWith(prefix) && StatefulPods.ordinal("x-" + claimName.substring(prefix.length())) >= 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        Optional<ObjectChanged> current = view.get(key);
        if (current.isEmpty()) {
            return Reconciliation.NOTHING;
        }
        StatefulSet set = (StatefulSet) current.get().getObject();
        if (set.getSpec() == null || set.getMetadata() == null) {
            return Reconciliation.NOTHING;
        }
        String namespace = Keys.namespace(key);
        String name = set.getMetadata().getName();
        List<Pod> pods = new ArrayList<>();
        for (ObjectChanged c : view.listByNamePrefix(Kinds.POD.kind(), namespace, name + "-")) {
            pods.add((Pod) c.getObject());
        }
        List<ControllerRevision> revisions = new ArrayList<>();
        for (ObjectChanged c : view.list(Kinds.CONTROLLER_REVISION.kind(), namespace)) {
            revisions.add((ControllerRevision) c.getObject());
        }
        Map<String, PersistentVolumeClaim> claims = new HashMap<>();
        for (PersistentVolumeClaim t : StatefulPods.claimTemplates(set)) {
            for (ObjectChanged c : view.listByNamePrefix(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), namespace,
                    t.getMetadata().getName() + "-" + name + "-")) {
                claims.put(c.getName(), (PersistentVolumeClaim) c.getObject());
            }
        }
        return StatefulSetControl.sync(new StatefulSetControl.Observed(set, pods, revisions, claims), now);
    }
}
