package io.eventplane.core.meta;

import io.eventplane.core.codec.Quantity;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeClaimSpec;
import io.eventplane.model.PersistentVolumeSpec;
import io.eventplane.model.PodSpec;
import io.eventplane.model.StorageClass;
import io.eventplane.model.Volume;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the PersistentVolume binder, the provisioner, the scheduler's volume binding and the kubelet share about claims
 * and volumes (Kubernetes' component-helpers/storage/volume): the annotations of the binding protocol, a claim's and
 * a volume's class, whether a volume satisfies a claim, a volume's node affinity, the default StorageClass. Pure.
 */
public final class PersistentVolumes {
    /** On a claim: its binding to a volume is complete (the binder's). */
    public static final String BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
    /** On a claim or volume: bound by a controller, not pre-bound by a user. */
    public static final String BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
    /** On a volume: the provisioner that created it (and deletes it). */
    public static final String PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
    /** On a claim of a WaitForFirstConsumer class: the node the scheduler chose for its first pod. */
    public static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";
    /** On a claim: the provisioner the binder asked to provision it. */
    public static final String STORAGE_PROVISIONER = "volume.kubernetes.io/storage-provisioner";
    public static final String BETA_STORAGE_PROVISIONER = "volume.beta.kubernetes.io/storage-provisioner";
    public static final String BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";
    public static final String DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";
    public static final String BETA_DEFAULT_CLASS = "storageclass.beta.kubernetes.io/is-default-class";
    /** The finalizers the protection controllers keep on claims and volumes that are in use. */
    public static final String PVC_PROTECTION = "kubernetes.io/pvc-protection";
    public static final String PV_PROTECTION = "kubernetes.io/pv-protection";
    /** A class whose volumes are created by hand only. */
    public static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";
    public static final String WAIT_FOR_FIRST_CONSUMER = "WaitForFirstConsumer";
    public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

    private PersistentVolumes() {
    }

    /** The claims a pod's persistentVolumeClaim volumes name, in order, each once; empty for most pods. */
    public static List<String> claimNames(PodSpec spec) {
        List<Volume> volumes = spec == null ? null : spec.getVolumes();
        if (volumes == null || volumes.isEmpty()) {
            return List.of();
        }
        List<String> out = null;
        for (Volume v : volumes) {
            if (v.getPersistentVolumeClaim() != null && v.getPersistentVolumeClaim().getClaimName() != null) {
                if (out == null) {
                    out = new ArrayList<>(2);
                }
                if (!out.contains(v.getPersistentVolumeClaim().getClaimName())) {
                    out.add(v.getPersistentVolumeClaim().getClaimName());
                }
            }
        }
        return out == null ? List.of() : List.copyOf(out);
    }

    public static String annotation(ObjectMeta meta, String key) {
        return meta == null || meta.getAnnotations() == null ? null : meta.getAnnotations().get(key);
    }

    public static boolean hasAnnotation(ObjectMeta meta, String key) {
        return annotation(meta, key) != null;
    }

    /** The claim's class: the beta annotation wins over the field; "" for none. */
    public static String claimClass(PersistentVolumeClaim claim) {
        String beta = annotation(claim.getMetadata(), BETA_STORAGE_CLASS);
        if (beta != null) {
            return beta;
        }
        String name = claim.getSpec() == null ? null : claim.getSpec().getStorageClassName();
        return name == null ? "" : name;
    }

    /** The volume's class: the beta annotation wins over the field; "" for none. */
    public static String volumeClass(PersistentVolume volume) {
        String beta = annotation(volume.getMetadata(), BETA_STORAGE_CLASS);
        if (beta != null) {
            return beta;
        }
        String name = volume.getSpec() == null ? null : volume.getSpec().getStorageClassName();
        return name == null ? "" : name;
    }

    public static String volumeName(PersistentVolumeClaim claim) {
        String name = claim.getSpec() == null ? null : claim.getSpec().getVolumeName();
        return name == null ? "" : name;
    }

    /** Bound to a volume and the binding completed (the scheduler's and kubelet's test). */
    public static boolean isFullyBound(PersistentVolumeClaim claim) {
        return !volumeName(claim).isEmpty() && hasAnnotation(claim.getMetadata(), BIND_COMPLETED);
    }

    public static String phase(PersistentVolumeClaim claim) {
        return claim.getStatus() == null ? null : claim.getStatus().getPhase();
    }

    public static String phase(PersistentVolume volume) {
        return volume.getStatus() == null ? null : volume.getStatus().getPhase();
    }

    public static ObjectReference claimRef(PersistentVolume volume) {
        return volume.getSpec() == null ? null : volume.getSpec().getClaimRef();
    }

    /** IsVolumeBoundToClaim: the volume's claimRef names the claim, with its uid or (pre-bound) none. */
    public static boolean isBoundToClaim(PersistentVolume volume, PersistentVolumeClaim claim) {
        ObjectReference ref = claimRef(volume);
        ObjectMeta meta = claim.getMetadata();
        if (ref == null || !Objects.equals(ref.getName(), meta.getName())
                || !Objects.equals(ref.getNamespace(), meta.getNamespace())) {
            return false;
        }
        return ref.getUid() == null || ref.getUid().isEmpty() || ref.getUid().equals(meta.getUid());
    }

    /** A reference to the claim, as a volume's claimRef carries it (v1.GetReference). */
    public static ObjectReference referenceTo(PersistentVolumeClaim claim) {
        ObjectMeta meta = claim.getMetadata();
        return ObjectReference.newBuilder().setKind("PersistentVolumeClaim").setApiVersion("v1")
                .setNamespace(meta.getNamespace()).setName(meta.getName()).setUid(meta.getUid())
                .setResourceVersion(meta.getResourceVersion()).build();
    }

    /**
     * GetBindVolumeToClaim: the volume with its claimRef naming the claim (with its uid), annotated bound-by-controller
     * unless it was pre-bound to the claim; empty when its claimRef already names the claim.
     */
    public static Optional<PersistentVolume> boundTo(PersistentVolume volume, PersistentVolumeClaim claim) {
        ObjectReference ref = claimRef(volume);
        ObjectMeta claimMeta = claim.getMetadata();
        if (ref != null && Objects.equals(ref.getName(), claimMeta.getName())
                && Objects.equals(ref.getNamespace(), claimMeta.getNamespace())
                && Objects.equals(ref.getUid(), claimMeta.getUid())) {
            return Optional.empty();
        }
        ObjectMeta meta = volume.getMetadata();
        if (!isBoundToClaim(volume, claim)) {
            meta = withAnnotation(meta, BOUND_BY_CONTROLLER, "yes");
        }
        PersistentVolumeSpec spec = PersistentVolumeSpec.newBuilder(volume.getSpec()).setClaimRef(referenceTo(claim)).build();
        return Optional.of(PersistentVolume.newBuilder(volume).setMetadata(meta).setSpec(spec).build());
    }

    /** The metadata with one annotation set. */
    public static ObjectMeta withAnnotation(ObjectMeta meta, String key, String value) {
        Map<String, String> annotations = meta.getAnnotations() == null ? new java.util.LinkedHashMap<>()
                : new java.util.LinkedHashMap<>(meta.getAnnotations());
        annotations.put(key, value);
        return ObjectMeta.newBuilder(meta).setAnnotations(annotations).build();
    }

    /** The storage a claim requests (0 when none is given). */
    public static Quantity requested(PersistentVolumeClaim claim) {
        Map<String, String> requests = claim.getSpec() == null || claim.getSpec().getResources() == null ? null
                : claim.getSpec().getResources().getRequests();
        return quantity(requests == null ? null : requests.get("storage"));
    }

    public static Quantity capacity(PersistentVolume volume) {
        Map<String, String> capacity = volume.getSpec() == null ? null : volume.getSpec().getCapacity();
        return quantity(capacity == null ? null : capacity.get("storage"));
    }

    private static Quantity quantity(String q) {
        return q == null || !Quantity.isValid(q) ? Quantity.parse("0") : Quantity.parse(q);
    }

    /** CheckAccessModes: the volume offers every mode the claim asks for. */
    public static boolean accessModesSatisfied(PersistentVolumeClaim claim, PersistentVolume volume) {
        List<String> wanted = claim.getSpec() == null || claim.getSpec().getAccessModes() == null ? List.of()
                : claim.getSpec().getAccessModes();
        List<String> offered = volume.getSpec() == null || volume.getSpec().getAccessModes() == null ? List.of()
                : volume.getSpec().getAccessModes();
        return offered.containsAll(wanted);
    }

    /** CheckVolumeModeMismatches: Filesystem unless said otherwise, on both sides. */
    public static boolean volumeModeMismatch(PersistentVolumeClaimSpec claim, PersistentVolumeSpec volume) {
        String wanted = claim == null || claim.getVolumeMode() == null ? "Filesystem" : claim.getVolumeMode();
        String offered = volume == null || volume.getVolumeMode() == null ? "Filesystem" : volume.getVolumeMode();
        return !wanted.equals(offered);
    }

    /** CheckNodeAffinity: a volume without node affinity may be used on any node. */
    public static boolean nodeAffinityAllows(PersistentVolume volume, Map<String, String> nodeLabels, String nodeName) {
        PersistentVolumeSpec spec = volume.getSpec();
        if (spec == null || spec.getNodeAffinity() == null || spec.getNodeAffinity().getRequired() == null) {
            return true;
        }
        return NodeSelectors.matches(spec.getNodeAffinity().getRequired(), nodeLabels == null ? Map.of() : nodeLabels,
                nodeName);
    }

    /** The node a scheduler considers for a claim: its labels and name. */
    public record Node(Map<String, String> labels, String name) {
    }

    /**
     * FindMatchingVolume: the volume pre-bound to the claim (when its node affinity allows {@code node}), else the
     * smallest Available one of the claim's class, access modes, volume mode and selector that is large enough.
     *
     * @param node         the node considered (the scheduler's path), or null (the binder's)
     * @param excluded     names of volumes already chosen for other claims of the same pod
     * @param delayBinding the claim's class binds at the first consumer: without a node, only a pre-bound volume
     */
    public static Optional<PersistentVolume> findMatching(PersistentVolumeClaim claim, Collection<PersistentVolume> volumes,
                                                          Node node, Set<String> excluded, boolean delayBinding) {
        Quantity requested = requested(claim);
        String requestedClass = claimClass(claim);
        PersistentVolume smallest = null;
        Quantity smallestSize = null;
        for (PersistentVolume v : volumes) {
            if (excluded.contains(v.getMetadata().getName())) {
                continue;
            }
            if (claimRef(v) != null && !isBoundToClaim(v, claim)) {
                continue;
            }
            Quantity size = capacity(v);
            if (size.compareTo(requested) < 0 || volumeModeMismatch(claim.getSpec(), v.getSpec())
                    || v.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            boolean nodeAllows = node == null || nodeAffinityAllows(v, node.labels(), node.name());
            if (isBoundToClaim(v, claim)) {
                return nodeAllows ? Optional.of(v) : Optional.empty();
            }
            if (node == null && delayBinding) {
                continue; // the scheduler binds these, knowing the node
            }
            if (!"Available".equals(phase(v)) || !nodeAllows || !requestedClass.equals(volumeClass(v))) {
                continue;
            }
            if (claim.getSpec() != null && claim.getSpec().getSelector() != null
                    && !LabelSelectors.matches(claim.getSpec().getSelector(), labels(v.getMetadata()))) {
                continue;
            }
            if (!accessModesSatisfied(claim, v)) {
                continue;
            }
            if (smallest == null || smallestSize.compareTo(size) > 0) {
                smallest = v;
                smallestSize = size;
            }
        }
        return Optional.ofNullable(smallest);
    }

    public static boolean isDefault(StorageClass sc) {
        return "true".equals(annotation(sc.getMetadata(), DEFAULT_CLASS))
                || "true".equals(annotation(sc.getMetadata(), BETA_DEFAULT_CLASS));
    }

    /** GetDefaultClass: of the classes marked default, the newest (then the first by name). */
    public static Optional<StorageClass> defaultClass(Collection<StorageClass> classes) {
        StorageClass best = null;
        for (StorageClass sc : classes) {
            if (!isDefault(sc)) {
                continue;
            }
            if (best == null || newer(sc, best)) {
                best = sc;
            }
        }
        return Optional.ofNullable(best);
    }

    private static boolean newer(StorageClass a, StorageClass b) {
        Instant ta = a.getMetadata().getCreationTimestamp();
        Instant tb = b.getMetadata().getCreationTimestamp();
        if (ta != null && tb != null && !ta.equals(tb)) {
            return ta.isAfter(tb);
        }
        return a.getMetadata().getName().compareTo(b.getMetadata().getName()) < 0;
    }

    public static boolean isDelayBinding(StorageClass sc) {
        return sc != null && WAIT_FOR_FIRST_CONSUMER.equals(sc.getVolumeBindingMode());
    }

    private static Map<String, String> labels(ObjectMeta meta) {
        return meta == null || meta.getLabels() == null ? Map.of() : meta.getLabels();
    }
}
