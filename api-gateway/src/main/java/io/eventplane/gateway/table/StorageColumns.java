package io.eventplane.gateway.table;

import static io.eventplane.gateway.table.KindColumns.age;
import static io.eventplane.gateway.table.KindColumns.name;
import static io.eventplane.gateway.table.KindColumns.nz;
import static io.eventplane.gateway.table.KindColumns.row;

import io.eventplane.core.codec.Quantity;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.table.Columns.Column;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeClaimSpec;
import io.eventplane.model.PersistentVolumeClaimStatus;
import io.eventplane.model.PersistentVolumeSpec;
import io.eventplane.model.PersistentVolumeStatus;
import io.eventplane.model.StorageClass;
import java.util.List;
import java.util.Map;

/** kubectl's printers for PersistentVolumeClaim, PersistentVolume and StorageClass (pkg/printers/internalversion). */
final class StorageColumns {
    private static final String BETA_CLASS = "volume.beta.kubernetes.io/storage-class";
    private static final Column ACCESS_MODES = Column.of("Access Modes", "accessModes contains the actual access modes "
            + "the volume backing the PVC has.");
    private static final Column ATTRIBUTES_CLASS = Column.of("VolumeAttributesClass", "VolumeAttributesClass of the pvc");
    private static final Column VOLUME_MODE = Column.wide("VolumeMode", "volumeMode defines what type of volume is "
            + "required by the claim. Value of Filesystem is implied when not included in claim spec.");

    private StorageColumns() {
    }

    /** NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE (VOLUMEMODE). */
    static final Columns PERSISTENT_VOLUME_CLAIM = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Status", "phase represents the current phase of PersistentVolumeClaim."),
            Column.of("Volume", "volumeName is the binding reference to the PersistentVolume backing this claim."),
            Column.of("Capacity", "capacity represents the actual resources of the underlying volume."),
            ACCESS_MODES, Column.of("StorageClass", "StorageClass of the pvc"), ATTRIBUTES_CLASS, Column.ageColumn(),
            VOLUME_MODE), (o, now) -> {
                PersistentVolumeClaim pvc = (PersistentVolumeClaim) o;
                PersistentVolumeClaimSpec spec = pvc.getSpec() == null ? new PersistentVolumeClaimSpec() : pvc.getSpec();
                PersistentVolumeClaimStatus status = pvc.getStatus() == null ? new PersistentVolumeClaimStatus()
                        : pvc.getStatus();
                String phase = terminating(pvc) ? "Terminating" : nz(status.getPhase());
                String capacity = "";
                String modes = "";
                if (spec.getVolumeName() != null && !spec.getVolumeName().isEmpty()) {
                    modes = accessModes(status.getAccessModes());
                    capacity = quantity(status.getCapacity());
                }
                String storageClass = beta(pvc.getMetadata());
                if (storageClass == null) {
                    storageClass = nz(spec.getStorageClassName());
                }
                return row(name(pvc), phase, nz(spec.getVolumeName()), capacity, modes, storageClass,
                        unsetIfEmpty(spec.getVolumeAttributesClassName()), age(pvc, now),
                        spec.getVolumeMode() == null ? "<unset>" : spec.getVolumeMode());
            });

    /** NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS VOLUMEATTRIBUTESCLASS REASON AGE (VOLUMEMODE). */
    static final Columns PERSISTENT_VOLUME = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Capacity", "capacity is the description of the persistent volume's resources and capacity."),
            Column.of("Access Modes", "accessModes contains all ways the volume can be mounted."),
            Column.of("Reclaim Policy", "persistentVolumeReclaimPolicy defines what happens to a persistent volume when "
                    + "released from its claim."),
            Column.of("Status", "phase indicates if a volume is available, bound to a claim, or released by a claim."),
            Column.of("Claim", "claimRef is part of a bi-directional binding between PersistentVolume and "
                    + "PersistentVolumeClaim."),
            Column.of("StorageClass", "StorageClass of the pv"),
            Column.of("VolumeAttributesClass", "VolumeAttributesClass of the pv"),
            Column.of("Reason", "reason is a brief CamelCase string that describes any failure and is meant for machine "
                    + "parsing and tidy display in the CLI."),
            Column.ageColumn(), Column.wide("VolumeMode", "volumeMode defines if a volume is intended to be used with a "
                    + "formatted filesystem or to remain in raw block state.")), (o, now) -> {
                PersistentVolume pv = (PersistentVolume) o;
                PersistentVolumeSpec spec = pv.getSpec() == null ? new PersistentVolumeSpec() : pv.getSpec();
                PersistentVolumeStatus status = pv.getStatus() == null ? new PersistentVolumeStatus() : pv.getStatus();
                ObjectReference claim = spec.getClaimRef();
                String claimed = claim == null ? "" : nz(claim.getNamespace()) + "/" + nz(claim.getName());
                String storageClass = beta(pv.getMetadata());
                return row(name(pv), quantity(spec.getCapacity()), accessModes(spec.getAccessModes()),
                        nz(spec.getPersistentVolumeReclaimPolicy()), terminating(pv) ? "Terminating" : nz(status.getPhase()),
                        claimed, storageClass != null ? storageClass : nz(spec.getStorageClassName()),
                        unsetIfEmpty(spec.getVolumeAttributesClassName()), nz(status.getReason()), age(pv, now),
                        spec.getVolumeMode() == null ? "<unset>" : spec.getVolumeMode());
            });

    /** NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE; the default class says so. */
    static final Columns STORAGE_CLASS = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Provisioner", "provisioner indicates the type of the provisioner."),
            Column.of("ReclaimPolicy", "reclaimPolicy controls the reclaimPolicy for dynamically provisioned "
                    + "PersistentVolumes of this storage class. Defaults to Delete."),
            Column.of("VolumeBindingMode", "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned "
                    + "and bound. When unset, VolumeBindingImmediate is used."),
            Column.of("AllowVolumeExpansion", "allowVolumeExpansion shows whether the storage class allow volume expand."),
            Column.ageColumn()), (o, now) -> {
                StorageClass sc = (StorageClass) o;
                String name = name(sc) + (isDefault(sc.getMetadata()) ? " (default)" : "");
                return row(name, nz(sc.getProvisioner()), sc.getReclaimPolicy() == null ? "Delete" : sc.getReclaimPolicy(),
                        sc.getVolumeBindingMode() == null ? "Immediate" : sc.getVolumeBindingMode(),
                        Boolean.TRUE.equals(sc.getAllowVolumeExpansion()), age(sc, now));
            });

    /** GetAccessModesAsString: {@code RWO,ROX,RWX,RWOP} in that order, each once. */
    static String accessModes(List<String> modes) {
        if (modes == null) {
            return "";
        }
        StringBuilder s = new StringBuilder();
        String[][] order = {{"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"},
                {"ReadWriteOncePod", "RWOP"}};
        for (String[] mode : order) {
            if (modes.contains(mode[0])) {
                s.append(s.length() == 0 ? "" : ",").append(mode[1]);
            }
        }
        return s.toString();
    }

    /** A ResourceList's storage as Quantity.String() prints it; {@code 0} when absent. */
    private static String quantity(Map<String, String> list) {
        String storage = list == null ? null : list.get("storage");
        return storage == null ? "0" : Quantity.parse(storage).canonical();
    }

    private static String unsetIfEmpty(String s) {
        return s == null || s.isEmpty() ? "<unset>" : s;
    }

    private static boolean terminating(org.apache.avro.specific.SpecificRecord o) {
        return ObjectAccess.meta(o).getDeletionTimestamp() != null;
    }

    private static String beta(ObjectMeta meta) {
        return meta == null || meta.getAnnotations() == null ? null : meta.getAnnotations().get(BETA_CLASS);
    }

    /** storageutil.IsDefaultAnnotation. */
    static boolean isDefault(ObjectMeta meta) {
        Map<String, String> a = meta == null || meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
        return "true".equals(a.get("storageclass.kubernetes.io/is-default-class"))
                || "true".equals(a.get("storageclass.beta.kubernetes.io/is-default-class"));
    }
}
