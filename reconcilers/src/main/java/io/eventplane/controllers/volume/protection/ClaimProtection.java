package io.eventplane.controllers.volume.protection;

import static io.eventplane.core.meta.PersistentVolumes.PVC_PROTECTION;

import io.eventplane.client.ClusterView;
import io.eventplane.controllers.volume.StorageState;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.core.meta.PodStates;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * kube-controller-manager's pvc-protection controller (pkg/controller/volume/pvcprotection): every claim carries the
 * {@code kubernetes.io/pvc-protection} finalizer, so a claim deleted while a pod uses it stays (Terminating) until no
 * scheduled pod names it any more; then the finalizer goes and the claim with it. A pod counts from the moment it is
 * bound to a node, whatever its phase, until it is deleted. Kubernetes also adds the finalizer at admission; here
 * the controller alone does, a moment after creation.
 */
public final class ClaimProtection implements Reconciler {
    @Override
    public String kind() {
        return Kinds.PERSISTENT_VOLUME_CLAIM.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (change.getKind().equals(kind())) {
            return List.of(Keys.of(kind(), change.getNamespace(), change.getName()));
        }
        if (!change.getKind().equals(Kinds.POD.kind())) {
            return List.of();
        }
        Pod pod = (Pod) change.getObject();
        List<String> claims = PersistentVolumes.claimNames(pod.getSpec());
        if (claims.isEmpty()) {
            return List.of();
        }
        // Only a pod that went away, finished or is not scheduled can let a claim go (as pvc-protection filters).
        boolean scheduled = pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty();
        if (change.getType() != ChangeType.DELETED && !PodStates.isTerminal(pod) && scheduled) {
            return List.of();
        }
        List<String> keys = new ArrayList<>();
        claims.forEach(c -> keys.add(Keys.of(kind(), change.getNamespace(), c)));
        return keys;
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        return view.get(key).map(c -> decide((PersistentVolumeClaim) c.getObject(), StorageState.of(view)))
                .orElse(Reconciliation.NOTHING);
    }

    static Reconciliation decide(PersistentVolumeClaim claim, StorageState state) {
        ObjectMeta meta = claim.getMetadata();
        boolean deleting = meta.getDeletionTimestamp() != null;
        boolean has = Finalizers.has(meta, PVC_PROTECTION);
        if (!deleting && !has) {
            return Reconciliation.of(List.of(new Action.Update(PersistentVolumeClaim.newBuilder(claim)
                    .setMetadata(Finalizers.add(meta, PVC_PROTECTION)).build())));
        }
        if (deleting && has && !inUse(claim, state)) {
            return Reconciliation.of(List.of(new Action.Update(PersistentVolumeClaim.newBuilder(claim)
                    .setMetadata(Finalizers.remove(meta, PVC_PROTECTION)).build())));
        }
        return Reconciliation.NOTHING;
    }

    /** podUsesPVC: a pod bound to a node names the claim among its volumes. */
    static boolean inUse(PersistentVolumeClaim claim, StorageState state) {
        String name = claim.getMetadata().getName();
        for (Pod p : state.pods(claim.getMetadata().getNamespace())) {
            boolean scheduled = p.getSpec() != null && p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty();
            if (scheduled && PersistentVolumes.claimNames(p.getSpec()).contains(name)) {
                return true;
            }
        }
        return false;
    }
}
