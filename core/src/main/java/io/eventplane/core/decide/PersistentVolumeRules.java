package io.eventplane.core.decide;

import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.StatusCause;
import io.eventplane.model.CSIPersistentVolumeSource;
import io.eventplane.model.HostPathVolumeSource;
import io.eventplane.model.LocalVolumeSource;
import io.eventplane.model.NFSVolumeSource;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.NodeSelectorTerm;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeSpec;
import io.eventplane.model.PersistentVolumeStatus;
import io.eventplane.model.SecretReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * core/v1 PersistentVolume (ValidatePersistentVolume and its update): capacity (storage only, positive) and access
 * modes are required, exactly one volume source, which never changes; a local volume needs node affinity. The
 * hostPath, local, nfs and csi sources are checked field by field; the others (older in-tree plugins) are stored as
 * given. Binding, provisioning and reclaiming are the next phase's.
 */
final class PersistentVolumeRules implements KindRules<PersistentVolume> {
    /** The PersistentVolumeSource members, in the Go type's order. */
    static final List<String> SOURCES = List.of("gcePersistentDisk", "awsElasticBlockStore", "hostPath", "glusterfs",
            "nfs", "rbd", "iscsi", "cinder", "cephfs", "fc", "flocker", "flexVolume", "azureFile", "vsphereVolume",
            "quobyte", "azureDisk", "photonPersistentDisk", "portworxVolume", "scaleIO", "local", "storageos", "csi");
    static final List<String> RECLAIM_POLICIES = List.of("Delete", "Recycle", "Retain");
    static final List<String> HOST_PATH_TYPES = List.of("", "BlockDevice", "CharDevice", "Directory",
            "DirectoryOrCreate", "File", "FileOrCreate", "Socket");

    /** SetDefaults_PersistentVolume (and SetDefaults_HostPathVolumeSource: type "" means unchecked). */
    @Override
    public PersistentVolume defaults(PersistentVolume pv) {
        if (pv.getSpec() == null) {
            return pv;
        }
        PersistentVolumeSpec spec = ObjectAccess.shallow(pv.getSpec());
        if (spec.getPersistentVolumeReclaimPolicy() == null || spec.getPersistentVolumeReclaimPolicy().isEmpty()) {
            spec.setPersistentVolumeReclaimPolicy("Retain");
        }
        if (spec.getVolumeMode() == null) {
            spec.setVolumeMode("Filesystem");
        }
        if (spec.getHostPath() != null && spec.getHostPath().getType() == null) {
            spec.setHostPath(HostPathVolumeSource.newBuilder(spec.getHostPath()).setType("").build());
        }
        return ObjectAccess.with(pv, "spec", spec);
    }

    /** A new volume is Pending since now (status is the binder's). */
    @Override
    public PersistentVolume prepareForCreate(PersistentVolume pv, Instant now) {
        return PersistentVolume.newBuilder(pv).setStatus(PersistentVolumeStatus.newBuilder().setPhase("Pending")
                .setLastPhaseTransitionTime(now).build()).build();
    }

    @Override
    public List<StatusCause> validate(PersistentVolume pv) {
        List<StatusCause> causes = new ArrayList<>();
        PersistentVolumeSpec spec = pv.getSpec() == null ? new PersistentVolumeSpec() : pv.getSpec();
        if (spec.getAccessModes() == null || spec.getAccessModes().isEmpty()) {
            causes.add(Causes.required("spec.accessModes"));
        }
        Resources.accessModes("spec.accessModes", spec.getAccessModes(), causes);
        Map<String, String> capacity = spec.getCapacity() == null ? Map.of() : spec.getCapacity();
        if (capacity.isEmpty()) {
            causes.add(Causes.required("spec.capacity"));
        }
        if (!capacity.containsKey("storage") || capacity.size() > 1) {
            causes.add(Causes.cause("FieldValueNotSupported", "spec.capacity", "spec.capacity: Unsupported value: "
                    + goResourceList(capacity) + ": supported values: \"storage\""));
        }
        new java.util.TreeMap<>(capacity).forEach((k, v) -> Resources.positive("spec.capacity[" + k + "]", v, causes));
        String reclaim = spec.getPersistentVolumeReclaimPolicy();
        if (reclaim != null && !reclaim.isEmpty() && !RECLAIM_POLICIES.contains(reclaim)) {
            causes.add(Causes.notSupported("spec.persistentVolumeReclaimPolicy", reclaim, RECLAIM_POLICIES));
        }
        boolean nodeAffinity = spec.getNodeAffinity() != null;
        if (nodeAffinity) {
            nodeSelector("spec.nodeAffinity.required", spec.getNodeAffinity().getRequired(), causes);
        }
        int sources = 0;
        for (String source : SOURCES) {
            Object value = ObjectAccess.field(spec, source);
            if (value == null) {
                continue;
            }
            if (sources++ > 0) {
                causes.add(Causes.forbidden("spec." + source, "may not specify more than 1 volume type"));
                continue;
            }
            source(source, value, causes);
            if (source.equals("local") && !nodeAffinity) {
                causes.add(Causes.required("spec.nodeAffinity", "Local volume requires node affinity"));
            }
        }
        if (sources == 0) {
            causes.add(Causes.required("spec", "must specify a volume type"));
        }
        if (spec.getHostPath() != null && "/".equals(clean(spec.getHostPath().getPath())) && "Recycle".equals(reclaim)) {
            causes.add(Causes.forbidden("spec.persistentVolumeReclaimPolicy", "may not be 'recycle' for a hostPath mount of '/'"));
        }
        if (spec.getStorageClassName() != null && !spec.getStorageClassName().isEmpty()) {
            Names.subdomain("spec.storageClassName", spec.getStorageClassName()).ifPresent(causes::add);
        }
        if (spec.getVolumeMode() != null && !Resources.VOLUME_MODES.contains(spec.getVolumeMode())) {
            causes.add(Causes.notSupported("spec.volumeMode", spec.getVolumeMode(), Resources.VOLUME_MODES));
        }
        String vac = spec.getVolumeAttributesClassName();
        if (vac != null) {
            if (vac.isEmpty()) {
                causes.add(Causes.required("spec.volumeAttributesClassName", "an empty string is disallowed"));
            } else {
                Names.subdomain("spec.volumeAttributesClassName", vac).ifPresent(causes::add);
            }
            if (spec.getCsi() == null) {
                causes.add(Causes.required("spec.csi", "has to be specified when using volumeAttributesClassName"));
            }
        }
        return causes;
    }

    private static void source(String name, Object value, List<StatusCause> causes) {
        String f = "spec." + name;
        if (value instanceof HostPathVolumeSource h) {
            if (h.getPath() == null || h.getPath().isEmpty()) {
                causes.add(Causes.required(f + ".path"));
            } else if (backsteps(h.getPath())) {
                causes.add(Causes.invalid(f + ".path", h.getPath(), "must not contain '..'"));
            }
            if (h.getType() != null && !HOST_PATH_TYPES.contains(h.getType())) {
                causes.add(Causes.notSupported(f + ".type", h.getType(), HOST_PATH_TYPES));
            }
        } else if (value instanceof LocalVolumeSource l) {
            if (l.getPath() == null || l.getPath().isEmpty()) {
                causes.add(Causes.required(f + ".path"));
            } else {
                if (!l.getPath().startsWith("/")) {
                    causes.add(Causes.invalid(f + ".path", l.getPath(), "must be an absolute path"));
                }
                if (backsteps(l.getPath())) {
                    causes.add(Causes.invalid(f + ".path", l.getPath(), "must not contain '..'"));
                }
            }
        } else if (value instanceof NFSVolumeSource n) {
            if (n.getServer() == null || n.getServer().isEmpty()) {
                causes.add(Causes.required(f + ".server"));
            }
            if (n.getPath() == null || n.getPath().isEmpty()) {
                causes.add(Causes.required(f + ".path"));
            } else if (!n.getPath().startsWith("/")) {
                causes.add(Causes.invalid(f + ".path", n.getPath(), "must be an absolute path"));
            }
        } else if (value instanceof CSIPersistentVolumeSource c) {
            csi(f, c, causes);
        }
    }

    private static void csi(String f, CSIPersistentVolumeSource c, List<StatusCause> causes) {
        String driver = c.getDriver() == null ? "" : c.getDriver();
        if (driver.isEmpty()) {
            causes.add(Causes.required(f + ".driver"));
        }
        if (driver.length() > 63) {
            causes.add(Causes.cause("FieldValueTooLong", f + ".driver", f + ".driver: Too long: may not be more than 63 bytes"));
        }
        if (!driver.isEmpty()) {
            String d = driver;
            Formats.subdomain(driver.toLowerCase(java.util.Locale.ROOT)).forEach(m -> causes.add(Causes.invalid(f
                    + ".driver", d, m)));
        }
        if (c.getVolumeHandle() == null || c.getVolumeHandle().isEmpty()) {
            causes.add(Causes.required(f + ".volumeHandle"));
        }
        secretRef(f + ".controllerPublishSecretRef", c.getControllerPublishSecretRef(), causes);
        secretRef(f + ".controllerExpandSecretRef", c.getControllerExpandSecretRef(), causes);
        secretRef(f + ".nodePublishSecretRef", c.getNodePublishSecretRef(), causes);
        secretRef(f + ".nodeExpandSecretRef", c.getNodeExpandSecretRef(), causes);
    }

    /** validatePVSecretReference: a name (DNS subdomain) and a namespace (DNS label). */
    private static void secretRef(String f, SecretReference ref, List<StatusCause> causes) {
        if (ref == null) {
            return;
        }
        if (ref.getName() == null || ref.getName().isEmpty()) {
            causes.add(Causes.required(f + ".name"));
        } else {
            Formats.subdomain(ref.getName()).forEach(m -> causes.add(Causes.invalid(f + ".name", ref.getName(), m)));
        }
        if (ref.getNamespace() == null || ref.getNamespace().isEmpty()) {
            causes.add(Causes.required(f + ".namespace"));
        } else {
            Formats.label(f + ".namespace", ref.getNamespace(), causes);
        }
    }

    /** ValidateNodeSelector as a volume's node affinity uses it. */
    private static void nodeSelector(String f, NodeSelector selector, List<StatusCause> causes) {
        if (selector == null) {
            causes.add(Causes.required(f, "must specify required node constraints"));
            return;
        }
        List<NodeSelectorTerm> terms = selector.getNodeSelectorTerms() == null ? List.of() : selector.getNodeSelectorTerms();
        if (terms.isEmpty()) {
            causes.add(Causes.required(f + ".nodeSelectorTerms", "must have at least one node selector term"));
        }
        for (int i = 0; i < terms.size(); i++) {
            List<NodeSelectorRequirement> exprs = terms.get(i).getMatchExpressions() == null ? List.of()
                    : terms.get(i).getMatchExpressions();
            for (int j = 0; j < exprs.size(); j++) {
                requirement(f + ".nodeSelectorTerms[" + i + "].matchExpressions[" + j + "]", exprs.get(j), causes);
            }
        }
    }

    private static void requirement(String f, NodeSelectorRequirement r, List<StatusCause> causes) {
        Workloads.operatorValues(f, r.getOperator(), r.getValues(), true, causes);
        Formats.qualifiedName(f + ".key", r.getKey() == null ? "" : r.getKey(), causes);
    }

    @Override
    public List<StatusCause> validateUpdate(PersistentVolume old, PersistentVolume updated) {
        List<StatusCause> causes = new ArrayList<>();
        PersistentVolumeSpec before = old.getSpec() == null ? new PersistentVolumeSpec() : old.getSpec();
        PersistentVolumeSpec after = updated.getSpec() == null ? new PersistentVolumeSpec() : updated.getSpec();
        for (String source : SOURCES) {
            Object a = ObjectAccess.field(before, source);
            Object b = ObjectAccess.field(after, source);
            if (source.equals("csi") && a != null && b != null && before.getCsi().getControllerExpandSecretRef() == null) {
                // A controllerExpandSecretRef may be added later.
                b = CSIPersistentVolumeSource.newBuilder(after.getCsi()).setControllerExpandSecretRef(null).build();
            }
            if (!Objects.equals(a, b)) {
                // Kubernetes appends a Go diff of the two sources to this message; we do not reproduce it.
                causes.add(Causes.forbidden("spec.persistentvolumesource",
                        "spec.persistentvolumesource is immutable after creation"));
                break;
            }
        }
        if (!Objects.equals(before.getVolumeMode(), after.getVolumeMode())) {
            causes.add(Causes.invalid("volumeMode", after.getVolumeMode() == null ? "null" : after.getVolumeMode(),
                    "field is immutable"));
        }
        if (before.getNodeAffinity() != null && !before.getNodeAffinity().equals(after.getNodeAffinity())) {
            causes.add(Causes.forbidden("nodeAffinity", "field is immutable"));
        }
        if (before.getVolumeAttributesClassName() != null && after.getVolumeAttributesClassName() == null) {
            causes.add(Causes.forbidden("spec.volumeAttributesClassName", "update from non-nil value to nil is forbidden"));
        }
        return causes;
    }

    private static boolean backsteps(String path) {
        for (String part : path.split("/")) {
            if (part.equals("..")) {
                return true;
            }
        }
        return false;
    }

    /** path.Clean for the one case that matters here: any number of slashes is the root. */
    private static String clean(String path) {
        return path != null && !path.isEmpty() && path.chars().allMatch(c -> c == '/') ? "/" : path;
    }

    /** Go's rendering of a ResourceList, approximately: {@code core.ResourceList{"cpu":"1"}}. */
    private static String goResourceList(Map<String, String> list) {
        StringBuilder s = new StringBuilder("core.ResourceList{");
        boolean first = true;
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(list).entrySet()) {
            s.append(first ? "" : ", ").append('"').append(e.getKey()).append("\":\"").append(e.getValue()).append('"');
            first = false;
        }
        return s.append('}').toString();
    }
}
