package io.eventplane.controllers.volume.provisioner;

import io.eventplane.client.ClusterView;
import io.eventplane.controllers.volume.StorageState;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A storage provisioner for simulated nodes ({@link Provisioning}), running as an external provisioner would beside
 * the binder: it provisions the claims of classes whose provisioner is {@value #NAME} and deletes their released
 * volumes. When it starts acting it creates the default StorageClass {@value #DEFAULT_CLASS} unless it or another
 * default class exists, as kind's cluster creation does (so {@code eventplane up} and the Helm chart have one).
 */
public final class SimulatedProvisioner implements Reconciler {
    public static final String NAME = "sim.eventplane.io/hostpath";
    public static final String DEFAULT_CLASS = "standard";
    private static final String DEFAULT_CLASS_KEY = Keys.of(Kinds.STORAGE_CLASS.kind(), "", DEFAULT_CLASS);

    @Override
    public String kind() {
        return Kinds.PERSISTENT_VOLUME_CLAIM.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (change.getKind().equals(kind())) {
            return List.of(Keys.of(kind(), change.getNamespace(), change.getName()));
        }
        if (change.getKind().equals(Kinds.PERSISTENT_VOLUME.kind())
                && NAME.equals(PersistentVolumes.annotation(((PersistentVolume) change.getObject()).getMetadata(),
                PersistentVolumes.PROVISIONED_BY))) {
            return List.of(Keys.of(change.getKind(), "", change.getName()));
        }
        return List.of();
    }

    /** Every claim and volume, and the default class (looked at only now: a class deleted later stays deleted). */
    @Override
    public Collection<String> initialKeys(ClusterView view) {
        List<String> keys = new ArrayList<>();
        keys.add(DEFAULT_CLASS_KEY);
        for (String kind : List.of(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), Kinds.PERSISTENT_VOLUME.kind())) {
            for (ObjectChanged c : view.list(kind, null)) {
                keys.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
            }
        }
        return keys;
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        StorageState state = StorageState.of(view);
        if (key.equals(DEFAULT_CLASS_KEY)) {
            return Provisioning.defaultClass(state, DEFAULT_CLASS, NAME)
                    .map(sc -> Reconciliation.of(List.<Action>of(new Action.Create(sc, null, null))))
                    .orElse(Reconciliation.NOTHING);
        }
        ObjectChanged current = view.get(key).orElse(null);
        if (current == null) {
            return Reconciliation.NOTHING;
        }
        if (current.getObject() instanceof PersistentVolumeClaim claim) {
            return Provisioning.provision(claim, state, NAME);
        }
        return Provisioning.reclaim((PersistentVolume) current.getObject(), NAME);
    }
}
