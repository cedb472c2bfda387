package io.eventplane.testkit.objects;

import io.eventplane.model.LabelSelector;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeClaimSpec;
import io.eventplane.model.PersistentVolumeClaimStatus;
import io.eventplane.model.VolumeResourceRequirements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A PersistentVolumeClaim in namespace default: ReadWriteOnce and 1Gi (the least a valid claim asks for), no class
 * (the admission default applies), no status until one is given.
 */
public final class PersistentVolumeClaimBuilder extends MetaBuilder<PersistentVolumeClaimBuilder> {
    private final PersistentVolumeClaimSpec.Builder spec = PersistentVolumeClaimSpec.newBuilder();
    private List<String> accessModes = List.of("ReadWriteOnce");
    private String storage = "1Gi";
    private PersistentVolumeClaimStatus.Builder status;
    private final List<UnaryOperator<PersistentVolumeClaimSpec.Builder>> specEdits = new ArrayList<>();

    PersistentVolumeClaimBuilder(String name) {
        super(name, "default");
    }

    /** The storage request, e.g. 5Gi. */
    public PersistentVolumeClaimBuilder storage(String quantity) {
        this.storage = quantity;
        return this;
    }

    public PersistentVolumeClaimBuilder accessModes(String... modes) {
        this.accessModes = List.of(modes);
        return this;
    }

    /** spec.storageClassName ("" asks for no class at all). */
    public PersistentVolumeClaimBuilder storageClass(String name) {
        spec.setStorageClassName(name);
        return this;
    }

    /** Pre-bound to this PersistentVolume (spec.volumeName). */
    public PersistentVolumeClaimBuilder volumeName(String name) {
        spec.setVolumeName(name);
        return this;
    }

    public PersistentVolumeClaimBuilder selector(LabelSelector selector) {
        spec.setSelector(selector);
        return this;
    }

    /** A status with this phase (Pending, Bound, Lost). */
    public PersistentVolumeClaimBuilder phase(String phase) {
        status = (status == null ? PersistentVolumeClaimStatus.newBuilder() : status).setPhase(phase);
        return this;
    }

    /** Any other spec field, applied last. */
    public PersistentVolumeClaimBuilder spec(UnaryOperator<PersistentVolumeClaimSpec.Builder> edit) {
        specEdits.add(edit);
        return this;
    }

    public PersistentVolumeClaim build() {
        Map<String, String> requests = new LinkedHashMap<>();
        if (storage != null) {
            requests.put("storage", storage);
        }
        PersistentVolumeClaimSpec.Builder b = spec.setAccessModes(accessModes == null ? null : new ArrayList<>(accessModes))
                .setResources(VolumeResourceRequirements.newBuilder().setRequests(requests).build());
        for (UnaryOperator<PersistentVolumeClaimSpec.Builder> edit : specEdits) {
            b = edit.apply(b);
        }
        return PersistentVolumeClaim.newBuilder().setMetadata(buildMeta()).setSpec(b.build())
                .setStatus(status == null ? null : status.build()).build();
    }
}
