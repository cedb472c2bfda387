package io.eventplane.gateway.api;

import io.eventplane.client.ClusterView;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeClaimSpec;
import io.eventplane.model.StorageClass;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * The mutating admission that needs other objects than the one written, before the command goes to the writer (which
 * decides one object alone): kube-apiserver's DefaultStorageClass plugin gives a new PersistentVolumeClaim without
 * any class the default StorageClass. Other kinds pass unchanged.
 */
final class Admission {
    private Admission() {
    }

    /** The object a create admits. */
    static SpecificRecord onCreate(KindInfo kind, SpecificRecord object, ClusterView view) {
        if (kind == Kinds.PERSISTENT_VOLUME_CLAIM) {
            return defaultStorageClass((PersistentVolumeClaim) object, view);
        }
        return object;
    }

    /**
     * A claim that names no class (neither the field, even empty, nor the beta annotation) gets the default class, the
     * newest when several are marked default; none when there is none.
     */
    static PersistentVolumeClaim defaultStorageClass(PersistentVolumeClaim claim, ClusterView view) {
        PersistentVolumeClaimSpec spec = claim.getSpec();
        if (spec == null || spec.getStorageClassName() != null
                || PersistentVolumes.hasAnnotation(claim.getMetadata(), PersistentVolumes.BETA_STORAGE_CLASS)) {
            return claim;
        }
        Optional<StorageClass> byDefault = PersistentVolumes.defaultClass(
                view.<StorageClass>objects(Kinds.STORAGE_CLASS.kind(), null));
        if (byDefault.isEmpty()) {
            return claim;
        }
        return PersistentVolumeClaim.newBuilder(claim).setSpec(PersistentVolumeClaimSpec.newBuilder(spec)
                .setStorageClassName(byDefault.get().getMetadata().getName()).build()).build();
    }
}
