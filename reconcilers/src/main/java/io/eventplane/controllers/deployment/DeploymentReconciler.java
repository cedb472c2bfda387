package io.eventplane.controllers.deployment;

import io.eventplane.client.ClusterView;
import io.eventplane.core.meta.Owners;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Deployment;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The Deployment controller as a {@link Reconciler}: a Deployment is looked at when it changes, when one of its
 * ReplicaSets changes (or an orphan ReplicaSet it could adopt), and, for Recreate, when a pod of one of its
 * ReplicaSets is deleted. The decision is {@link DeploymentDecider}'s.
 */
public final class DeploymentReconciler implements Reconciler {
    @Override
    public String kind() {
        return Kinds.DEPLOYMENT.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        String kind = change.getKind();
        if (kind.equals(Kinds.DEPLOYMENT.kind())) {
            return List.of(Keys.of(kind, change.getNamespace(), change.getName()));
        }
        if (kind.equals(Kinds.REPLICA_SET.kind())) {
            return ownersOf((ReplicaSet) change.getObject(), change, view);
        }
        if (kind.equals(Kinds.POD.kind()) && change.getType() == ChangeType.DELETED) {
            Optional<OwnerReference> rsRef = Owners.controllerOf(((Pod) change.getObject()).getMetadata())
                    .filter(r -> Kinds.REPLICA_SET.kind().equals(r.getKind()));
            if (rsRef.isPresent()) {
                Optional<ObjectChanged> rs = view.get(Kinds.REPLICA_SET.kind(), change.getNamespace(), rsRef.get().getName());
                if (rs.isPresent()) {
                    Optional<OwnerReference> dRef = Owners.controllerOf(((ReplicaSet) rs.get().getObject()).getMetadata())
                            .filter(r -> Kinds.DEPLOYMENT.kind().equals(r.getKind()));
                    if (dRef.isPresent()) {
                        String key = Keys.of(Kinds.DEPLOYMENT.kind(), change.getNamespace(), dRef.get().getName());
                        boolean recreate = view.get(key).map(c -> !RolloutMath.isRollingUpdate((Deployment) c.getObject()))
                                .orElse(false);
                        return recreate ? List.of(key) : List.of();
                    }
                }
            }
        }
        return List.of();
    }

    private static Collection<String> ownersOf(ReplicaSet rs, ObjectChanged change, ClusterView view) {
        Optional<OwnerReference> ref = Owners.controllerOf(rs.getMetadata());
        if (ref.isPresent()) {
            return Kinds.DEPLOYMENT.kind().equals(ref.get().getKind())
                    ? List.of(Keys.of(Kinds.DEPLOYMENT.kind(), change.getNamespace(), ref.get().getName())) : List.of();
        }
        Set<String> keys = new LinkedHashSet<>();
        if (change.getType() != ChangeType.DELETED) {
            for (ObjectChanged c : view.list(Kinds.DEPLOYMENT.kind(), change.getNamespace())) {
                Deployment d = (Deployment) c.getObject();
                if (d.getSpec() != null && !LabelSelectors.isEmpty(d.getSpec().getSelector())
                        && LabelSelectors.matches(d.getSpec().getSelector(), rs.getMetadata().getLabels())) {
                    keys.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
                }
            }
        }
        return keys;
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        Optional<ObjectChanged> current = view.get(key);
        if (current.isEmpty()) {
            return Reconciliation.NOTHING;
        }
        Deployment d = (Deployment) current.get().getObject();
        String ns = Keys.namespace(key);
        List<ReplicaSet> replicaSets = new ArrayList<>();
        for (ObjectChanged c : view.list(Kinds.REPLICA_SET.kind(), ns)) {
            replicaSets.add((ReplicaSet) c.getObject());
        }
        List<Pod> pods = new ArrayList<>();
        if (d.getSpec() != null && !RolloutMath.isRollingUpdate(d)) {
            for (ObjectChanged c : view.list(Kinds.POD.kind(), ns)) {
                pods.add((Pod) c.getObject());
            }
        }
        return DeploymentDecider.decide(d, replicaSets, pods, now);
    }
}
