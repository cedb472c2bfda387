package io.eventplane.controllers.volume;

import io.eventplane.client.ClusterView;
import io.eventplane.client.ObjectStore;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Node;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.StorageClass;
import java.util.Collection;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * What the volume controllers read: claims, volumes, classes, the pods of a namespace and nodes. From the view in the
 * controllers' shells, from a list of objects in decision tests. Read-only: objects read are never changed.
 */
public interface StorageState {
    Optional<PersistentVolumeClaim> claim(String namespace, String name);

    Collection<PersistentVolumeClaim> claims();

    Optional<PersistentVolume> volume(String name);

    Collection<PersistentVolume> volumes();

    Optional<StorageClass> storageClass(String name);

    Collection<StorageClass> storageClasses();

    Collection<Pod> pods(String namespace);

    Optional<Node> node(String name);

    /** The state the view holds now. */
    static StorageState of(ClusterView view) {
        return new StorageState() {
            @Override
            public Optional<PersistentVolumeClaim> claim(String namespace, String name) {
                return view.get(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), namespace, name)
                        .map(c -> (PersistentVolumeClaim) c.getObject());
            }

            @Override
            public Collection<PersistentVolumeClaim> claims() {
                return view.objects(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), null);
            }

            @Override
            public Optional<PersistentVolume> volume(String name) {
                return view.get(Kinds.PERSISTENT_VOLUME.kind(), "", name).map(c -> (PersistentVolume) c.getObject());
            }

            @Override
            public Collection<PersistentVolume> volumes() {
                return view.objects(Kinds.PERSISTENT_VOLUME.kind(), null);
            }

            @Override
            public Optional<StorageClass> storageClass(String name) {
                return view.get(Kinds.STORAGE_CLASS.kind(), "", name).map(c -> (StorageClass) c.getObject());
            }

            @Override
            public Collection<StorageClass> storageClasses() {
                return view.objects(Kinds.STORAGE_CLASS.kind(), null);
            }

            @Override
            public Collection<Pod> pods(String namespace) {
                return view.objects(Kinds.POD.kind(), namespace);
            }

            @Override
            public Optional<Node> node(String name) {
                return view.get(Kinds.NODE.kind(), "", name).map(c -> (Node) c.getObject());
            }
        };
    }

    /** A state of exactly these objects (decision tests). */
    static StorageState of(Collection<? extends SpecificRecord> objects) {
        return of(ObjectStore.of(objects));
    }
}
