package io.eventplane.controllers.disruption;

import io.eventplane.client.ClusterView;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.StatefulSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The disruption controller's shell step: a budget is recomputed whenever it or a pod of its namespace changes, and
 * its status written when it differs (the API's eviction subresource reads {@code disruptionsAllowed}).
 */
public final class DisruptionReconciler implements Reconciler {
    @Override
    public String kind() {
        return Kinds.POD_DISRUPTION_BUDGET.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (change.getKind().equals(kind())) {
            return List.of(Keys.of(kind(), change.getNamespace(), change.getName()));
        }
        if (!change.getKind().equals(Kinds.POD.kind())) {
            return List.of();
        }
        List<String> keys = new ArrayList<>();
        for (ObjectChanged c : view.list(kind(), change.getNamespace())) {
            keys.add(Keys.of(kind(), c.getNamespace(), c.getName()));
        }
        return keys;
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        ObjectChanged current = view.get(key).orElse(null);
        if (current == null) {
            return Reconciliation.NOTHING;
        }
        PodDisruptionBudget pdb = (PodDisruptionBudget) current.getObject();
        if (pdb.getMetadata() != null && pdb.getMetadata().getDeletionTimestamp() != null) {
            return Reconciliation.NOTHING;
        }
        List<Pod> pods = new ArrayList<>();
        for (ObjectChanged c : view.list(Kinds.POD.kind(), current.getNamespace())) {
            pods.add((Pod) c.getObject());
        }
        DisruptionDecider.Result r = DisruptionDecider.decide(pdb, pods,
                owner -> scaleOf(owner, current.getNamespace(), view), now);
        Duration requeue = r.recheckAt() == null ? null : Duration.between(now, r.recheckAt()).plusMillis(10);
        if (DisruptionDecider.same(withoutTimes(pdb.getStatus()), withoutTimes(r.status()))) {
            return new Reconciliation(List.of(), List.of(), requeue);
        }
        PodDisruptionBudget next = PodDisruptionBudget.newBuilder(pdb).setStatus(r.status()).build();
        return new Reconciliation(List.of(new Action.UpdateStatus(next)), List.of(), requeue);
    }

    /** A status compared without the condition's transition time (which only changes with the status itself). */
    private static io.eventplane.model.PodDisruptionBudgetStatus withoutTimes(io.eventplane.model.PodDisruptionBudgetStatus s) {
        if (s == null) {
            return null;
        }
        io.eventplane.model.PodDisruptionBudgetStatus copy = io.eventplane.model.PodDisruptionBudgetStatus.newBuilder(s).build();
        if (copy.getConditions() != null) {
            List<io.eventplane.model.Condition> cs = new ArrayList<>();
            copy.getConditions().forEach(c -> cs.add(io.eventplane.model.Condition.newBuilder(c).setLastTransitionTime(null).build()));
            copy.setConditions(cs);
        }
        return copy;
    }

    private static Integer scaleOf(OwnerReference owner, String namespace, ClusterView view) {
        if (owner.getKind() == null || owner.getName() == null) {
            return null;
        }
        ObjectChanged c = view.get(owner.getKind(), namespace, owner.getName()).orElse(null);
        if (c == null || !c.getUid().equals(owner.getUid())) {
            return null;
        }
        Object o = c.getObject();
        Integer replicas = null;
        if (o instanceof ReplicaSet rs && rs.getSpec() != null) {
            replicas = rs.getSpec().getReplicas();
        } else if (o instanceof ReplicationController rc && rc.getSpec() != null) {
            replicas = rc.getSpec().getReplicas();
        } else if (o instanceof StatefulSet ss && ss.getSpec() != null) {
            replicas = ss.getSpec().getReplicas();
        }
        return replicas;
    }
}
