package io.eventplane.controllers.volume.provisioner;

import static io.eventplane.core.meta.PersistentVolumes.BETA_STORAGE_PROVISIONER;
import static io.eventplane.core.meta.PersistentVolumes.PROVISIONED_BY;
import static io.eventplane.core.meta.PersistentVolumes.SELECTED_NODE;
import static io.eventplane.core.meta.PersistentVolumes.STORAGE_PROVISIONER;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.controllers.volume.StorageState;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.HostPathVolumeSource;
import io.eventplane.model.Node;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.NodeSelectorTerm;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeSpec;
import io.eventplane.model.StorageClass;
import io.eventplane.model.VolumeNodeAffinity;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the simulated provisioner decides, as sig-storage's external provisioner library does for a real one: a claim
 * the binder handed to it (the storage-provisioner annotation names it) gets a volume {@code pvc-<claim uid>} of the
 * requested size, the claim's access and volume modes, the class's reclaim policy and mount options, a hostPath
 * source, already bound to the claim (claimRef with its uid: the binder completes the binding); for a
 * WaitForFirstConsumer class only once the scheduler picked a node, and pinned to that node. A Released volume it
 * provisioned with reclaim policy Delete is deleted. And the cluster's default class {@code standard}. Pure.
 */
final class Provisioning {
    static final String DIRECTORY = "/var/lib/eventplane/volumes/";

    private Provisioning() {
    }

    /** The next step for a claim: a volume to create, a selected node that does not exist to give back, or nothing. */
    static Reconciliation provision(PersistentVolumeClaim claim, StorageState state, String provisioner) {
        ObjectMeta meta = claim.getMetadata();
        boolean handedOver = provisioner.equals(PersistentVolumes.annotation(meta, STORAGE_PROVISIONER))
                || provisioner.equals(PersistentVolumes.annotation(meta, BETA_STORAGE_PROVISIONER));
        if (!handedOver || meta.getDeletionTimestamp() != null || !PersistentVolumes.volumeName(claim).isEmpty()) {
            return Reconciliation.NOTHING;
        }
        StorageClass sc = state.storageClass(PersistentVolumes.claimClass(claim)).orElse(null);
        if (sc == null || !provisioner.equals(sc.getProvisioner())) {
            return Reconciliation.NOTHING;
        }
        String name = volumeName(claim);
        if (state.volume(name).isPresent()) {
            return Reconciliation.NOTHING; // provisioned; the binder binds it
        }
        String selected = PersistentVolumes.annotation(meta, SELECTED_NODE);
        Node node = null;
        if (PersistentVolumes.isDelayBinding(sc)) {
            if (selected == null) {
                return Reconciliation.NOTHING; // the binder hands such a claim over only with a node
            }
            node = state.node(selected).orElse(null);
            if (node == null) {
                // The node is gone: the claim goes back to the scheduler for another one.
                Map<String, String> annotations = new LinkedHashMap<>(meta.getAnnotations());
                annotations.remove(SELECTED_NODE);
                PersistentVolumeClaim rescheduled = PersistentVolumeClaim.newBuilder(claim)
                        .setMetadata(ObjectMeta.newBuilder(meta).setAnnotations(annotations).build()).build();
                return new Reconciliation(List.of(new Action.Update(rescheduled)), List.of(EventNotice.warning(
                        ObjectReferences.of(claim), "ProvisioningFailed", "node \"" + selected + "\" not found")), null);
            }
        }
        String claimKey = meta.getNamespace() + "/" + meta.getName();
        EventNotice provisioning = EventNotice.normal(ObjectReferences.of(claim), "Provisioning",
                "External provisioner is provisioning volume for claim \"" + claimKey + "\"");
        EventNotice succeeded = EventNotice.normal(ObjectReferences.of(claim), "ProvisioningSucceeded",
                "Successfully provisioned volume " + name);
        return new Reconciliation(List.of(new Action.Create(volumeFor(claim, sc, node, provisioner), succeeded,
                "ProvisioningFailed")), List.of(provisioning), null);
    }

    /** The volume's name: pvc- and the claim's uid, as every external provisioner names it. */
    static String volumeName(PersistentVolumeClaim claim) {
        return "pvc-" + claim.getMetadata().getUid();
    }

    static PersistentVolume volumeFor(PersistentVolumeClaim claim, StorageClass sc, Node node, String provisioner) {
        ObjectMeta meta = claim.getMetadata();
        String name = volumeName(claim);
        Map<String, String> capacity = new LinkedHashMap<>();
        capacity.put("storage", PersistentVolumes.requested(claim).toString());
        List<String> modes = claim.getSpec().getAccessModes();
        PersistentVolumeSpec.Builder spec = PersistentVolumeSpec.newBuilder()
                .setCapacity(capacity)
                .setAccessModes(modes == null ? null : new ArrayList<>(modes))
                .setClaimRef(PersistentVolumes.referenceTo(claim))
                .setPersistentVolumeReclaimPolicy(sc.getReclaimPolicy() == null ? "Delete" : sc.getReclaimPolicy())
                .setStorageClassName(sc.getMetadata().getName())
                .setMountOptions(sc.getMountOptions() == null ? null : new ArrayList<>(sc.getMountOptions()))
                .setVolumeMode(claim.getSpec().getVolumeMode())
                .setHostPath(HostPathVolumeSource.newBuilder().setType("DirectoryOrCreate")
                        .setPath(DIRECTORY + name + "_" + meta.getNamespace() + "_" + meta.getName()).build());
        if (node != null) {
            spec.setNodeAffinity(pinnedTo(node));
        }
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(PROVISIONED_BY, provisioner);
        return PersistentVolume.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setAnnotations(annotations).build())
                .setSpec(spec.build()).build();
    }

    /** Usable only on the node by its hostname label (its name when it has none), as local volumes are. */
    private static VolumeNodeAffinity pinnedTo(Node node) {
        Map<String, String> labels = node.getMetadata().getLabels();
        String hostname = labels == null ? null : labels.get(PersistentVolumes.HOSTNAME_LABEL);
        NodeSelectorRequirement requirement = hostname != null
                ? NodeSelectorRequirement.newBuilder().setKey(PersistentVolumes.HOSTNAME_LABEL).setOperator("In")
                        .setValues(List.of(hostname)).build()
                : NodeSelectorRequirement.newBuilder().setKey("metadata.name").setOperator("In")
                        .setValues(List.of(node.getMetadata().getName())).build();
        NodeSelectorTerm term = hostname != null ? NodeSelectorTerm.newBuilder().setMatchExpressions(List.of(requirement)).build()
                : NodeSelectorTerm.newBuilder().setMatchFields(List.of(requirement)).build();
        return VolumeNodeAffinity.newBuilder().setRequired(NodeSelector.newBuilder()
                .setNodeSelectorTerms(List.of(term)).build()).build();
    }

    /** A Released volume this provisioner made, with reclaim policy Delete, is deleted. */
    static Reconciliation reclaim(PersistentVolume volume, String provisioner) {
        ObjectMeta meta = volume.getMetadata();
        boolean ours = provisioner.equals(PersistentVolumes.annotation(meta, PROVISIONED_BY));
        if (!ours || meta.getDeletionTimestamp() != null || !"Released".equals(PersistentVolumes.phase(volume))
                || !"Delete".equals(volume.getSpec().getPersistentVolumeReclaimPolicy())) {
            return Reconciliation.NOTHING;
        }
        return Reconciliation.of(List.of(new Action.Delete(Kinds.PERSISTENT_VOLUME, "", meta.getName(), meta.getUid(),
                null, "VolumeFailedDelete")));
    }

    /**
     * The cluster's default class, as kind ships one: {@code standard}, this provisioner's, WaitForFirstConsumer,
     * reclaim Delete; created when neither it nor any other default class exists.
     */
    static Optional<StorageClass> defaultClass(StorageState state, String name, String provisioner) {
        if (state.storageClass(name).isPresent() || PersistentVolumes.defaultClass(state.storageClasses()).isPresent()) {
            return Optional.empty();
        }
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(PersistentVolumes.DEFAULT_CLASS, "true");
        return Optional.of(StorageClass.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setAnnotations(annotations).build())
                .setProvisioner(provisioner).setReclaimPolicy("Delete")
                .setVolumeBindingMode(PersistentVolumes.WAIT_FOR_FIRST_CONSUMER).build());
    }
}
