package io.eventplane.client.admission;

import io.eventplane.client.ClusterView;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeClaimSpec;
import io.eventplane.model.StorageClass;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * Kubernetes' DefaultStorageClass plugin: a new PersistentVolumeClaim that names no class (neither the field, even
 * empty, nor the beta annotation) gets the default StorageClass, the newest when several are marked default; none
 * when there is none. Updates and other kinds pass unchanged.
 */
final class DefaultStorageClass implements AdmissionChain.Mutating {
    private final ClusterView view;

    DefaultStorageClass(ClusterView view) {
        this.view = view;
    }

    @Override
    public SpecificRecord admit(AdmissionRequest request, SpecificRecord object) {
        if (request.kind() != Kinds.PERSISTENT_VOLUME_CLAIM || request.operation() != AdmissionRequest.Operation.CREATE) {
            return object;
        }
        PersistentVolumeClaim claim = (PersistentVolumeClaim) object;
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
