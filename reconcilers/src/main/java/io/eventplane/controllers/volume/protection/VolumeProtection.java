package io.eventplane.controllers.volume.protection;

import static io.eventplane.core.meta.PersistentVolumes.PV_PROTECTION;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PersistentVolume;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * kube-controller-manager's pv-protection controller (pkg/controller/volume/pvprotection): every volume carries the
 * {@code kubernetes.io/pv-protection} finalizer, so a volume deleted while Bound stays until it is not.
 */
public final class VolumeProtection implements Reconciler {
    @Override
    public String kind() {
        return Kinds.PERSISTENT_VOLUME.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        return change.getKind().equals(kind()) ? List.of(Keys.of(kind(), "", change.getName())) : List.of();
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        return view.get(key).map(c -> decide((PersistentVolume) c.getObject())).orElse(Reconciliation.NOTHING);
    }

    static Reconciliation decide(PersistentVolume volume) {
        ObjectMeta meta = volume.getMetadata();
        boolean deleting = meta.getDeletionTimestamp() != null;
        boolean has = Finalizers.has(meta, PV_PROTECTION);
        if (!deleting && !has) {
            return Reconciliation.of(List.of(new Action.Update(PersistentVolume.newBuilder(volume)
                    .setMetadata(Finalizers.add(meta, PV_PROTECTION)).build())));
        }
        if (deleting && has && !"Bound".equals(PersistentVolumes.phase(volume))) {
            return Reconciliation.of(List.of(new Action.Update(PersistentVolume.newBuilder(volume)
                    .setMetadata(Finalizers.remove(meta, PV_PROTECTION)).build())));
        }
        return Reconciliation.NOTHING;
    }
}
