package io.eventplane.controllers.volume.persistentvolume;

import io.eventplane.client.ClusterView;
import io.eventplane.controllers.volume.StorageState;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * kube-controller-manager's persistentvolume-binder (pkg/controller/volume/persistentvolume) as a keyed controller
 * over two kinds: claims ({@link ClaimSync}) and volumes ({@link VolumeSync}). A change of either names both sides of
 * its binding; a new StorageClass names the claims still waiting (a default class to assign, a provisioner to ask).
 */
public final class PersistentVolumeBinder implements Reconciler {
    /** Volumes by the claim their claimRef names ({@code namespace/name}). */
    static final String VOLUMES_BY_CLAIM = "persistentvolumes-by-claim";

    @Override
    public String kind() {
        return Kinds.PERSISTENT_VOLUME_CLAIM.kind();
    }

    @Override
    public void index(ClusterView view) {
        view.addIndex(VOLUMES_BY_CLAIM, Kinds.PERSISTENT_VOLUME.kind(), c -> {
            ObjectReference ref = PersistentVolumes.claimRef((PersistentVolume) c.getObject());
            return ref == null ? null : ref.getNamespace() + "/" + ref.getName();
        });
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        String kind = change.getKind();
        Set<String> keys = new LinkedHashSet<>();
        if (kind.equals(Kinds.PERSISTENT_VOLUME_CLAIM.kind())) {
            keys.add(Keys.of(kind, change.getNamespace(), change.getName()));
            String volume = PersistentVolumes.volumeName((PersistentVolumeClaim) change.getObject());
            if (!volume.isEmpty()) {
                keys.add(volumeKey(volume));
            }
            for (ObjectChanged v : view.indexed(VOLUMES_BY_CLAIM, change.getNamespace() + "/" + change.getName())) {
                keys.add(volumeKey(v.getName()));
            }
        } else if (kind.equals(Kinds.PERSISTENT_VOLUME.kind())) {
            keys.add(volumeKey(change.getName()));
            for (ObjectChanged c : new ObjectChanged[] {change, previous}) {
                ObjectReference ref = c == null ? null : PersistentVolumes.claimRef((PersistentVolume) c.getObject());
                if (ref != null && ref.getName() != null) {
                    keys.add(Keys.of(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), ref.getNamespace(), ref.getName()));
                }
            }
        } else if (kind.equals(Kinds.STORAGE_CLASS.kind())) {
            for (ObjectChanged c : view.list(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), null)) {
                if (!PersistentVolumes.isFullyBound((PersistentVolumeClaim) c.getObject())) {
                    keys.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
                }
            }
        }
        return keys;
    }

    @Override
    public Collection<String> initialKeys(ClusterView view) {
        List<String> keys = new ArrayList<>();
        for (String kind : List.of(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), Kinds.PERSISTENT_VOLUME.kind())) {
            for (ObjectChanged c : view.list(kind, null)) {
                keys.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
            }
        }
        return keys;
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        ObjectChanged current = view.get(key).orElse(null);
        if (current == null) {
            return Reconciliation.NOTHING;
        }
        StorageState state = StorageState.of(view);
        if (current.getObject() instanceof PersistentVolumeClaim claim) {
            return ClaimSync.sync(claim, state, now);
        }
        return VolumeSync.sync((PersistentVolume) current.getObject(), state, now);
    }

    private static String volumeKey(String name) {
        return Keys.of(Kinds.PERSISTENT_VOLUME.kind(), "", name);
    }
}
