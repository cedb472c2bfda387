package io.eventplane.testkit.objects;

import io.eventplane.model.HostPathVolumeSource;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.NodeSelectorTerm;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeSpec;
import io.eventplane.model.PersistentVolumeStatus;
import io.eventplane.model.VolumeNodeAffinity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A PersistentVolume (cluster-scoped): 1Gi, ReadWriteOnce, a hostPath /mnt/&lt;name&gt; source (the least a valid
 * volume needs), no class, no reclaim policy (the writer's default is Retain), no status until one is given.
 */
public final class PersistentVolumeBuilder extends MetaBuilder<PersistentVolumeBuilder> {
    private final PersistentVolumeSpec.Builder spec = PersistentVolumeSpec.newBuilder();
    private String capacity = "1Gi";
    private List<String> accessModes = List.of("ReadWriteOnce");
    private PersistentVolumeStatus.Builder status;
    private final List<UnaryOperator<PersistentVolumeSpec.Builder>> specEdits = new ArrayList<>();

    PersistentVolumeBuilder(String name) {
        super(name, null);
        spec.setHostPath(HostPathVolumeSource.newBuilder().setPath("/mnt/" + name).build());
    }

    public PersistentVolumeBuilder capacity(String quantity) {
        this.capacity = quantity;
        return this;
    }

    public PersistentVolumeBuilder accessModes(String... modes) {
        this.accessModes = List.of(modes);
        return this;
    }

    public PersistentVolumeBuilder storageClass(String name) {
        spec.setStorageClassName(name);
        return this;
    }

    /** Retain, Delete or Recycle. */
    public PersistentVolumeBuilder reclaimPolicy(String policy) {
        spec.setPersistentVolumeReclaimPolicy(policy);
        return this;
    }

    /** Bound to this claim, or pre-bound to it when {@code uid} is null. */
    public PersistentVolumeBuilder claimRef(String namespace, String name, String uid) {
        spec.setClaimRef(ObjectReference.newBuilder().setKind("PersistentVolumeClaim").setApiVersion("v1")
                .setNamespace(namespace).setName(name).setUid(uid).build());
        return this;
    }

    /** Usable only on nodes whose kubernetes.io/hostname is one of these. */
    public PersistentVolumeBuilder onNodes(String... hostnames) {
        spec.setNodeAffinity(VolumeNodeAffinity.newBuilder().setRequired(NodeSelector.newBuilder().setNodeSelectorTerms(
                List.of(NodeSelectorTerm.newBuilder().setMatchExpressions(List.of(NodeSelectorRequirement.newBuilder()
                        .setKey("kubernetes.io/hostname").setOperator("In").setValues(List.of(hostnames)).build()))
                        .build())).build()).build());
        return this;
    }

    /** A status with this phase (Pending, Available, Bound, Released, Failed). */
    public PersistentVolumeBuilder phase(String phase) {
        status = (status == null ? PersistentVolumeStatus.newBuilder() : status).setPhase(phase);
        return this;
    }

    /** Any other spec field, applied last. */
    public PersistentVolumeBuilder spec(UnaryOperator<PersistentVolumeSpec.Builder> edit) {
        specEdits.add(edit);
        return this;
    }

    public PersistentVolume build() {
        Map<String, String> cap = new LinkedHashMap<>();
        cap.put("storage", capacity);
        PersistentVolumeSpec.Builder b = spec.setCapacity(cap)
                .setAccessModes(accessModes == null ? null : new ArrayList<>(accessModes));
        for (UnaryOperator<PersistentVolumeSpec.Builder> edit : specEdits) {
            b = edit.apply(b);
        }
        return PersistentVolume.newBuilder().setMetadata(buildMeta()).setSpec(b.build())
                .setStatus(status == null ? null : status.build()).build();
    }
}
