package io.eventplane.core.decide;

import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.StatusCause;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeClaimSpec;
import io.eventplane.model.PersistentVolumeClaimStatus;
import io.eventplane.model.TypedLocalObjectReference;
import io.eventplane.model.TypedObjectReference;
import io.eventplane.model.VolumeResourceRequirements;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * core/v1 PersistentVolumeClaim (ValidatePersistentVolumeClaim and its update): access modes and a positive storage
 * request are required; the spec is immutable after creation except that a bound claim may change
 * resources.requests (grow, or shrink back above status.capacity) and volumeAttributesClassName, volumeName may be set
 * once, and a storage class may be set where there was none. Binding and provisioning are the next phase's.
 */
final class PersistentVolumeClaimRules implements KindRules<PersistentVolumeClaim> {
    static final String BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";

    /**
     * SetDefaults_PersistentVolumeClaimSpec; and apiVersion and kind, which the record carries for StatefulSet
     * templates, are never stored on a claim of its own (they are the envelope of the object).
     */
    @Override
    public PersistentVolumeClaim defaults(PersistentVolumeClaim pvc) {
        PersistentVolumeClaim.Builder out = PersistentVolumeClaim.newBuilder(pvc).setApiVersion(null).setKind(null);
        if (pvc.getSpec() != null && pvc.getSpec().getVolumeMode() == null) {
            out.setSpec(ObjectAccess.with(pvc.getSpec(), "volumeMode", "Filesystem"));
        }
        return out.build();
    }

    /** A new claim is Pending (status is the binder's). */
    @Override
    public PersistentVolumeClaim prepareForCreate(PersistentVolumeClaim pvc, Instant now) {
        return PersistentVolumeClaim.newBuilder(pvc)
                .setStatus(PersistentVolumeClaimStatus.newBuilder().setPhase("Pending").build()).build();
    }

    @Override
    public List<StatusCause> validate(PersistentVolumeClaim pvc) {
        List<StatusCause> causes = new ArrayList<>();
        spec("spec", pvc.getSpec() == null ? new PersistentVolumeClaimSpec() : pvc.getSpec(), causes);
        return causes;
    }

    /** ValidatePersistentVolumeClaimSpec. */
    static void spec(String path, PersistentVolumeClaimSpec spec, List<StatusCause> causes) {
        if (spec.getAccessModes() == null || spec.getAccessModes().isEmpty()) {
            causes.add(Causes.required(path + ".accessModes", "at least 1 access mode is required"));
        }
        Workloads.wellFormed(path + ".selector", spec.getSelector(), causes);
        Resources.accessModes(path + ".accessModes", spec.getAccessModes(), causes);
        Map<String, String> requests = spec.getResources() == null ? null : spec.getResources().getRequests();
        String storage = requests == null ? null : requests.get("storage");
        String storagePath = path + ".resources[storage]"; // sic: Kubernetes' path skips requests
        if (storage == null) {
            causes.add(Causes.required(storagePath));
        } else {
            int before = causes.size();
            Resources.positive(storagePath, storage, causes);
            if (causes.size() == before) {
                Resources.quantityValue(storagePath, "storage", storage, causes);
            }
        }
        if (spec.getStorageClassName() != null && !spec.getStorageClassName().isEmpty()) {
            Names.subdomain(path + ".storageClassName", spec.getStorageClassName()).ifPresent(causes::add);
        }
        if (spec.getVolumeMode() != null && !Resources.VOLUME_MODES.contains(spec.getVolumeMode())) {
            causes.add(Causes.notSupported(path + ".volumeMode", spec.getVolumeMode(), Resources.VOLUME_MODES));
        }
        TypedLocalObjectReference source = spec.getDataSource();
        if (source != null) {
            dataSource(path + ".dataSource", source.getApiGroup(), source.getKind(), source.getName(), causes);
        }
        TypedObjectReference ref = spec.getDataSourceRef();
        if (ref != null) {
            dataSource(path + ".dataSourceRef", ref.getApiGroup(), ref.getKind(), ref.getName(), causes);
            if (ref.getNamespace() != null && !ref.getNamespace().isEmpty()) {
                Names.label(path + ".dataSourceRef.namespace", ref.getNamespace()).ifPresent(causes::add);
            }
        }
        if (ref != null && ref.getNamespace() != null && !ref.getNamespace().isEmpty()) {
            if (source != null) {
                causes.add(Causes.invalidShown(path, path + ".dataSource",
                        "may not be specified when dataSourceRef.namespace is specified"));
            }
        } else if (source != null && ref != null && !(Objects.equals(source.getApiGroup(), ref.getApiGroup())
                && Objects.equals(source.getKind(), ref.getKind()) && Objects.equals(source.getName(), ref.getName()))) {
            causes.add(Causes.invalidShown(path, path + ".dataSource", "must match dataSourceRef"));
        }
        String vac = spec.getVolumeAttributesClassName();
        if (vac != null && !vac.isEmpty()) {
            Names.subdomain(path + ".volumeAttributesClassName", vac).ifPresent(causes::add);
        }
    }

    private static void dataSource(String f, String apiGroup, String kind, String name, List<StatusCause> causes) {
        if (name == null || name.isEmpty()) {
            causes.add(Causes.required(f + ".name"));
        }
        if (kind == null || kind.isEmpty()) {
            causes.add(Causes.required(f + ".kind"));
        }
        String group = apiGroup == null ? "" : apiGroup;
        if (group.isEmpty() && !"PersistentVolumeClaim".equals(kind)) {
            causes.add(Causes.invalid(f, kind == null ? "" : kind,
                    "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
        }
        if (!group.isEmpty()) {
            Formats.subdomain(group).forEach(m -> causes.add(Causes.invalid(f + ".apiGroup", group, m)));
        }
    }

    @Override
    public List<StatusCause> validateUpdate(PersistentVolumeClaim old, PersistentVolumeClaim updated) {
        List<StatusCause> causes = new ArrayList<>();
        PersistentVolumeClaimSpec before = old.getSpec() == null ? new PersistentVolumeClaimSpec() : old.getSpec();
        PersistentVolumeClaimSpec after = updated.getSpec() == null ? new PersistentVolumeClaimSpec() : updated.getSpec();
        boolean bound = updated.getStatus() != null && "Bound".equals(updated.getStatus().getPhase());
        PersistentVolumeClaimSpec.Builder masked = PersistentVolumeClaimSpec.newBuilder(after);
        if (before.getVolumeName() == null || before.getVolumeName().isEmpty()) {
            masked.setVolumeName(before.getVolumeName()); // volumeName is set once, by the binder or the user
        }
        String beta = annotation(old.getMetadata());
        if (before.getStorageClassName() == null && after.getStorageClassName() != null
                && (beta == null || beta.equals(after.getStorageClassName()))) {
            masked.setStorageClassName(null); // a class may be set where there was none (or the beta annotation's)
        }
        if (bound) {
            Map<String, String> requests = after.getResources() == null || after.getResources().getRequests() == null
                    ? new LinkedHashMap<>() : new LinkedHashMap<>(after.getResources().getRequests());
            String oldStorage = storage(before);
            if (oldStorage == null) {
                requests.remove("storage");
            } else {
                requests.put("storage", oldStorage);
            }
            VolumeResourceRequirements r = after.getResources() == null ? new VolumeResourceRequirements()
                    : VolumeResourceRequirements.newBuilder(after.getResources()).build();
            r.setRequests(requests);
            masked.setResources(r);
            if (after.getVolumeAttributesClassName() != null) {
                masked.setVolumeAttributesClassName(before.getVolumeAttributesClassName());
            }
        }
        if (!masked.build().equals(before)) {
            // Kubernetes appends a Go diff of the two specs to this message; we do not reproduce it.
            causes.add(Causes.forbidden("spec", "spec is immutable after creation except resources.requests and "
                    + "volumeAttributesClassName for bound claims"));
        }
        String oldSize = storage(before);
        String newSize = storage(after);
        if (oldSize != null && newSize != null && Resources.quantity(newSize).compareTo(Resources.quantity(oldSize)) < 0) {
            // RecoverVolumeExpansionFailure (on by default): a claim may shrink back, but not to its capacity.
            String capacity = updated.getStatus() == null || updated.getStatus().getCapacity() == null ? null
                    : updated.getStatus().getCapacity().get("storage");
            if (Resources.quantity(newSize).compareTo(Resources.quantity(capacity == null ? "0" : capacity)) <= 0) {
                causes.add(Causes.forbidden("spec.resources.requests.storage", "field can not be less than status.capacity"));
            }
        }
        if (!Objects.equals(before.getVolumeMode(), after.getVolumeMode())) {
            causes.add(Causes.invalid("volumeMode", after.getVolumeMode() == null ? "null" : after.getVolumeMode(),
                    "field is immutable")); // sic: Kubernetes' path has no spec.
        }
        if (before.getVolumeAttributesClassName() != null
                && !before.getVolumeAttributesClassName().equals(after.getVolumeAttributesClassName())) {
            if (after.getVolumeAttributesClassName() == null) {
                causes.add(Causes.forbidden("spec.volumeAttributesClassName", "update from non-nil value to nil is forbidden"));
            } else if (after.getVolumeAttributesClassName().isEmpty()) {
                causes.add(Causes.forbidden("spec.volumeAttributesClassName",
                        "update from non-nil value to an empty string is forbidden"));
            }
        }
        return causes;
    }

    private static String storage(PersistentVolumeClaimSpec spec) {
        return spec.getResources() == null || spec.getResources().getRequests() == null ? null
                : spec.getResources().getRequests().get("storage");
    }

    private static String annotation(ObjectMeta meta) {
        return meta == null || meta.getAnnotations() == null ? null : meta.getAnnotations().get(BETA_STORAGE_CLASS);
    }
}
